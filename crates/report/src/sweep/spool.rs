//! A sweep's points on disk as they finish. A point's counts are a few kilobytes (a
//! company's engagement, with every turn's outcomes, is about 12 KB as JSON), so the
//! most points a sweep may have held in memory, then made into one frame, took a
//! company's sweep past 450 MB at 6,000 points. Each point is written to an unnamed
//! scratch file the moment it is answered; the sweep keeps only where each one lies,
//! and reads them back one at a time, in design order, to write its files.

#[cfg(feature = "files")]
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::Mutex;

use serde::ser::{Error as _, Serialize, SerializeSeq, Serializer};

use super::PointSummary;
use crate::error::{Error, Result};

/// Where the points wait: an unnamed scratch file, or in a browser (the engine without
/// the `files` feature), which has no file system, memory.
#[cfg(feature = "files")]
type Scratch = File;
#[cfg(not(feature = "files"))]
type Scratch = std::io::Cursor<Vec<u8>>;

/// Where one point lies in the scratch file.
#[derive(Debug, Clone, Copy)]
struct Place {
    /// The point's index in the design.
    index: usize,
    /// Its part of the point's trials (0 when whole).
    part: u64,
    /// Its first byte.
    at: u64,
    /// Its length in bytes.
    len: u64,
}

/// The points of one sweep (whole points, or parts of them in a shard), in a scratch
/// file deleted when the sweep is: its [`Serialize`] writes them as a list in order,
/// read back one at a time.
pub struct Points {
    file: Mutex<Scratch>,
    /// Every point pushed, in the order they finished until [`Points::order`] is called.
    places: Mutex<Vec<Place>>,
}

impl Points {
    /// An empty list, backed by a new scratch file in the system's temporary folder.
    pub fn new() -> Result<Self> {
        #[cfg(feature = "files")]
        let file = tempfile::tempfile().map_err(|e| scratch("make", e))?;
        #[cfg(not(feature = "files"))]
        let file = Scratch::default();
        Ok(Points { file: Mutex::new(file), places: Mutex::new(Vec::new()) })
    }

    /// Adds `point` at the end of the file; any thread may.
    pub fn push(&self, point: &PointSummary) -> Result<()> {
        let bytes = serde_json::to_vec(point).map_err(|e| scratch("write", e.into()))?;
        let mut file = lock(&self.file);
        let at = file.seek(SeekFrom::End(0)).map_err(|e| scratch("write", e))?;
        file.write_all(&bytes).map_err(|e| scratch("write", e))?;
        let part = point.summary.shard.map_or(0, |s| s.index);
        lock(&self.places).push(Place { index: point.index, part, at, len: bytes.len() as u64 });
        Ok(())
    }

    /// How many points (or parts) it holds.
    pub fn len(&self) -> usize {
        lock(&self.places).len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Puts the points in design order, each point's parts in order.
    pub(super) fn order(&self) {
        lock(&self.places).sort_by_key(|p| (p.index, p.part));
    }

    /// The `k`th point held, read back from the file.
    pub fn get(&self, k: usize) -> Result<PointSummary> {
        let place = lock(&self.places)[k];
        let mut bytes = vec![0; place.len as usize];
        let mut file = lock(&self.file);
        file.seek(SeekFrom::Start(place.at))
            .and_then(|_| file.read_exact(&mut bytes))
            .map_err(|e| scratch("read", e))?;
        serde_json::from_slice(&bytes).map_err(|e| scratch("read", e.into()))
    }

    /// Every point held, in order, each read as it is reached.
    pub fn iter(&self) -> impl Iterator<Item = Result<PointSummary>> + '_ {
        (0..self.len()).map(|k| self.get(k))
    }

    /// Each held point's (index, part), in order: what is known without reading it.
    pub(super) fn keys(&self) -> Vec<(usize, u64)> {
        lock(&self.places).iter().map(|p| (p.index, p.part)).collect()
    }

    /// Keeps only the points at the positions `kept` lists (in that order); the others'
    /// bytes stay in the file, unread, until it goes.
    pub(super) fn keep(&self, kept: &[usize]) {
        let mut places = lock(&self.places);
        *places = kept.iter().map(|&k| places[k]).collect();
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut list = serializer.serialize_seq(Some(self.len()))?;
        for point in self.iter() {
            list.serialize_element(&point.map_err(S::Error::custom)?)?;
        }
        list.end()
    }
}

impl std::fmt::Debug for Points {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Points({} held)", self.len())
    }
}

/// A lock whose holder panicked still guards whole data: every write to it is one push.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A failure of the scratch file, naming where it lives so a full disk can be found.
fn scratch(what: &str, e: std::io::Error) -> Error {
    Error::Results(format!(
        "cannot {what} the sweep's scratch file in {}: {e}; free some space there or point TMPDIR elsewhere",
        std::env::temp_dir().display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_come_back_in_design_order_whatever_order_they_finished_in() {
        let swept = super::super::tests::three_ranges();
        let answered: Vec<PointSummary> = swept.summary.results.iter().map(Result::unwrap).collect();
        assert_eq!(answered.iter().map(|p| p.index).collect::<Vec<_>>(), [0, 1, 2]);
        let points = Points::new().unwrap();
        for i in [2, 0, 1] {
            points.push(&answered[i]).unwrap();
        }
        points.order();
        assert_eq!(points.iter().map(|p| p.unwrap()).collect::<Vec<_>>(), answered);
        points.keep(&[2, 0]);
        let kept: Vec<usize> = points.iter().map(|p| p.unwrap().index).collect();
        assert_eq!(kept, [2, 0]);
        // Written as a list, each point as it was pushed.
        let listed = serde_json::to_value(&points).unwrap();
        assert_eq!(listed, serde_json::to_value([&answered[2], &answered[0]]).unwrap());
    }
}
