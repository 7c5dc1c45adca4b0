//! The `combat-odds` binary: parse the flags, run the subcommand, and map what failed
//! to one line and an exit code.

use clap::Parser;
use combat_odds_core::interrupt;

mod cli;

fn main() {
    combat_odds_report::export::frames::configure_printing();
    // The first Ctrl-C asks every phase to stop; if the process is still running after
    // the grace, it ends here, so no phase can ignore Ctrl-C.
    let _ = ctrlc::set_handler(|| {
        interrupt::request();
        std::thread::sleep(interrupt::GRACE);
        // A write that could not stop in time leaves no temporary directory behind.
        combat_odds_report::export::directory::remove_temporaries();
        eprintln!("error: {}", combat_odds_core::Error::Interrupted);
        std::process::exit(cli::INTERRUPTED);
    });
    let args = cli::Args::parse();
    if let Err(e) = cli::run(args) {
        eprintln!("error: {}", e.message());
        std::process::exit(e.exit_code());
    }
}
