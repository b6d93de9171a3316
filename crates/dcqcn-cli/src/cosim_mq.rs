//! `dcqcn cosim --block mq`: the multi-QP block's lockstep (docs/spec-mq.md 8), every scenario
//! asked for on each HDL and QPS asked for, on a pool of threads; one line per run, then totals.

use crate::cosim::pool;
use crate::{Failure, HdlChoice};
use dcqcn_cosim::mq_lockstep::{self, MqOutcome, MqRunSpec};
use dcqcn_cosim::mq_rtl::{mq_variants, MqVariant};
use dcqcn_cosim::{vcd_out, CosimError};
use dcqcn_stim::mq::{self as scenarios, MqScenario};
use dcqcn_stim::variant::Hdl;
use std::path::{Path, PathBuf};

/// Arguments of `dcqcn cosim --block mq`.
pub(crate) struct MqCosimArgs<'a> {
    pub(crate) scenario: &'a Option<String>,
    pub(crate) cycles: Option<u64>,
    pub(crate) seed: u64,
    pub(crate) hdl: HdlChoice,
    pub(crate) qps: Option<u32>,
    /// A variant by name (a mutant `mut_<name>`): its HDL and QPS replace --hdl and the QPS list.
    pub(crate) variant: &'a Option<String>,
    pub(crate) vcd: &'a Option<PathBuf>,
    pub(crate) report: &'a Path,
    pub(crate) jobs: usize,
}

fn scenario_list(name: &Option<String>) -> Result<Vec<MqScenario>, Failure> {
    match name.as_deref() {
        None | Some("all") => Ok(scenarios::scenarios()),
        Some(n) => scenarios::by_name(n).map(|s| vec![s]).ok_or_else(|| {
            Failure::Input(format!(
                "--scenario: unknown multi-QP scenario `{}` (known: all, {})",
                dcqcn_harness::clip(n),
                scenarios::names().join(", ")
            ))
        }),
    }
}

pub(crate) fn cosim_mq(a: &MqCosimArgs) -> Result<(), Failure> {
    if a.vcd.is_some() && a.hdl == HdlChoice::Both {
        return Err(Failure::Input(
            "--vcd needs one RTL: --hdl sv or --hdl vhdl (one waveform per run)".into(),
        ));
    }
    let list = scenario_list(a.scenario)?;
    let built = mq_variants();
    if let Some(name) = a.variant {
        return cosim_mq_variant(a, name, &list, &built);
    }
    let built: Vec<MqVariant> = built.into_iter().filter(|v| !v.is_mutant()).collect();
    let mut qps_built: Vec<u32> = built.iter().map(|v| v.qps).collect();
    qps_built.sort_unstable();
    qps_built.dedup();
    if built.is_empty() {
        return Err(Failure::Input(
            "--block mq: no dcqcn_mq variant is built into this binary (rtl/mq/ and rtl/vhdl/mq/ were absent, or DCQCN_MQ_QPS was empty, at build time)".into(),
        ));
    }
    let qps_list: Vec<u32> = match a.qps {
        Some(q) if !qps_built.contains(&q) => {
            return Err(Failure::Input(format!(
                "--qps {q}: not built (built: {})",
                qps_built
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
        Some(q) => vec![q],
        None => qps_built.clone(),
    };
    let mut runs = vec![];
    for &hdl in a.hdl.hdls() {
        for &qps in &qps_list {
            if !built.iter().any(|v| v.hdl == hdl && v.qps == qps) {
                return Err(Failure::Input(format!(
                    "--hdl {}: no dcqcn_mq variant of it at QPS {qps} is built",
                    hdl.name()
                )));
            }
            runs.push((hdl, qps, None));
        }
    }
    run_all(a, &list, &runs)
}

/// `--variant NAME`: the scenarios on that one variant (its HDL and QPS; --qps, when given, must
/// be its QPS).
fn cosim_mq_variant(
    a: &MqCosimArgs,
    name: &str,
    list: &[MqScenario],
    built: &[MqVariant],
) -> Result<(), Failure> {
    let Some(v) = built.iter().find(|v| v.name == name) else {
        return Err(Failure::Input(format!(
            "--variant: no dcqcn_mq variant `{}` is built (built: {}; mutants need feature `mutants`)",
            dcqcn_harness::clip(name),
            built
                .iter()
                .map(|v| v.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    if let Some(q) = a.qps.filter(|&q| q != v.qps) {
        return Err(Failure::Input(format!(
            "--qps {q}: variant `{}` is built at QPS {}",
            v.name, v.qps
        )));
    }
    run_all(a, list, &[(v.hdl, v.qps, Some(v.name.clone()))])
}

/// Every scenario of `list` on each (HDL, QPS, variant name) of `runs`; one line per run.
fn run_all(
    a: &MqCosimArgs,
    list: &[MqScenario],
    runs: &[(Hdl, u32, Option<String>)],
) -> Result<(), Failure> {
    if a.vcd.is_some() && (list.len() != 1 || runs.len() != 1) {
        return Err(Failure::Input(
            "--vcd needs --scenario NAME and --qps N (one waveform per run)".into(),
        ));
    }
    let mut jobs = vec![];
    for (hdl, qps, variant) in runs {
        let (hdl, qps) = (*hdl, *qps);
        let target = match variant {
            Some(name) => format!("--variant {name}"),
            None => format!("--hdl {} --qps {qps}", hdl.name()),
        };
        for sc in list {
            let cycles = a.cycles.unwrap_or(sc.default_cycles);
            jobs.push(MqRunSpec {
                scenario: sc.name.to_string(),
                stimulus: (sc.stimulus)(qps),
                qps,
                hdl,
                variant: variant.clone(),
                seed: a.seed,
                cycles,
                replay: format!(
                    "dcqcn cosim --block mq {target} --scenario {} --seed {}",
                    sc.name, a.seed
                ),
                plant: None,
                initial: None,
            });
        }
    }
    outln!(
        "{:<18} {:>4} {:>5} {:>10} {:>8} {:>8} {:>6} {:>6} {:>10} {:>9}",
        "scenario",
        "hdl",
        "qps",
        "cycles",
        "requests",
        "grants",
        "CNPs",
        "regs",
        "mismatches",
        "cycles/s"
    );
    let wall = std::time::Instant::now();
    let (mut next, mut total_cycles, mut total_secs) = (0, 0u64, 0f64);
    let mut pending = std::collections::BTreeMap::new();
    let mut print = |k: usize, r: Result<MqOutcome, CosimError>| -> Result<(), Failure> {
        pending.insert(k, r);
        while let Some(r) = pending.remove(&next) {
            let spec = &jobs[next];
            let o = r?;
            let s = &o.stats;
            outln!(
                "{:<18} {:>4} {:>5} {:>10} {:>8} {:>8} {:>6} {:>6} {:>10} {:>9.0}",
                spec.scenario,
                spec.hdl.name(),
                spec.qps,
                s.cycles,
                s.bench.requests,
                s.bench.grants,
                s.bench.cnps,
                s.bench.axil_writes + s.bench.axil_reads,
                u64::from(o.mismatch.is_some()),
                s.cycles_per_second()
            );
            total_cycles += s.cycles;
            total_secs += s.seconds;
            if let Some(m) = o.mismatch {
                eprintln!("\n{}", m.report());
                let written =
                    dcqcn_cosim::artifacts::write_mq_mismatch_artifacts(spec, &m, a.report);
                match written.report {
                    Ok(path) => eprintln!("report: {}", path.display()),
                    Err(e) => eprintln!("{e}"),
                }
                match written.waveform {
                    Ok((path, cycles)) => eprintln!(
                        "waveform (cycles {}..={}): {}",
                        cycles.start(),
                        cycles.end(),
                        path.display()
                    ),
                    Err(e) => eprintln!("{e}"),
                }
                return Err(Failure::Mismatch);
            }
            next += 1;
        }
        Ok(())
    };
    if let Some(path) = a.vcd {
        let spec = &jobs[0];
        let o = vcd_out::mq_run_traced(spec, path, 0..spec.cycles)
            .map_err(|e| Failure::Input(e.to_string()))?;
        print(0, Ok(o))?;
    } else {
        pool(
            jobs.len(),
            a.jobs,
            |k| jobs[k].cycles * u64::from(jobs[k].qps),
            |k| mq_lockstep::run(&jobs[k], None),
            &mut print,
        )?;
    }
    outln!(
        "total: {} runs, {} cycles compared, 0 mismatches, {:.0} cycles/s per thread; wall {:.1} s",
        jobs.len(),
        total_cycles,
        total_cycles as f64 / total_secs.max(1e-9),
        wall.elapsed().as_secs_f64()
    );
    Ok(())
}
