//! Results directories written whole or not at all.

use std::path::Path;

use polars::prelude::*;

use crate::error::{Error, Result};

/// Refuses to replace an existing results directory without `force`; checked before
/// a run starts too, so a long run never ends in this error.
pub fn check_free(dir: &Path, force: bool) -> Result<()> {
    if dir.exists() && !force {
        return Err(Error::Usage(format!(
            "{} already exists; pass --force to replace it or choose another --out",
            dir.display()
        )));
    }
    Ok(())
}

/// Writes a directory whole or not at all: `fill` writes into a temporary directory
/// beside `dir`, which is then renamed into place. An existing `dir` is replaced only
/// with `force`, and is put back if the rename fails.
pub fn write_whole(dir: &Path, force: bool, fill: impl FnOnce(&Path) -> Result<()>) -> Result<()> {
    check_free(dir, force)?;
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = dir.file_name().map_or("results".into(), |n| n.to_string_lossy().into_owned());
    std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let written = std::fs::create_dir_all(&tmp).map_err(|e| io(&tmp, e)).and_then(|()| fill(&tmp));
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    let replacing = dir.exists();
    if replacing {
        std::fs::rename(dir, &old).map_err(|e| io(dir, e))?;
    }
    if let Err(e) = std::fs::rename(&tmp, dir) {
        if replacing {
            let _ = std::fs::rename(&old, dir);
        }
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(io(dir, e));
    }
    if replacing {
        let _ = std::fs::remove_dir_all(&old);
    }
    Ok(())
}

/// Writes `frame` into `dir` as `<name>.csv` and `<name>.parquet`.
pub fn write_frame(dir: &Path, name: &str, frame: &mut DataFrame) -> Result<()> {
    let polars = |e: PolarsError| Error::Usage(format!("cannot write the {name} frame: {e}"));
    let csv = dir.join(format!("{name}.csv"));
    let mut file = std::fs::File::create(&csv).map_err(|e| io(&csv, e))?;
    CsvWriter::new(&mut file).include_header(true).finish(frame).map_err(polars)?;
    let parquet = dir.join(format!("{name}.parquet"));
    let file = std::fs::File::create(&parquet).map_err(|e| io(&parquet, e))?;
    ParquetWriter::new(file).finish(frame).map_err(polars)?;
    Ok(())
}

/// An I/O failure on `path`.
pub fn io(path: &Path, source: std::io::Error) -> Error {
    Error::Io { path: path.to_path_buf(), source }
}
