//! The paper's figures as experiments: one type per figure implements [`Experiment`] (its
//! defaults, its run, its measured-vs-paper rows and its figure), and [`ALL`] lists them in the
//! order `dcqcn net all` runs them. [`run`] writes an experiment's CSV, SVG, PNG and table.
//! Paper values are quoted from the paper's text; every measured value is computed from the run.

mod common;
pub mod fig11;
pub mod fig12;
pub mod fig13;
pub mod fig14;
pub mod fig4;
pub mod fig5;
pub mod fig9;
mod incast;
pub mod mq_incast;
pub mod nscc_fig12;
pub mod nscc_incast;
mod tree;

pub use common::jain;

use crate::config::{self, NetConfig, Profile, PS_PER_S};
use crate::plot::Figure;
use crate::NetError;
use dcqcn_harness::config_file::ConfigFileError;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One of the paper's experiments.
pub trait Experiment: Sync {
    /// The figure's name: `fig12`; also the name of its output folder and files.
    fn name(&self) -> &'static str;
    /// One line on what it shows.
    fn title(&self) -> &'static str;
    /// Its complete parameters; a file and the command line override them.
    fn default_config(&self) -> NetConfig;
    /// Runs `cfg` (validated: [`NetConfig::validate`]) and analyses the run; `progress` is called
    /// now and then with the fraction of the simulated time done.
    fn run(&self, cfg: &NetConfig, progress: &mut dyn FnMut(f64)) -> Outcome;
    /// It runs on the network (false: one limiter alone, which profile `mq`, a NIC, cannot be).
    fn on_network(&self) -> bool {
        true
    }
    /// The heading of the table's third column: what each measured value is compared with.
    fn reference(&self) -> &'static str {
        "paper"
    }
}

/// The experiments, in the order `all` runs them.
pub static ALL: [&dyn Experiment; 7] = [
    &fig9::Fig9,
    &fig12::Fig12,
    &fig11::Fig11,
    &fig13::Fig13,
    &fig14::Fig14,
    &fig4::Fig4,
    &fig5::Fig5,
];

/// Experiments beyond the paper's, run only by name (not by `all`).
pub static MORE: [&dyn Experiment; 3] = [
    &mq_incast::MqIncast,
    &nscc_incast::NsccIncast,
    &nscc_fig12::NsccFig12,
];

/// The names of [`ALL`] and [`MORE`].
pub fn names() -> Vec<&'static str> {
    ALL.iter().chain(MORE.iter()).map(|e| e.name()).collect()
}

/// The experiment called `name`.
pub fn by_name(name: &str) -> Result<&'static dyn Experiment, NetError> {
    ALL.iter()
        .chain(MORE.iter())
        .copied()
        .find(|e| e.name() == name)
        .ok_or_else(|| NetError::UnknownExperiment {
            name: name.to_string(),
            known: names().join(", "),
        })
}

/// What a run gives before anything is written.
pub struct Outcome {
    /// The time series (CSV).
    pub csv: Vec<u8>,
    pub rows: Vec<Row>,
    pub figure: Figure,
    pub simulated_s: f64,
    /// Cycles stepped and skipped by the senders' rate limiters.
    pub stepped_cycles: u64,
    pub skipped_cycles: u64,
}

/// One line of the measured-vs-paper table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub quantity: String,
    pub measured: String,
    pub paper: String,
}

/// A row of the table.
pub(crate) fn row(quantity: &str, measured: String, paper: &str) -> Row {
    Row {
        quantity: quantity.to_string(),
        measured,
        paper: paper.to_string(),
    }
}

/// What a run produced.
#[derive(Clone, Debug)]
pub struct Report {
    pub experiment: String,
    pub title: String,
    /// The heading of the table's third column ([`Experiment::reference`]).
    pub reference: String,
    pub rows: Vec<Row>,
    pub files: Vec<String>,
    pub simulated_s: f64,
    pub wall_s: f64,
    /// Cycles stepped and skipped by the senders' rate limiters.
    pub stepped_cycles: u64,
    pub skipped_cycles: u64,
}

impl Report {
    /// The table in Markdown.
    pub fn table(&self) -> String {
        let mut s = format!(
            "### {} — {}\n\n| quantity | measured | {} |\n|---|---|---|\n",
            self.experiment, self.title, self.reference
        );
        for r in &self.rows {
            let _ = writeln!(s, "| {} | {} | {} |", r.quantity, r.measured, r.paper);
        }
        s
    }

    /// The row whose quantity starts with `quantity`.
    pub fn row(&self, quantity: &str) -> Option<&Row> {
        self.rows.iter().find(|r| r.quantity.starts_with(quantity))
    }
}

/// Runs `experiment` with `cfg` and writes `<name>.csv`, `.svg`, `.png` and `<name>-table.md`
/// into `dir`.
pub fn run(
    experiment: &dyn Experiment,
    cfg: &NetConfig,
    dir: &Path,
    progress: &mut dyn FnMut(f64),
) -> Result<Report, NetError> {
    let name = experiment.name();
    // The folder and every file first: one that cannot be written ends the command before the
    // run; each is then written (and flushed) as soon as its content is known.
    crate::out::create_dir("--out", dir)?;
    let file = |ext: &str| crate::out::OutFile::create(dir.join(format!("{name}{ext}")));
    let mut csv = file(".csv")?;
    let (svg, png) = (file(".svg")?, file(".png")?);
    let mut table = file("-table.md")?;
    let started = std::time::Instant::now();
    let mut out = experiment.run(cfg, progress);
    let senders = senders_note(cfg);
    out.figure.title.push_str(&senders);
    csv.write(&out.csv)?;
    let mut files = vec![csv.name()];
    files.extend(out.figure.write_into(svg, png)?);
    let mut report = Report {
        experiment: name.to_string(),
        title: format!("{}{senders}", experiment.title()),
        reference: experiment.reference().to_string(),
        rows: out.rows,
        files,
        simulated_s: out.simulated_s,
        wall_s: started.elapsed().as_secs_f64(),
        stepped_cycles: out.stepped_cycles,
        skipped_cycles: out.skipped_cycles,
    };
    table.write(report.table().as_bytes())?;
    report.files.push(table.name());
    Ok(report)
}

/// What titles add when a sender is not our block: ` (senders: upstream SURF block)`, or the
/// count of each profile in a mixed network; empty when every sender is ours.
pub fn senders_note(cfg: &NetConfig) -> String {
    if cfg.is_nic() {
        return format!(
            " (senders: NICs of {} QPs on the multi-QP block)",
            cfg.sender.qps
        );
    }
    let count = |p: Profile| cfg.flows.iter().filter(|f| f.profile == p).count();
    let (surf, nscc) = (count(Profile::Surf), count(Profile::Nscc));
    if nscc == cfg.flows.len() {
        return " (senders: NSCC)".into();
    }
    if nscc > 0 {
        return format!(
            " (senders: {} our block, {surf} upstream SURF block, {nscc} NSCC)",
            cfg.flows.len() - surf - nscc
        );
    }
    match surf {
        0 => String::new(),
        n if n == cfg.flows.len() => " (senders: upstream SURF block)".into(),
        n => format!(
            " (senders: {} our block, {n} upstream SURF block)",
            cfg.flows.len() - n
        ),
    }
}

/// What the command line changes in every experiment's defaults.
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// A parameter file (TOML) applied over the defaults.
    pub config: Option<PathBuf>,
    pub seed: Option<u64>,
    /// Simulated time in seconds.
    pub duration_s: Option<f64>,
    /// Every sender's block (over the file's `profile` keys).
    pub profile: Option<Profile>,
}

/// The experiments `selection` names (one name, or `all`) with their configurations: the
/// defaults with `overrides`, every one checked before the first runs.
pub fn plan(
    selection: &str,
    overrides: &Overrides,
) -> Result<Vec<(&'static dyn Experiment, NetConfig)>, NetError> {
    let chosen: Vec<&'static dyn Experiment> = if selection == "all" {
        ALL.to_vec()
    } else {
        vec![by_name(selection).map_err(|_| NetError::UnknownExperiment {
            name: selection.to_string(),
            known: format!("{}, all", names().join(", ")),
        })?]
    };
    chosen
        .into_iter()
        .map(|e| {
            let mut cfg = e.default_config();
            if let Some(path) = &overrides.config {
                config::load_file(&mut cfg, path)?;
            }
            if let Some(seed) = overrides.seed {
                cfg.seed = seed;
            }
            if let Some(p) = overrides.profile {
                if p == Profile::Mq && !e.on_network() {
                    return Err(NetError::Flag {
                        flag: "--profile".into(),
                        message: format!(
                            "mq: {} runs one single-flow limiter without a network; profile mq is a NIC on the network",
                            e.name()
                        ),
                    });
                }
                if p == Profile::Nscc && !e.on_network() {
                    return Err(NetError::Flag {
                        flag: "--profile".into(),
                        message: format!(
                            "nscc: {} runs one single-flow limiter without a network; an NSCC sender needs the network's ACKs",
                            e.name()
                        ),
                    });
                }
                for f in &mut cfg.flows {
                    f.profile = p;
                }
            }
            if !e.on_network() && cfg.flows.iter().any(|f| f.profile == Profile::Nscc) {
                return Err(NetError::Flag {
                    flag: "sender.profile".into(),
                    message: format!(
                        "nscc: {} runs one single-flow limiter without a network; an NSCC sender needs the network's ACKs",
                        e.name()
                    ),
                });
            }
            if !e.on_network() && cfg.is_nic() {
                return Err(NetError::Flag {
                    flag: "sender.profile".into(),
                    message: format!(
                        "mq: {} runs one single-flow limiter without a network; profile mq is a NIC on the network",
                        e.name()
                    ),
                });
            }
            if let Some(d) = overrides.duration_s {
                if !(d > 0.0 && d <= 100.0) {
                    return Err(NetError::File(ConfigFileError::Field {
                        file: "command line".into(),
                        line: 0,
                        field: "--duration".into(),
                        message: format!("{d}: must be in (0, 100] seconds"),
                    }));
                }
                cfg.duration_ps = (d * PS_PER_S as f64).round() as u64;
            }
            cfg.validate("command line", &Default::default())?;
            Ok((e, cfg))
        })
        .collect()
}
