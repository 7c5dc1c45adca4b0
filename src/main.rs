//! The `combat-odds` binary: parse, run, map errors to exit codes.

use clap::Parser;

fn main() {
    combat_odds::export::frames::configure_printing();
    combat_odds::interrupt::install_handler();
    let args = combat_odds::cli::Args::parse();
    if let Err(e) = combat_odds::cli::run(args) {
        eprintln!("error: {e}");
        std::process::exit(e.exit_code());
    }
}
