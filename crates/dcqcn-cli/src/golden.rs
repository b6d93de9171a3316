//! `dcqcn golden`: write golden vector sets (docs/golden-format.md) and check them against the model.

use dcqcn_cosim::coverage::Coverage;
use dcqcn_cosim::golden::{self, GoldenError, SetDef};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(clap::Subcommand)]
pub enum GoldenCmd {
    /// Generate a vector set from a scenario, a canonical set or a saved fuzz case, or
    /// (--canonical) every canonical set into OUT/<set>/.
    Gen {
        /// A built-in scenario (see `dcqcn scenarios`), shortened to --cycles, ramp payload.
        #[arg(long, conflicts_with_all = ["set", "case", "canonical"])]
        scenario: Option<String>,
        /// A canonical set by name (see `dcqcn golden list`).
        #[arg(long, conflicts_with_all = ["case", "canonical"])]
        set: Option<String>,
        /// A saved fuzz case (`dcqcn fuzz --save`).
        #[arg(long, conflicts_with = "canonical")]
        case: Option<PathBuf>,
        /// Every canonical set, plus one per saved case in --cases-dir.
        #[arg(long)]
        canonical: bool,
        /// Saved fuzz cases that become sets `fuzz-<file stem>` with --canonical.
        #[arg(long, default_value = "crates/dcqcn-cosim/tests/fuzz-regressions")]
        cases_dir: PathBuf,
        /// Cycles (with --scenario).
        #[arg(long, value_parser = crate::parse_count, default_value = "50000")]
        cycles: u64,
        /// Stimulus seed (with --scenario).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output directory: the set's own (or, with --canonical, the parent of every set).
        #[arg(long)]
        out: PathBuf,
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
    println!(
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

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok()?.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

pub fn run(cmd: &GoldenCmd) -> Result<(), GoldenFailure> {
    match cmd {
        GoldenCmd::Gen {
            scenario,
            set,
            case,
            canonical,
            cases_dir,
            cycles,
            seed,
            out,
        } => {
            if *canonical {
                let mut all = Coverage::new();
                let mut bytes = 0u64;
                for def in golden::canonical_with_cases(cases_dir)? {
                    let dir = out.join(&def.name);
                    all.merge(&gen_one(&def, &dir)?);
                    bytes += dir_bytes(&dir);
                }
                println!("{} bytes in {}; all sets together:", bytes, out.display());
                print!("{}", all.table());
                return Ok(());
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
                match golden::verify_set(&d) {
                    Ok(v) => println!(
                        "ok    {:<24} {:>8} cycles {:>9} bytes  {:.1} s",
                        v.name,
                        v.cycles,
                        v.bytes,
                        t.elapsed().as_secs_f64()
                    ),
                    Err(e) => {
                        println!("FAIL  {}", d.display());
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
                println!(
                    "{:<20} {:>2} B {:>8} cycles  {}",
                    d.name,
                    d.params.data_bytes(),
                    d.cycles,
                    d.description
                );
            }
            Ok(())
        }
    }
}
