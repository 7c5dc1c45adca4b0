//! What the browser and load tests under `tests/` share: the repository, a child
//! process that dies with its guard, and the page's server started on a free port.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process killed when dropped, so a failed test leaves nothing running.
pub struct Running(pub Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The repository this workspace sits in.
pub fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository")
}

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// Waits until `port` on loopback accepts connections.
pub async fn listening(port: u16) {
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "nothing listens on port {port}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// `combat-odds serve` (the main workspace's release build) on a free port, listening:
/// the process and its address.
pub async fn serve() -> (Running, String) {
    serve_with(&[]).await
}

/// [`serve`] with `flags` besides the port.
pub async fn serve_with(flags: &[&str]) -> (Running, String) {
    let binary = repository().join("target/release/combat-odds");
    assert!(binary.exists(), "build the binary first: cargo build --release ({})", binary.display());
    let port = free_port();
    let server = Running(
        Command::new(&binary)
            .args(["serve", "--port", &port.to_string()])
            .args(flags)
            .stdout(Stdio::null())
            .spawn()
            .expect("the server starts"),
    );
    listening(port).await;
    (server, format!("http://127.0.0.1:{port}"))
}
