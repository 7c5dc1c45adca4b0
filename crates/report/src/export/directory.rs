//! Results on disk: written whole or not at all, and never over anything this tool did
//! not write.
//!
//! A results directory is filled in a hidden temporary directory beside its destination
//! (`.NAME.tmp-PID`) and moved into place in one step. It carries a marker file,
//! `MARKER`, naming every file the tool wrote there, so that `force` replaces an
//! existing directory only when the marker is there and the directory holds nothing
//! else: a user's own files are never deleted. On Linux an existing directory is swapped
//! with the new one atomically (`renameat2` with `RENAME_EXCHANGE`), so a kill at any
//! moment leaves either the old results or the new ones where the user asked for them;
//! elsewhere the two renames are recovered from by the next write. A single file goes
//! through a temporary file and one rename, which replaces atomically everywhere.
//!
//! Leftovers of a killed process (temporary names whose process is gone) are recognised
//! by their name, and for directories by their marker, and removed by the next write to
//! the same destination. Every destination is checked before work starts
//! ([`check_free`], [`check_file_free`]), so a long run never ends in a refusal.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use polars::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Output, Refusal, Result};
use combat_odds_core::run::Run;
use combat_odds_core::user_file::{self, Limit};

/// The marker file every results directory this tool writes carries.
pub(crate) const MARKER: &str = ".combat-odds-results";

/// How large a marker may be: a list of a few dozen file names.
const MARKER_LIMIT: Limit = Limit { bytes: 1 << 20, what: "a results marker" };

/// What the marker says: who wrote the directory and which files it holds.
#[derive(Debug, Serialize, Deserialize)]
struct Marker {
    /// Always `combat-odds`.
    tool: String,
    /// The version that wrote it.
    version: String,
    /// Every file written, by name, in order.
    files: Vec<String>,
}

impl Marker {
    const TOOL: &'static str = "combat-odds";
}

/// Refuses a results directory that cannot be written before any work starts: one that
/// exists without `force`, one that exists but is not a results directory this tool
/// wrote (or holds files besides them), one under a file, or one whose parent cannot be
/// written. Removes the leftovers of killed runs into the same destination.
pub fn check_free(dir: &Path, force: bool) -> Result<()> {
    Destination::new(dir, Output::Directory)?.check(force).map(drop)
}

/// Writes a directory whole or not at all: `fill` writes into a temporary directory
/// beside `dir`, which then takes its place. An existing `dir` is replaced only with
/// `force`, and only when this tool wrote it (see [`check_free`]); a failure anywhere
/// removes the temporary directory and leaves `dir` as it was. Returns the names of
/// the files written, as the marker lists them.
pub fn write_whole(dir: &Path, force: bool, run: &Run, fill: impl FnOnce(&Path) -> Result<()>) -> Result<Vec<String>> {
    let destination = Destination::new(dir, Output::Directory)?;
    let replacing = destination.check(force)?;
    std::fs::create_dir_all(&destination.parent).map_err(|e| io(&destination.parent, e))?;
    let tmp = destination.sibling("tmp", std::process::id());
    let filling = Filling::new(&tmp);
    std::fs::create_dir(&tmp).map_err(|e| io(&tmp, e))?;
    let filled = mark(&tmp, &[]).and_then(|()| fill(&tmp)).and_then(|()| {
        run.check()?;
        let files = listing(&tmp)?;
        mark(&tmp, &files)?;
        Ok(files)
    });
    let placed = filled.and_then(|files| {
        let _held = filling.hold(run)?;
        destination.place(&tmp, replacing).map(|()| files)
    });
    if placed.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    placed
}

/// Refuses an output file that cannot be written before any work starts: one that
/// exists without `force`, a directory, or one whose parent cannot be written. Removes
/// the leftovers of killed writes to the same file.
pub fn check_file_free(path: &Path, force: bool) -> Result<()> {
    let destination = Destination::new(path, Output::File)?;
    destination.check_file(force)
}

/// Writes `bytes` to `path` whole or not at all: into a temporary file beside it, then
/// renamed over it. An existing file is replaced only with `force`; a stopped `run`
/// (the CLI's by Ctrl-C) puts nothing in place.
pub fn write_file_whole(path: &Path, force: bool, bytes: &[u8], run: &Run) -> Result<()> {
    let destination = Destination::new(path, Output::File)?;
    destination.check_file(force)?;
    std::fs::create_dir_all(&destination.parent).map_err(|e| io(&destination.parent, e))?;
    let tmp = destination.sibling("tmp", std::process::id());
    // The temporary's own marker beside it, written first: a leftover file is removed
    // later only where its marker says this tool wrote it (a file of the user's named
    // like one is not).
    let marked = marker_of(&tmp);
    let (_marking, filling) = (Filling::new(&marked), Filling::new(&tmp));
    let create = |at: &Path| std::fs::OpenOptions::new().write(true).create_new(true).open(at).map_err(|e| io(path, e));
    create(&marked)?.write_all(FILE_MARK).map_err(|e| io(path, e))?;
    // Only a temporary this process made is removed on failure: one already there
    // (`create_new` refuses it) is not its own.
    let file = create(&tmp);
    let Ok(mut file) = file else {
        let _ = std::fs::remove_file(&marked);
        return file.map(drop);
    };
    let synced = file.write_all(bytes).and_then(|()| file.sync_all());
    drop(file);
    let written = synced.map_err(|e| io(path, e)).and_then(|()| {
        let _held = filling.hold(run)?;
        std::fs::rename(&tmp, path).map_err(|e| io(path, e))
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    let _ = std::fs::remove_file(&marked);
    written
}

/// What a temporary file's marker holds.
const FILE_MARK: &[u8] = b"combat-odds: the file beside this one is a temporary it is writing\n";

/// The most a temporary file's marker holds: its words.
const FILE_MARK_LIMIT: Limit = Limit { bytes: FILE_MARK.len() as u64, what: "a temporary file's marker" };

/// The marker of the temporary file `tmp`: `.NAME.tmp-PID.combat-odds` beside it.
fn marker_of(tmp: &Path) -> PathBuf {
    let mut name = tmp.file_name().unwrap_or_default().to_os_string();
    name.push(".combat-odds");
    tmp.with_file_name(name)
}

/// A folder of this process's own (the server's downloads), removed with the other
/// temporaries when a signal ends the process ([`remove_temporaries`]), as it is when
/// its owner drops it.
pub struct Temporary {
    _held: Filling,
}

impl Temporary {
    /// `path` held as this process's temporary until the value is dropped.
    pub fn new(path: &Path) -> Self {
        Temporary { _held: Filling::new(path) }
    }
}

/// The temporary directories and files this process is filling. Named by its process
/// id, they belong to the process rather than to any one run, and they are what a
/// Ctrl-C handler removes ([`remove_temporaries`]) before it ends the process.
static FILLING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn filling() -> MutexGuard<'static, Vec<PathBuf>> {
    FILLING.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A temporary being filled, listed in [`FILLING`] from before it exists until it is
/// placed or removed.
struct Filling(PathBuf);

impl Filling {
    fn new(tmp: &Path) -> Self {
        filling().push(tmp.to_path_buf());
        Filling(tmp.to_path_buf())
    }

    /// The list held while the temporary is put in place, so a Ctrl-C handler removes
    /// it either before (and the write reports the interruption) or not at all; `Err`
    /// once the run has been stopped (the CLI's run by Ctrl-C).
    fn hold(&self, run: &Run) -> Result<MutexGuard<'static, Vec<PathBuf>>> {
        let held = filling();
        run.check()?;
        Ok(held)
    }
}

impl Drop for Filling {
    fn drop(&mut self) {
        filling().retain(|p| *p != self.0);
    }
}

/// Removes every temporary this process is filling and keeps any other from being put
/// in place: what a Ctrl-C handler calls just before it ends the process, so that an
/// interrupted write leaves nothing behind even when it could not stop in time.
pub fn remove_temporaries() {
    let held = filling();
    for tmp in held.iter() {
        let _ = std::fs::remove_dir_all(tmp).or_else(|_| std::fs::remove_file(tmp));
    }
    // Never released: the process is ending, and no write may place its results now.
    std::mem::forget(held);
}

/// Prints to standard output. A closed pipe (`| head`) is not an error; any other
/// failure (a full disk behind `>`) is, since the output would be lost.
pub fn print(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(io(Path::new("standard output"), e)),
        _ => Ok(()),
    }
}

/// Writes `frame` into `dir` as `<name>.csv` and `<name>.parquet`, the Parquet file
/// carrying `metadata` as file-level key-value pairs.
pub fn write_frame(
    dir: &Path,
    name: &str,
    frame: &mut DataFrame,
    (metadata, run): (&[(String, String)], &Run),
) -> Result<()> {
    run.check()?;
    let (csv, parquet) = frame_bytes(frame, metadata).map_err(Error::frame("a results frame"))?;
    write_files(dir, &[(format!("{name}.csv"), csv), (format!("{name}.parquet"), parquet)])
}

/// Writes each (file name, bytes) into `dir`, each named in the marker of a directory
/// being filled before it is written.
pub fn write_files(dir: &Path, files: &[(String, Vec<u8>)]) -> Result<()> {
    claim(dir, files.iter().map(|(name, _)| name.as_str()))?;
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| io(&path, e))?;
    }
    Ok(())
}

/// A frame as CSV and as Parquet, in memory, the Parquet file carrying `metadata` as
/// file-level key-value pairs: the bytes [`write_frame`] writes, for a file written
/// whole.
pub(crate) fn frame_bytes(frame: &mut DataFrame, metadata: &[(String, String)]) -> PolarsResult<(Vec<u8>, Vec<u8>)> {
    let mut csv = Vec::new();
    CsvWriter::new(&mut csv).include_header(true).finish(frame)?;
    let mut parquet = Vec::new();
    let metadata = (!metadata.is_empty()).then(|| KeyValueMetadata::from_static(metadata.to_vec()));
    ParquetWriter::new(&mut parquet).with_key_value_metadata(metadata).finish(frame)?;
    Ok((csv, parquet))
}

/// An I/O failure on `path`.
pub fn io(path: &Path, source: std::io::Error) -> Error {
    Error::io(path.to_path_buf(), source)
}

/// A destination as the file system sees it: its parent (absolute, so `.` and `..` are
/// real names that can be renamed) and its own name.
struct Destination {
    path: PathBuf,
    parent: PathBuf,
    name: OsString,
    /// What is to go there, for errors.
    output: Output,
}

impl Destination {
    fn new(path: &Path, output: Output) -> Result<Self> {
        let absolute = std::path::absolute(path).map_err(|e| io(path, e))?;
        // `absolute` keeps `..` and a trailing `.`; resolve them by name, not by links.
        let mut clean = PathBuf::new();
        for part in absolute.components() {
            match part {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir => {
                    clean.pop();
                }
                other => clean.push(other),
            }
        }
        let (Some(parent), Some(name)) = (clean.parent(), clean.file_name()) else {
            return Err(Error::Refused { path: path.to_path_buf(), output, refusal: Refusal::Root });
        };
        Ok(Destination { path: path.to_path_buf(), parent: parent.to_path_buf(), name: name.to_owned(), output })
    }

    fn refused(&self, refusal: Refusal) -> Error {
        Error::Refused { path: self.path.clone(), output: self.output, refusal }
    }

    fn full(&self) -> PathBuf {
        self.parent.join(&self.name)
    }

    /// `.NAME.KIND-PID` beside the destination.
    fn sibling(&self, kind: &str, pid: u32) -> PathBuf {
        self.parent.join(format!(".{}.{kind}-{pid}", self.name.to_string_lossy()))
    }

    /// Checks a directory destination; returns whether an existing one will be replaced.
    fn check(&self, force: bool) -> Result<bool> {
        self.clean_leftovers(true);
        let full = self.full();
        match std::fs::symlink_metadata(&full) {
            Err(e) if absent(&e) => {
                self.check_writable()?;
                Ok(false)
            }
            Err(e) => Err(io(&self.path, e)),
            Ok(_) if !force => Err(self.refused(Refusal::Exists)),
            Ok(meta) if !meta.is_dir() => Err(self.refused(Refusal::NotADirectory)),
            Ok(_) => match ours(&full) {
                Ok(()) => {
                    self.check_writable()?;
                    Ok(true)
                }
                Err(why) => Err(self.refused(Refusal::NotOurs(why))),
            },
        }
    }

    fn check_file(&self, force: bool) -> Result<()> {
        self.clean_leftovers(false);
        match std::fs::symlink_metadata(self.full()) {
            Err(e) if absent(&e) => self.check_writable(),
            Err(e) => Err(io(&self.path, e)),
            Ok(meta) if meta.is_dir() => Err(self.refused(Refusal::IsADirectory)),
            Ok(_) if !force => Err(self.refused(Refusal::Exists)),
            Ok(_) => self.check_writable(),
        }
    }

    /// The nearest existing ancestor must be a directory this process can create in:
    /// found by creating (and removing) a probe directory there, which asks the file
    /// system itself rather than guessing from permission bits.
    fn check_writable(&self) -> Result<()> {
        let mut ancestor = self.parent.as_path();
        while !ancestor.exists() {
            ancestor = ancestor.parent().unwrap_or(Path::new("/"));
        }
        if !ancestor.is_dir() {
            return Err(self.refused(Refusal::UnderAFile(ancestor.to_path_buf())));
        }
        let probe = ancestor.join(format!(".{}.probe-{}", self.name.to_string_lossy(), std::process::id()));
        match std::fs::create_dir(&probe) {
            Ok(()) => {
                let _ = std::fs::remove_dir(&probe);
                Ok(())
            }
            Err(e) => Err(self.refused(Refusal::NotWritable(format!("{e} in {}", ancestor.display())))),
        }
    }

    /// Moves the filled temporary directory into place.
    fn place(&self, tmp: &Path, replacing: bool) -> Result<()> {
        let full = self.full();
        if replacing {
            // Checked again: the directory may have changed while the work ran.
            ours(&full).map_err(|why| self.refused(Refusal::Changed(why)))?;
            match exchange(tmp, &full) {
                Ok(()) => {
                    // `tmp` now holds the old results.
                    let _ = std::fs::remove_dir_all(tmp);
                    return Ok(());
                }
                Err(e) if !unsupported(&e) => return Err(io(&self.path, e)),
                Err(_) => {}
            }
            // No atomic exchange here: two renames, recovered from by the next write
            // if the process dies between them (see `clean_leftovers`).
            let old = self.sibling("old", std::process::id());
            std::fs::rename(&full, &old).map_err(|e| io(&self.path, e))?;
            if let Err(e) = std::fs::rename(tmp, &full) {
                let _ = std::fs::rename(&old, &full);
                return Err(io(&self.path, e));
            }
            let _ = std::fs::remove_dir_all(&old);
            Ok(())
        } else {
            place_new(tmp, &full).map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::DirectoryNotEmpty => {
                    self.refused(Refusal::Appeared)
                }
                _ => io(&self.path, e),
            })
        }
    }

    /// Removes `.NAME.tmp-PID` (and `.NAME.old-PID`) left beside the destination by a
    /// process that is gone. Of a leftover directory only what its marker names is
    /// removed (the marker names each file before it is written), and the directory
    /// itself only once that leaves it empty; an `old` one is put back first when the
    /// destination is missing, since it holds the last complete results.
    fn clean_leftovers(&self, directories: bool) {
        let Ok(entries) = std::fs::read_dir(&self.parent) else { return };
        let prefix = format!(".{}.", self.name.to_string_lossy());
        for entry in entries.flatten() {
            // Never through a link: a link named like a leftover is the user's, and what
            // it points to is no leftover at all.
            let Ok(kind_of) = entry.file_type() else { continue };
            if kind_of.is_symlink() {
                continue;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(rest) = name.strip_prefix(&prefix) else { continue };
            let Some((kind, pid)) = rest.split_once('-') else { continue };
            let Ok(pid) = pid.parse::<u32>() else { continue };
            if !matches!(kind, "tmp" | "old" | "probe") || pid == std::process::id() || alive(pid) {
                continue;
            }
            let path = entry.path();
            if kind == "probe" {
                // An empty probe directory; `remove_dir` leaves anything else alone.
                let _ = std::fs::remove_dir(&path);
                continue;
            }
            match (directories, kind_of.is_dir()) {
                (true, true) if std::fs::symlink_metadata(path.join(MARKER)).is_ok_and(|m| m.is_file()) => {
                    if kind == "old" && !self.full().exists() && ours(&path).is_ok() {
                        let _ = std::fs::rename(&path, self.full());
                    } else {
                        remove_own(&path);
                    }
                }
                // A file only where its own marker says this tool wrote it.
                (false, false) if kind == "tmp" && kind_of.is_file() => {
                    let marked = marker_of(&path);
                    let written_here = std::fs::symlink_metadata(&marked).is_ok_and(|m| m.is_file())
                        && user_file::read_to_string(&marked, FILE_MARK_LIMIT).is_ok_and(|t| t.as_bytes() == FILE_MARK);
                    if written_here {
                        let _ = std::fs::remove_file(&path);
                        let _ = std::fs::remove_file(&marked);
                    }
                }
                _ => {}
            }
        }
    }
}

/// Whether `dir` is a results directory this tool wrote, holding nothing else; if not,
/// why not, in words for the user.
fn ours(dir: &Path) -> std::result::Result<(), String> {
    if std::fs::symlink_metadata(dir.join(MARKER)).is_err() {
        return Err(format!("it has no {MARKER} marker, so combat-odds did not write it"));
    }
    let marker = marker(dir).ok_or_else(|| format!("its {MARKER} marker is not one combat-odds writes"))?;
    let present = listing(dir).map_err(|e| e.to_string())?;
    let mut foreign: Vec<&String> = present.iter().filter(|f| !marker.files.contains(f)).collect();
    foreign.sort();
    if let Some(first) = foreign.first() {
        let more = if foreign.len() > 1 { format!(" and {} more", foreign.len() - 1) } else { String::new() };
        return Err(format!("it holds `{first}`{more}, which combat-odds did not write there"));
    }
    Ok(())
}

/// Every entry of `dir` but the marker, by name (subdirectories included, with a `/`).
fn listing(dir: &Path) -> Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| io(dir, e))? {
        let entry = entry.map_err(|e| io(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name != MARKER {
            let is_dir = entry.file_type().map_err(|e| io(dir, e))?.is_dir();
            names.push(if is_dir { format!("{name}/") } else { name });
        }
    }
    names.sort();
    Ok(names)
}

/// Adds `names` to the marker of `dir`, a temporary directory being filled, before the
/// files are written: the leftover of a process killed mid-write then names every file
/// of its own, and the next write removes those and nothing else. A directory without
/// a marker is not one being filled, and is left as it is.
pub(crate) fn claim<'n>(dir: &Path, names: impl IntoIterator<Item = &'n str>) -> Result<()> {
    let Some(mut marker) = marker(dir) else { return Ok(()) };
    for name in names {
        if !marker.files.iter().any(|f| f == name) {
            marker.files.push(name.to_string());
        }
    }
    mark(dir, &marker.files)
}

/// The marker of `dir`, when it holds one this tool writes.
fn marker(dir: &Path) -> Option<Marker> {
    let text = user_file::read_to_string(&dir.join(MARKER), MARKER_LIMIT).ok()?;
    serde_json::from_str(&text).ok().filter(|m: &Marker| m.tool == Marker::TOOL)
}

/// Removes from a leftover directory the files its marker names, then the marker, then
/// the directory if that left it empty: anything else in it is not this tool's.
fn remove_own(dir: &Path) {
    let Some(marker) = marker(dir) else { return };
    for name in &marker.files {
        // A name with a path in it is no file this tool wrote there.
        let plain = name.strip_suffix('/').unwrap_or(name);
        if plain.is_empty() || plain.contains(['/', '\\']) || plain == ".." || plain == "." {
            continue;
        }
        let path = dir.join(plain);
        let _ = if name.ends_with('/') { std::fs::remove_dir(&path) } else { std::fs::remove_file(&path) };
    }
    let _ = std::fs::remove_file(dir.join(MARKER));
    let _ = std::fs::remove_dir(dir);
}

/// Writes the marker naming `files`.
fn mark(dir: &Path, files: &[String]) -> Result<()> {
    let marker = Marker { tool: Marker::TOOL.into(), version: env!("CARGO_PKG_VERSION").into(), files: files.to_vec() };
    let path = dir.join(MARKER);
    let text = serde_json::to_string_pretty(&marker).expect("a marker always serializes") + "\n";
    std::fs::write(&path, text).map_err(|e| io(&path, e))
}

/// Whether process `pid` is still running (on other systems than Unix, assumed so,
/// which keeps its files).
fn alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Some(pid) = i32::try_from(pid).ok().and_then(rustix::process::Pid::from_raw) else { return true };
        // Signal 0 checks only that the process exists; EPERM means it does.
        match rustix::process::test_kill_process(pid) {
            Ok(()) => true,
            Err(e) => e == rustix::io::Errno::PERM,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Whether a failed look-up means only that nothing is there (under a file, too:
/// `check_writable` then says which file is in the way).
fn absent(e: &std::io::Error) -> bool {
    matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory)
}

/// Whether a failed exchange means only that this system cannot do it (a kernel
/// older than renameat2, or a file system without the flag).
fn unsupported(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::Unsupported || {
        #[cfg(target_os = "linux")]
        let refused = [rustix::io::Errno::INVAL, rustix::io::Errno::NOSYS]
            .iter()
            .any(|errno| e.raw_os_error() == Some(errno.raw_os_error()));
        #[cfg(not(target_os = "linux"))]
        let refused = false;
        refused
    }
}

/// Swaps two paths in one step (Linux `renameat2(RENAME_EXCHANGE)`).
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    renameat2(a, b, rustix::fs::RenameFlags::EXCHANGE)
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<()> {
    Err(std::io::ErrorKind::Unsupported.into())
}

/// Moves `tmp` to `dest`, failing if `dest` exists (Linux `RENAME_NOREPLACE`; elsewhere
/// a check just before the rename).
fn place_new(tmp: &Path, dest: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    match renameat2(tmp, dest, rustix::fs::RenameFlags::NOREPLACE) {
        Err(e) if unsupported(&e) => {}
        other => return other,
    }
    if dest.exists() {
        return Err(std::io::ErrorKind::AlreadyExists.into());
    }
    std::fs::rename(tmp, dest)
}

/// `renameat2` relative to the working directory; rustix makes the system call itself,
/// so an older C library without the wrapper still works.
#[cfg(target_os = "linux")]
fn renameat2(from: &Path, to: &Path, flags: rustix::fs::RenameFlags) -> std::io::Result<()> {
    rustix::fs::renameat_with(rustix::fs::CWD, from, rustix::fs::CWD, to, flags).map_err(std::io::Error::from)
}
