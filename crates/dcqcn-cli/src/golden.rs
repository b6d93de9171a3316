//! `dcqcn golden`: write golden vector sets (docs/golden-format.md) and check them against the model.

use dcqcn_stim::coverage::Coverage;
use dcqcn_stim::golden::mq::{self as gmq, MqSetDef};
use dcqcn_stim::golden::{self, GoldenError, SetDef};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Subcommand)]
pub enum GoldenCmd {
    /// Generate a vector set from a scenario, a canonical set or a saved fuzz case, or
    /// (--canonical) every canonical set into OUT/<set>/.
    Gen {
        /// A built-in scenario (see `dcqcn scenarios`), shortened to --cycles, ramp payload; a
        /// multi-QP scenario (`mq-*`) gives a `dcqcn_mq` set at --qps.
        #[arg(long, conflicts_with_all = ["set", "case", "canonical"])]
        scenario: Option<String>,
        /// QPS of the `dcqcn_mq` block (with a multi-QP --scenario only), 1 to 4096 [default: 4].
        #[arg(long)]
        qps: Option<u32>,
        /// A canonical set by name (see `dcqcn golden list`), single-flow or multi-QP.
        #[arg(long, conflicts_with_all = ["case", "canonical"])]
        set: Option<String>,
        /// A saved fuzz case (`dcqcn fuzz --save`).
        #[arg(long, conflicts_with = "canonical")]
        case: Option<PathBuf>,
        /// Every canonical set (single-flow and multi-QP), plus one per saved case in --cases-dir.
        #[arg(long)]
        canonical: bool,
        /// Saved fuzz cases that become sets `fuzz-<file stem>` with --canonical.
        #[arg(long, default_value = "crates/dcqcn-cosim/tests/fuzz-regressions")]
        cases_dir: PathBuf,
        /// Cycles (with --scenario), 1 to 2^24 (16,777,216: the most `golden gen` and `golden
        /// verify` run per set; the format itself holds up to 2^31-1).
        #[arg(long, value_parser = dcqcn_harness::units::positive_count, default_value = "50000")]
        cycles: u64,
        /// Stimulus seed (with --scenario).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output directory: the set's own (or, with --canonical, the parent of every set). It
        /// must be new, empty, or already a golden set (a folder of sets with --canonical).
        #[arg(long)]
        out: PathBuf,
        /// Write into --out even if it holds other files.
        #[arg(long)]
        force: bool,
    },
    /// Check vector sets: manifest checksums, file structure, and that the model still produces
    /// exactly these bytes. Each DIR is a set or a directory of sets (default: golden).
    Verify { dirs: Vec<PathBuf> },
    /// List the canonical sets.
    List,
}

/// Bad input (exit 2) or stale vectors (exit 1).
pub enum GoldenFailure {
    Input(String),
    Stale(String),
}

impl From<GoldenError> for GoldenFailure {
    fn from(e: GoldenError) -> Self {
        if e.is_stale() {
            GoldenFailure::Stale(e.to_string())
        } else {
            GoldenFailure::Input(e.to_string())
        }
    }
}

fn gen_one(def: &SetDef, out: &Path) -> Result<Coverage, GoldenFailure> {
    let t = Instant::now();
    let g = golden::generate(def)?;
    golden::write_set(out, &g)?;
    let bytes = g.bytes();
    outln!(
        "{:<32} {:>2} B {:>8} cycles {:>9} bytes {:>7.2} B/cycle {:>5} templates {:>2}/{} bins  {:.1} s",
        def.name,
        def.params.data_bytes(),
        g.cycles,
        bytes,
        bytes as f64 / g.cycles.max(1) as f64,
        g.templates_defined,
        g.coverage.covered(),
        g.coverage.hits.len(),
        t.elapsed().as_secs_f64(),
    );
    Ok(g.coverage)
}

/// A multi-QP set (`block dcqcn_mq`), written like [`gen_one`]'s.
fn gen_one_mq(def: &MqSetDef, out: &Path) -> Result<(), GoldenFailure> {
    let t = Instant::now();
    let g = gmq::generate_mq(def)?;
    std::fs::create_dir_all(out)
        .map_err(|e| GoldenFailure::Input(format!("{}: {e}", out.display())))?;
    for (name, bytes) in &g.files {
        let p = out.join(name);
        std::fs::write(&p, bytes)
            .map_err(|e| GoldenFailure::Input(format!("{}: {e}", p.display())))?;
    }
    let bytes = g.bytes();
    outln!(
        "{:<32} q{:<4} {:>8} cycles {:>9} bytes {:>7.2} B/cycle {:>5} templates  {:.1} s",
        def.name,
        def.params.qps(),
        g.cycles,
        bytes,
        bytes as f64 / g.cycles.max(1) as f64,
        g.templates_defined,
        t.elapsed().as_secs_f64(),
    );
    outln!("    {}", g.events.render());
    Ok(())
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// Refuses an output folder that holds anything but golden sets (`--out /`, a source tree):
/// `dir` must be missing, empty, a set (a `manifest.txt` in it) or, with `canonical`, a folder
/// of sets and of folders of sets only (the repository's `golden/` keeps the upstream line's
/// recorded sets in `golden/surf/`).
fn check_out(dir: &Path, canonical: bool) -> Result<(), GoldenFailure> {
    let shown = dir.display();
    let meta = match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(GoldenFailure::Input(format!("--out {shown}: {e}"))),
        Ok(m) => m,
    };
    if !meta.is_dir() {
        return Err(GoldenFailure::Input(format!("--out {shown}: not a folder")));
    }
    let is_set = |p: &Path| p.join("manifest.txt").is_file();
    let mut entries = std::fs::read_dir(dir)
        .map_err(|e| GoldenFailure::Input(format!("--out {shown}: {e}")))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .peekable();
    if entries.peek().is_none() || (!canonical && is_set(dir)) {
        return Ok(());
    }
    // a non-empty folder whose every entry is a set
    let sets_only = |p: &Path| {
        std::fs::read_dir(p).is_ok_and(|d| {
            let d: Vec<_> = d.collect();
            !d.is_empty()
                && d.iter().all(|e| {
                    e.as_ref()
                        .is_ok_and(|e| e.path().is_dir() && is_set(&e.path()))
                })
        })
    };
    let stray = if canonical {
        entries.find(|p| !(p.is_dir() && (is_set(p) || sets_only(p))))
    } else {
        entries.next()
    };
    match stray {
        None => Ok(()),
        Some(p) => Err(GoldenFailure::Input(format!(
            "--out {shown}: not empty and not {} ({} is in it); give a new or empty folder, or --force",
            if canonical {
                "a folder of golden sets"
            } else {
                "a golden set (no manifest.txt)"
            },
            p.display()
        ))),
    }
}

pub fn run(cmd: &GoldenCmd) -> Result<(), GoldenFailure> {
    match cmd {
        GoldenCmd::Gen {
            scenario,
            qps,
            set,
            case,
            canonical,
            cases_dir,
            cycles,
            seed,
            out,
            force,
        } => {
            if !*force {
                check_out(out, *canonical)?;
            }
            if *canonical {
                let mut all = Coverage::new();
                let mut bytes = 0u64;
                for def in golden::canonical_with_cases(cases_dir)? {
                    let dir = out.join(&def.name);
                    all.merge(&gen_one(&def, &dir)?);
                    bytes += dir_bytes(&dir);
                }
                for def in gmq::mq_canonical() {
                    let dir = out.join(&def.name);
                    gen_one_mq(&def, &dir)?;
                    bytes += dir_bytes(&dir);
                }
                outln!(
                    "{} bytes in {}; the single-flow sets together:",
                    bytes,
                    out.display()
                );
                out!("{}", all.table());
                return Ok(());
            }
            // the multi-QP block's sets (docs/golden-format.md, "The multi-QP block")
            if let Some(s) = scenario
                .as_deref()
                .filter(|s| dcqcn_stim::mq::by_name(s).is_some())
            {
                let q = qps.unwrap_or(4);
                let def = MqSetDef::from_scenario(s, q, *cycles, *seed)
                    .map_err(|e| GoldenFailure::Input(format!("--qps {q}: {e}")))?;
                return gen_one_mq(&def, out);
            }
            if qps.is_some() {
                return Err(GoldenFailure::Input(
                    "--qps applies to a multi-QP --scenario (mq-*) only".into(),
                ));
            }
            if let Some(def) = set.as_deref().and_then(gmq::mq_canonical_set) {
                return gen_one_mq(&def, out);
            }
            let def = if let Some(s) = scenario {
                SetDef::from_scenario(s, *cycles, *seed)?
            } else if let Some(name) = set {
                golden::canonical_set(name)?
            } else if let Some(path) = case {
                SetDef::from_case_file(path)?
            } else {
                return Err(GoldenFailure::Input(
                    "golden gen needs --scenario, --set, --case or --canonical".into(),
                ));
            };
            gen_one(&def, out).map(|_| ())
        }
        GoldenCmd::Verify { dirs } => {
            let mut failed = None;
            let default = [PathBuf::from("golden")];
            let dirs = if dirs.is_empty() { &default[..] } else { dirs };
            for d in golden::find_sets(dirs)? {
                let t = Instant::now();
                match dcqcn_surf::golden::verify_set(&d) {
                    Ok(v) => outln!(
                        "ok    {:<24} {:>8} cycles {:>9} bytes  {:.1} s",
                        v.name,
                        v.cycles,
                        v.bytes,
                        t.elapsed().as_secs_f64()
                    ),
                    Err(e) => {
                        outln!("FAIL  {}", d.display());
                        // Keep going so that one run lists every bad set.
                        let f = GoldenFailure::from(e);
                        match &f {
                            GoldenFailure::Input(m) | GoldenFailure::Stale(m) => eprintln!("{m}"),
                        }
                        if !matches!(failed, Some(GoldenFailure::Input(_))) {
                            failed = Some(f);
                        }
                    }
                }
            }
            match failed {
                None => Ok(()),
                Some(GoldenFailure::Input(_)) => Err(GoldenFailure::Input(
                    "golden verify: corrupt or unreadable vector sets (above)".into(),
                )),
                Some(GoldenFailure::Stale(_)) => Err(GoldenFailure::Stale(
                    "golden verify: stale vector sets (above); regenerate with `make golden`"
                        .into(),
                )),
            }
        }
        GoldenCmd::List => {
            for d in golden::canonical() {
                outln!(
                    "{:<20} {:>2} B {:>8} cycles  {}",
                    d.name,
                    d.params.data_bytes(),
                    d.cycles,
                    d.description
                );
            }
            for d in gmq::mq_canonical() {
                outln!(
                    "{:<20} q{:<3} {:>7} cycles  dcqcn_mq: {}",
                    d.name,
                    d.params.qps(),
                    d.cycles,
                    d.description
                );
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{check_out, GoldenFailure};
    use std::path::Path;

    fn set(dir: &Path) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("manifest.txt"), "").unwrap();
    }

    /// `make golden` regenerates the repository's `golden/`, which holds the upstream line's
    /// recorded sets in a folder of sets (`golden/surf/`); anything else nested is refused.
    #[test]
    fn canonical_out_takes_folders_of_sets_and_refuses_strays() {
        let d = std::env::temp_dir().join(format!("dcqcn-check-out-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        set(&d.join("cnp-storm"));
        set(&d.join("surf/t0"));
        set(&d.join("surf/bypass"));
        assert!(check_out(&d, true).is_ok());
        std::fs::write(d.join("surf/notes.txt"), "mine\n").unwrap();
        match check_out(&d, true) {
            Err(GoldenFailure::Input(m)) => assert!(m.contains("surf"), "{m}"),
            _ => panic!("a stray file in a folder of sets is refused"),
        }
        std::fs::remove_file(d.join("surf/notes.txt")).unwrap();
        std::fs::create_dir_all(d.join("src")).unwrap();
        assert!(check_out(&d, true).is_err());
        std::fs::write(d.join("src/main.rs"), "fn main() {}\n").unwrap();
        assert!(check_out(&d, true).is_err());
        let _ = std::fs::remove_dir_all(&d);
    }
}
