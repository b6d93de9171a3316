//! The scratch folder of one simulator run: `<build dir>/runs/<scenario>-<process id>-<n>/`,
//! holding the simulator's register dump (`dump.vcd`) and its messages (`sim.log`). Every run has
//! its own, so two runs of one scenario on one build, in one process or in two, never read each
//! other's dump. The folder is removed when the run is done, unless it was kept for a report (a
//! mismatch names the dump, a simulator error names the log).

use super::common::{io_err, SurfError};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Runs started by this process so far (the `<n>` of the folder name).
static RUNS: AtomicU64 = AtomicU64::new(0);

/// A run's own folder, removed on drop unless [`Scratch::keep`] was called.
#[derive(Debug)]
pub struct Scratch {
    dir: PathBuf,
    keep: Cell<bool>,
}

impl Scratch {
    /// Creates a new, empty folder for a run of `name` under `<build_dir>/runs/`. A folder of that
    /// name left by an earlier process with the same id is not reused: the next number is taken.
    pub fn new(build_dir: &Path, name: &str) -> Result<Scratch, SurfError> {
        let runs = build_dir.join("runs");
        std::fs::create_dir_all(&runs).map_err(io_err(&runs))?;
        loop {
            let n = RUNS.fetch_add(1, Ordering::Relaxed);
            let dir = runs.join(format!("{name}-{}-{n}", std::process::id()));
            match std::fs::create_dir(&dir) {
                Ok(()) => {
                    return Ok(Scratch {
                        dir,
                        keep: Cell::new(false),
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(io_err(&dir)(e)),
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The simulator's waveform dump of the four register probes.
    pub fn dump(&self) -> PathBuf {
        self.dir.join("dump.vcd")
    }

    /// The simulator's messages (its standard error).
    pub fn log(&self) -> PathBuf {
        self.dir.join("sim.log")
    }

    /// Leaves the folder in place when the run is done (a report or an error names a file in it).
    pub fn keep(&self) {
        self.keep.set(true);
    }

    pub fn kept(&self) -> bool {
        self.keep.get()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !self.keep.get() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("dcqcn-scratch-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    /// Two runs of one scenario at once get two folders; each is removed when done unless kept.
    #[test]
    fn each_run_its_own_folder_removed_unless_kept() {
        let r = root("own");
        let a = Scratch::new(&r, "alpha-wrap").unwrap();
        let b = Scratch::new(&r, "alpha-wrap").unwrap();
        assert_ne!(a.path(), b.path());
        assert_ne!(a.dump(), b.dump());
        assert!(a.path().is_dir() && b.path().is_dir());
        std::fs::write(a.dump(), "a").unwrap();
        std::fs::write(b.dump(), "b").unwrap();
        assert_eq!(std::fs::read_to_string(a.dump()).unwrap(), "a");
        let (pa, pb) = (a.path().to_path_buf(), b.path().to_path_buf());
        b.keep();
        drop(a);
        drop(b);
        assert!(!pa.exists(), "{} not removed", pa.display());
        assert_eq!(std::fs::read_to_string(pb.join("dump.vcd")).unwrap(), "b");
        let _ = std::fs::remove_dir_all(r);
    }

    /// A folder of the same name left behind (a process id reused) is not taken over.
    #[test]
    fn a_left_folder_is_not_reused() {
        let r = root("left");
        let n = RUNS.load(Ordering::Relaxed);
        let mut left = Vec::new();
        for k in n..n + 4 {
            let d = r
                .join("runs")
                .join(format!("t0-{}-{k}", std::process::id()));
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join("dump.vcd"), "old").unwrap();
            left.push(d);
        }
        let s = Scratch::new(&r, "t0").unwrap();
        assert!(!s.dump().exists(), "{}", s.path().display());
        for d in &left {
            assert_eq!(
                std::fs::read_to_string(d.join("dump.vcd")).unwrap(),
                "old",
                "{}",
                d.display()
            );
        }
        drop(s);
        let _ = std::fs::remove_dir_all(r);
    }
}
