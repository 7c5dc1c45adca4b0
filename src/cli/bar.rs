//! Progress on standard error while it is a terminal, and nothing otherwise, so that
//! piped and captured output stays clean.

use std::io::IsTerminal;

/// A progress bar on standard error while it is a terminal, and nothing otherwise, so
/// that piped and captured output stays clean.
pub struct Bar(Option<indicatif::ProgressBar>);

impl Bar {
    /// A bar counting `unit` (trials, cases, changes).
    pub fn new(unit: &str) -> Self {
        Bar(std::io::stderr().is_terminal().then(|| {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template(&format!(
                    "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {unit} ({{per_sec}}, {{eta}} left)"
                ))
                .expect("a valid template")
                .progress_chars("=> "),
            );
            bar
        }))
    }

    /// `done` of `planned` finished.
    pub fn show(&self, done: u64, planned: u64) {
        if let Some(bar) = &self.0 {
            bar.set_length(planned);
            bar.set_position(done);
        }
    }

    /// Clears the bar, whatever the work's outcome.
    pub fn finish(self) {
        if let Some(bar) = self.0 {
            bar.finish_and_clear();
        }
    }

    /// Runs the exact stage with a spinner on a terminal: it can take minutes, and
    /// Ctrl-C and `--exact-seconds` are the ways out, which the spinner says.
    pub fn solving<T>(solve: impl FnOnce() -> T) -> T {
        let spinner = std::io::stderr().is_terminal().then(|| {
            let spinner = indicatif::ProgressBar::new_spinner();
            spinner.set_message("solving exactly (Ctrl-C stops; --exact-seconds bounds it)");
            spinner.enable_steady_tick(std::time::Duration::from_millis(200));
            spinner
        });
        let solved = solve();
        if let Some(spinner) = spinner {
            spinner.finish_and_clear();
        }
        solved
    }
}
