//! A user's file, read only when it is a regular file of at most a stated size.
//!
//! A path can name anything: a device (`/dev/zero` reads until memory runs out), a
//! FIFO (opening it waits forever for a writer), a directory. None of those is a
//! scenario, a table or a results file, so each is refused with what it is, before it
//! is opened; a regular file past its kind's [`Limit`] is refused with its size and
//! the limit, and a file that grows while it is read is read no further than the limit.

use std::io::Read;
use std::path::Path;

use crate::error::{Error, Result};

/// The most bytes a kind of file may hold, and what that kind is called in messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// The most bytes.
    pub bytes: u64,
    /// The kind of file, e.g. `a scenario, sweep or table file`.
    pub what: &'static str,
}

/// TOML a person writes: scenarios, sweeps, suites, comparisons and table files. The
/// largest shipped one is under 10 KB; a megabyte is far past any hand-written file.
pub const TOML: Limit = Limit { bytes: 1 << 20, what: "a scenario, sweep or table file" };

impl Limit {
    /// The limit in words, e.g. `1 MiB`.
    fn shown(self) -> String {
        bytes(self.bytes)
    }
}

/// A size in words: `1 MiB`, `512 KiB`, `100 bytes`.
fn bytes(n: u64) -> String {
    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;
    match n {
        n if n >= MIB && n % MIB == 0 => format!("{} MiB", n / MIB),
        n if n >= MIB => format!("{:.1} MiB", n as f64 / MIB as f64),
        n if n >= KIB && n % KIB == 0 => format!("{} KiB", n / KIB),
        n => format!("{n} bytes"),
    }
}

/// Reads `path` whole as UTF-8 text when it is a regular file of at most `limit`.
/// What it is not is an [`Error::Input`] naming the file; a failed read (a missing
/// file, no permission) is an [`Error::Io`].
pub fn read_to_string(path: &Path, limit: Limit) -> Result<String> {
    let bytes = read(path, limit)?;
    String::from_utf8(bytes)
        .map_err(|_| Error::input(path.display().to_string(), "is not UTF-8 text: save it as UTF-8".to_string()))
}

/// Reads `path` whole when it is a regular file of at most `limit` (see
/// [`read_to_string`]).
pub fn read(path: &Path, limit: Limit) -> Result<Vec<u8>> {
    let io = |source| Error::Io { path: path.to_path_buf(), source };
    // Looked at before it is opened: opening a FIFO would wait for a writer.
    check(path, &std::fs::metadata(path).map_err(io)?, limit)?;
    let file = std::fs::File::open(path).map_err(io)?;
    // And again through the open file, in case the name was swapped in between.
    let meta = file.metadata().map_err(io)?;
    check(path, &meta, limit)?;
    let mut text = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.bytes + 1).read_to_end(&mut text).map_err(io)?;
    if text.len() as u64 > limit.bytes {
        return Err(too_large(path, text.len() as u64, limit));
    }
    Ok(text)
}

/// Refuses what is not a regular file, and one larger than `limit`.
fn check(path: &Path, meta: &std::fs::Metadata, limit: Limit) -> Result<()> {
    if !meta.is_file() {
        return Err(Error::input(
            path.display().to_string(),
            format!("is {}, not a regular file: give {} saved on disk", kind(meta), limit.what),
        ));
    }
    if meta.len() > limit.bytes {
        return Err(too_large(path, meta.len(), limit));
    }
    Ok(())
}

fn too_large(path: &Path, size: u64, limit: Limit) -> Error {
    Error::input(
        path.display().to_string(),
        format!("is {}, more than the {} {} may hold", bytes(size), limit.shown(), limit.what),
    )
}

/// What a path that is not a regular file is, in words.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_said_in_the_units_a_person_reads() {
        assert_eq!(bytes(1 << 20), "1 MiB");
        assert_eq!(bytes(3 << 19), "1.5 MiB");
        assert_eq!(bytes(512 << 10), "512 KiB");
        assert_eq!(bytes(100), "100 bytes");
    }

    #[test]
    fn a_regular_file_past_its_limit_is_refused_with_both_sizes() {
        let dir = std::env::temp_dir().join(format!("combat-odds-user-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.toml");
        std::fs::write(&path, vec![b'#'; 2048]).unwrap();
        let small = Limit { bytes: 1024, what: "a test file" };
        let e = read_to_string(&path, small).unwrap_err().to_string();
        assert!(e.ends_with("big.toml: is 2 KiB, more than the 1 KiB a test file may hold"), "{e}");
        assert_eq!(read_to_string(&path, Limit { bytes: 2048, what: "a test file" }).unwrap().len(), 2048);
        let e = read_to_string(&dir, small).unwrap_err().to_string();
        assert!(e.ends_with("is a directory, not a regular file: give a test file saved on disk"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
