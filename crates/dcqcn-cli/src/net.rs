//! `dcqcn net <experiment>`: run one of the paper's experiments (or `all`) with `dcqcn-net` and
//! write its CSV, SVG, PNG and measured-vs-paper table under `--out/<experiment>/`, with a progress
//! bar per experiment.

use dcqcn_net::config::Profile;
use dcqcn_net::experiment::{self, Overrides, Report};
use dcqcn_net::NetError;
use std::path::PathBuf;

#[derive(clap::Args, Clone, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct NetArgs {
    #[command(subcommand)]
    pub scale: Option<crate::net_scale::ScaleCmd>,
    /// fig9, fig11, fig12, fig13, fig14, fig4, fig5, or all (the paper's); mq-incast (64 QPs on
    /// 4 NICs with the multi-QP block), nscc-incast (seven NSCC senders into a receiver whose
    /// memory is the bottleneck, with and without rcv_cwnd_pend) and nscc-fig12 (fig12 with NSCC
    /// senders beside DCQCN ones), run by name only.
    #[arg(required = true)]
    pub experiment: Option<String>,
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
    /// Every sender's rate limiter: `ours` (our block), `surf` (the upstream SURF block as
    /// deployed, bit-exact to its VHDL), `mq` (a NIC: `sender.qps` QPs, default 1, behind one
    /// port on the multi-QP block) or `nscc` (an Ultra Ethernet NSCC sender, window-based, no
    /// limiter); overrides the file's `profile` keys.
    #[arg(long, value_parser = parse_profile)]
    pub profile: Option<Profile>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

fn parse_profile(s: &str) -> Result<Profile, String> {
    Profile::from_name(s)
}

/// Runs the command, printing each experiment's table; an error's [`NetError::exit_code`] is the
/// process exit code.
pub fn run(args: &NetArgs) -> Result<Vec<Report>, NetError> {
    if let Some(cmd) = &args.scale {
        crate::net_scale::run(cmd)?;
        return Ok(Vec::new());
    }
    let selection = args.experiment.as_deref().unwrap_or("all");
    let overrides = Overrides {
        config: args.config.clone(),
        seed: args.seed,
        duration_s: args.duration,
        profile: args.profile,
    };
    // Every configuration is checked before the first run starts.
    let plan = experiment::plan(selection, &overrides)?;
    let mut reports = Vec::new();
    for (exp, cfg) in plan {
        let dir = args.out.join(exp.name());
        // Said before the run: a closed standard output ends the command here (status 141).
        outln!(
            "{}: {:.3} s simulated, into {}",
            exp.name(),
            cfg.duration_ps as f64 / dcqcn_net::config::PS_PER_S as f64,
            dir.display()
        );
        let bar = crate::net_scale::progress_bar(exp.name(), args.quiet);
        let report = experiment::run(exp, &cfg, &dir, &mut |done| {
            bar.set_position((done * 1000.0) as u64)
        })?;
        bar.finish_and_clear();
        outln!("{}", report.table());
        outln!(
            "simulated {:.3} s in {:.1} s wall: {:.3} simulated s per wall s; limiter cycles stepped {} / skipped {}",
            report.simulated_s,
            report.wall_s,
            report.simulated_s / report.wall_s.max(1e-9),
            report.stepped_cycles,
            report.skipped_cycles
        );
        outln!("wrote {}\n", report.files.join(", "));
        reports.push(report);
    }
    Ok(reports)
}
