//! `dcqcn net <experiment>`: run one of the paper's experiments (or `all`) and write its CSV,
//! SVG, PNG and measured-vs-paper table under `--out/<experiment>/`.

use crate::config::{self, PS_PER_S};
use crate::experiment::{self, Report, NAMES};
use crate::NetError;
use dcqcn_harness::config_file::ConfigFileError;
use std::path::PathBuf;

#[derive(clap::Args, Clone, Debug)]
pub struct NetArgs {
    /// fig9, fig11, fig12, fig13, fig14, fig4, fig5, or all.
    pub experiment: String,
    /// Network parameters (TOML) applied over the experiment's defaults.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Output folder; each experiment writes into a subfolder of its name.
    #[arg(long, default_value = "out/net")]
    pub out: PathBuf,
    /// RED seed (overrides the file).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Simulated time in seconds (overrides the file).
    #[arg(long)]
    pub duration: Option<f64>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs the command; the error's [`NetError::exit_code`] is the process exit code.
pub fn run(args: &NetArgs) -> Result<Vec<Report>, NetError> {
    let names: Vec<&str> = if args.experiment == "all" {
        NAMES.to_vec()
    } else {
        vec![NAMES
            .iter()
            .copied()
            .find(|n| *n == args.experiment)
            .ok_or_else(|| NetError::UnknownExperiment {
                name: args.experiment.clone(),
                known: format!("{}, all", NAMES.join(", ")),
            })?]
    };
    // Every configuration is checked before the first run starts.
    let mut cfgs = Vec::new();
    for name in &names {
        let mut cfg = experiment::default_config(name)?;
        if let Some(path) = &args.config {
            config::load_file(&mut cfg, path)?;
        }
        if let Some(seed) = args.seed {
            cfg.seed = seed;
        }
        if let Some(d) = args.duration {
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
        cfgs.push(cfg);
    }
    let mut reports = Vec::new();
    for (name, cfg) in names.iter().zip(&cfgs) {
        let bar = if args.quiet {
            indicatif::ProgressBar::hidden()
        } else {
            let b = indicatif::ProgressBar::new(1000);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{prefix:>6} [{bar:40}] {percent:>3}% simulated, {elapsed} elapsed, eta {eta}",
                )
                .expect("a valid template")
                .progress_chars("=> "),
            );
            b.set_prefix(name.to_string());
            b
        };
        let dir = args.out.join(name);
        let report = experiment::run(name, cfg, &dir, |f| bar.set_position((f * 1000.0) as u64))?;
        bar.finish_and_clear();
        println!("{}", report.table());
        println!(
            "simulated {:.3} s in {:.1} s wall: {:.3} simulated s per wall s; limiter cycles stepped {} / skipped {}",
            report.simulated_s,
            report.wall_s,
            report.simulated_s / report.wall_s.max(1e-9),
            report.stepped_cycles,
            report.skipped_cycles
        );
        println!("wrote {}\n", report.files.join(", "));
        reports.push(report);
    }
    Ok(reports)
}
