//! The output folder and files of the `net` verbs. Every file is created before the run starts,
//! so that a folder that cannot be written ends the command before any simulated time is spent;
//! each file is written as soon as its content is known (a sweep's CSV row by row, advcam's
//! samples mode by mode) and flushed, so that a failed write (a full disk, a device such as
//! `/dev/full`) ends the run at once.

use crate::NetError;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Creates the folder `dir` (and its parents) for the option `flag`; a path that is not a folder
/// (a file, a device) is named in a plain message.
pub fn create_dir(flag: &str, dir: &Path) -> Result<(), NetError> {
    let not_a_folder = |p: &Path| NetError::OutDir {
        flag: flag.to_string(),
        path: dcqcn_harness::clip(&p.display().to_string()),
        message:
            "is not a folder (a file or a device of that name exists); give a folder to write into"
                .into(),
    };
    if dir.exists() && !dir.is_dir() {
        return Err(not_a_folder(dir));
    }
    std::fs::create_dir_all(dir).map_err(|source| {
        match dir.ancestors().skip(1).find(|a| a.exists() && !a.is_dir()) {
            Some(a) => not_a_folder(a),
            None => NetError::OutDir {
                flag: flag.to_string(),
                path: dcqcn_harness::clip(&dir.display().to_string()),
                message: format!("cannot create the folder: {source}"),
            },
        }
    })
}

/// One output file, created (or truncated) when opened.
pub struct OutFile {
    path: PathBuf,
    w: BufWriter<File>,
}

impl OutFile {
    /// Creates `path`.
    pub fn create(path: PathBuf) -> Result<OutFile, NetError> {
        match File::create(&path) {
            Ok(f) => Ok(OutFile {
                w: BufWriter::new(f),
                path,
            }),
            Err(source) => Err(NetError::Write {
                path: path.display().to_string(),
                source,
            }),
        }
    }

    /// The file's path as shown.
    pub fn name(&self) -> String {
        self.path.display().to_string()
    }

    /// Appends `bytes` and flushes them to the file: a write that fails is reported here.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), NetError> {
        self.w
            .write_all(bytes)
            .and_then(|()| self.w.flush())
            .map_err(|source| NetError::Write {
                path: self.name(),
                source,
            })
    }
}

/// The bytes of one CSV record, quoted as the `csv` crate quotes them (records written one by one
/// give the same bytes as one writer given them all).
pub fn csv_record<I, T>(fields: I) -> Vec<u8>
where
    I: IntoIterator<Item = T>,
    T: AsRef<[u8]>,
{
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(fields)
        .expect("writing CSV into memory cannot fail");
    w.into_inner().expect("writing CSV into memory cannot fail")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_in_place_of_the_folder_is_named() {
        let d = std::env::temp_dir().join(format!("dcqcn-net-out-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let f = d.join("f");
        std::fs::write(&f, b"x").unwrap();
        for dir in [f.clone(), f.join("sub")] {
            let m = create_dir("--out", &dir).unwrap_err().to_string();
            assert!(
                m.starts_with(&format!("--out: `{}`: is not a folder", f.display())),
                "{m}"
            );
        }
        create_dir("--out", &d.join("a/b")).unwrap();
        assert!(d.join("a/b").is_dir());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_full_device_fails_the_first_write() {
        let Ok(mut f) = OutFile::create("/dev/full".into()) else {
            return; // no /dev/full on this system
        };
        let e = f.write(b"time_s\n").unwrap_err().to_string();
        assert!(e.starts_with("/dev/full: cannot write"), "{e}");
    }

    #[test]
    fn records_one_by_one_are_the_bytes_of_one_writer() {
        let rows = [vec!["a,b", "c"], vec!["d\"e", "f"]];
        let mut w = csv::Writer::from_writer(Vec::new());
        for r in &rows {
            w.write_record(r).unwrap();
        }
        let whole = w.into_inner().unwrap();
        let parts: Vec<u8> = rows.iter().flat_map(csv_record).collect();
        assert_eq!(parts, whole);
    }
}
