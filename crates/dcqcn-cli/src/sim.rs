//! `dcqcn sim`: the model alone, one scenario: its row, a CSV of every `--every`-th cycle, or the
//! trace ring of the RTL's debug port.

use crate::cosim::{run_spec, scenarios_for};
use crate::{stdout_failed, Failure, RunArgs, TraceMode};
use dcqcn_model::{Phase, Snapshot};
use dcqcn_stim::run::{self, RunSpec};
use dcqcn_stim::variant;
use std::io::Write;
use std::path::{Path, PathBuf};

pub(crate) fn sim(
    args: &RunArgs,
    out: &Option<PathBuf>,
    every: u64,
    trace: Option<TraceMode>,
) -> Result<(), Failure> {
    let sc = scenarios_for(&args.scenario, false)?.remove(0);
    let mut spec = run_spec(&sc, args, &variant::width_variant(sc.data_bytes), 0)?;
    let mut w: Box<dyn Write> = match out {
        Some(p) => Box::new(create(p)?),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let clk = f64::from(spec.params.clk_hz());
    if let Some(mode) = trace {
        let cfg = &mut spec.stimulus.config;
        cfg.trace_en = true;
        cfg.trace_wrap = matches!(mode, TraceMode::Wrap);
        return sim_trace(sc.name, &spec, w, out.is_none());
    }
    // A failed write (a closed pipe, a full disk) ends the run at that cycle.
    let written = writeln!(
        w,
        "cycle,time_us,event,rc_bytes_per_s,rt_bytes_per_s,alpha,credit_bytes,cnt_cnp,cnt_dec"
    )
    .and_then(|()| run::try_run_model(&spec, |c, _, _, m| sim_row(&mut w, c, m, every, clk)))
    .and_then(|stats| w.flush().map(|()| stats));
    let stats = match written {
        Ok(stats) => stats,
        // standard output, or --out naming a pipe whose reader went away: the convention of
        // a closed pipe (exit 141)
        Err(e) if out.is_none() || e.kind() == std::io::ErrorKind::BrokenPipe => stdout_failed(&e),
        Err(e) => {
            return Err(Failure::Input(format!(
                "--out {}: cannot write: {e}",
                out.as_ref()
                    .map_or_else(String::new, |p| p.display().to_string())
            )))
        }
    };
    eprintln!(
        "{}: {} cycles, {} CNPs, {} decreases, {:.1} M cycles/s (model only)",
        sc.name,
        stats.cycles,
        stats.cnps,
        stats.decreases,
        stats.cycles_per_second() / 1e6
    );
    Ok(())
}

/// One row of `dcqcn sim`'s CSV for cycle `c`, if it has an event (or is a sample every `every`
/// cycles).
pub(crate) fn sim_row(
    w: &mut dyn Write,
    c: u64,
    m: &dcqcn_model::RateLimiter,
    every: u64,
    clk: f64,
) -> std::io::Result<()> {
    {
        let e = m.events();
        let ev = if e.dec_fire {
            "decrease"
        } else {
            match e.inc {
                Some(Phase::FastRecovery) => "increase_fr",
                Some(Phase::Additive) => "increase_ai",
                Some(Phase::Hyper) => "increase_hai",
                None if e.cnp_edge => "cnp",
                None if e.alpha_fire => "alpha",
                None if every > 0 && c.is_multiple_of(every) => "sample",
                None => return Ok(()),
            }
        };
        let s = m.state();
        let snap = Snapshot::from_model(&Default::default(), s);
        writeln!(
            w,
            "{c},{:.4},{ev},{},{},{},{:.4},{},{}",
            c as f64 * 1e6 / clk,
            s.rc,
            s.rt,
            s.alpha.alpha,
            s.gate.credit as f64 / 65536.0,
            snap.cnt_cnp,
            snap.cnt_dec
        )
    }
}

/// `dcqcn sim --trace`: runs the model with the trace armed by the configuration and writes the
/// window as software reads it through 0x184-0x18C, decoded; a summary of 0x174-0x17C on stderr.
pub(crate) fn sim_trace(
    name: &str,
    spec: &RunSpec,
    mut w: Box<dyn Write>,
    to_stdout: bool,
) -> Result<(), Failure> {
    let last = spec.cycles.saturating_sub(1);
    let mut window = None;
    let stats = run::run_model(spec, |c, _, _, m| {
        if c == last {
            window = Some(*m.trace());
        }
    });
    let t = window.ok_or_else(|| Failure::Input("the run has no cycles".into()))?;
    let clk = f64::from(spec.params.clk_hz());
    let mut text = String::from("entry,stamp_cycles,stamp_us,code,event,rc_bytes_per_s,rc_gbps\n");
    for (k, e) in t.entries().iter().enumerate() {
        text += &format!(
            "{k},{},{:.4},{:#06b},{},{},{:.4}\n",
            e.stamp,
            f64::from(e.stamp) * 1e6 / clk,
            e.kind,
            e.decode(),
            e.rc,
            f64::from(e.rc) * 8.0 / 1e9
        );
    }
    if let Err(e) = w.write_all(text.as_bytes()).and_then(|()| w.flush()) {
        if to_stdout {
            stdout_failed(&e);
        }
        return Err(Failure::Input(format!("writing the trace: {e}")));
    }
    let sat = |n: u16| if n == 1023 { " (saturated)" } else { "" };
    eprintln!(
        "{name}: {} cycles; trace: {} entries{}, armed {} cycles; decreases {}{}, byte-counter increases {}{}, timer increases {}{}",
        stats.cycles,
        t.count.min(64),
        if t.lost { " (window full: events lost)" } else { "" },
        t.time,
        t.n_dec,
        sat(t.n_dec),
        t.n_byte,
        sat(t.n_byte),
        t.n_timer,
        sat(t.n_timer)
    );
    Ok(())
}

pub(crate) fn create(path: &Path) -> Result<std::io::BufWriter<std::fs::File>, Failure> {
    std::fs::File::create(path)
        .map(std::io::BufWriter::new)
        .map_err(|e| Failure::Input(format!("{}: cannot create: {e}", path.display())))
}
