//! Lockstep against the model of the upstream block: [`lockstep`], its outcome and mismatch
//! report, and the waveform it writes.

use super::common::{io_err, Ports, Regs, SurfError, DATA_BYTES};
use super::late;
use super::late::{Cycle, Row, Window};
use super::record::{cycle_values, field_diff, fields, history_row};
use super::scenarios::{params, SurfScenario};
use super::sim::SurfSim;
use super::tree::Built;
use crate::model::{SurfLimiter, SurfParams, SurfProbe};
use dcqcn_cosim::lockstep::{FieldDiff, HistoryRow};
use dcqcn_model::{Inputs, Outputs};
use dcqcn_stim::golden::format::{Dir, Val};
use dcqcn_stim::stimulus::Bench;
use serde::Serialize;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The first difference between [`SurfLimiter`] and the upstream VHDL.
#[derive(Clone, Debug, Serialize)]
pub struct SurfMismatch {
    pub cycle: u64,
    pub time_us: f64,
    pub scenario: String,
    pub seed: u64,
    /// `surf <commit>`.
    pub variant: String,
    pub data_bytes: u32,
    pub fields: Vec<FieldDiff>,
    /// The upstream register writes after each reset (`addr=data`).
    pub writes: Vec<String>,
    pub replay: String,
    /// The cycles up to the mismatch: inputs and model outputs.
    pub history: Vec<HistoryRow>,
    /// The run's own scratch folder, kept for the report: the upstream register dump compared
    /// (`dump.vcd`) and the simulator's messages (`sim.log`).
    pub upstream_run: String,
}

impl SurfMismatch {
    /// The mismatch as pretty JSON (the `--report` file).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data serialises")
    }

    /// The report, laid out as `dcqcn cosim`'s.
    pub fn report(&self) -> String {
        let mut s = format!(
            "MISMATCH at cycle {} (t = {:.3} us), scenario {}, seed {}, RTL variant {} ({} B beats)\n",
            self.cycle, self.time_us, self.scenario, self.seed, self.variant, self.data_bytes
        );
        s += &dcqcn_cosim::lockstep::report_body(&self.fields, &self.history);
        s += &format!(
            "configuration: upstream writes [{}]\n",
            self.writes.join(", ")
        );
        s += &format!(
            "upstream run: {} (register dump dump.vcd, messages sim.log)\n",
            self.upstream_run
        );
        s += &format!("replay: {}\n", self.replay);
        s
    }
}

/// A SURF lockstep's result.
#[derive(Clone, Debug)]
pub struct SurfOutcome {
    /// Cycles compared (ports and registers).
    pub cycles: u64,
    pub seconds: f64,
    pub mismatch: Option<SurfMismatch>,
    /// The run's own scratch folder (its register dump and the simulator's messages): removed
    /// when the run passed, kept with a mismatch.
    pub upstream_run: PathBuf,
    pub kept: bool,
}

impl SurfOutcome {
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
}

fn regs_of(p: &SurfProbe) -> Regs {
    Regs {
        rc: p.rc,
        rt: p.rt,
        alpha: p.alpha,
        cnp_cnt: p.cnp_cnt,
    }
}

/// The fields that differ in one cycle: every output port (the m_axis payload only while the
/// upstream m_axis_tvalid is 1; a bit that is not 0/1 is a difference, shown as `x`), and, when
/// `regs` is given, Rc, Rt, alpha and the CNP counter register after the edge.
fn diffs(i: &Inputs, m: &Outputs, r: &Ports, regs: Option<(&Regs, &Regs)>) -> Vec<FieldDiff> {
    let f = fields(DATA_BYTES);
    let z = Regs::default();
    let (mr, rr) = regs.unwrap_or((&z, &z));
    let mv = cycle_values(i, m, mr);
    let payload = ["m_axis_tdata", "m_axis_tkeep", "m_axis_tlast"];
    // The payload of both sides under the upstream tvalid.
    let mut m2 = *m;
    m2.m_axis_tvalid = r.out.m_axis_tvalid;
    let mv2 = cycle_values(i, &m2, mr);
    let rv = cycle_values(i, &r.out, rr);
    let mut out = Vec::new();
    for (k, g) in f.iter().enumerate() {
        let block = match g.dir {
            Dir::In => continue,
            Dir::Out => "out",
            Dir::St => {
                if regs.is_none() {
                    continue;
                }
                "st"
            }
        };
        let model = if payload.contains(&g.name) {
            mv2[k]
        } else {
            mv[k]
        };
        let undef =
            r.undefined.contains(&g.name) && (r.out.m_axis_tvalid || !payload.contains(&g.name));
        if undef {
            let mut d = field_diff(g.name, block, g.width, &model, &rv[k]);
            d.rtl_hex = "x".repeat(g.width.div_ceil(4) as usize);
            d.rtl = "not 0/1".into();
            out.push(d);
        } else if model != rv[k] {
            out.push(field_diff(g.name, block, g.width, &model, &rv[k]));
        }
    }
    out
}

/// The cycles of a mismatch's waveform window, as a length.
pub(super) const WAVEFORM_CYCLES_USIZE: usize = dcqcn_cosim::lockstep::WAVEFORM_CYCLES as usize;

/// The stimulus of `sc` and [`SurfLimiter`], stepped from reset: the model side of a run, live
/// and in the replay of [`late::first_difference`].
pub struct ModelRun<'a> {
    bench: Bench,
    model: SurfLimiter,
    cnp_at: &'a [u64],
    cycle: u64,
}

impl<'a> ModelRun<'a> {
    pub fn new(sc: &'a SurfScenario, seed: u64) -> Self {
        ModelRun {
            bench: Bench::with_config_writes(&sc.stimulus, &params(), seed, sc.writes.clone()),
            model: SurfLimiter::new(SurfParams::default()),
            cnp_at: &sc.cnp_at,
            cycle: 0,
        }
    }
}

impl late::ModelSide for ModelRun<'_> {
    fn step(&mut self, prev: &Outputs) -> (Inputs, Outputs, Regs) {
        let mut i = self.bench.next(prev);
        i.cnp |= self.cnp_at.contains(&self.cycle);
        self.cycle += 1;
        let o = self.model.step(&i);
        (i, o, regs_of(&self.model.probe()))
    }
}

/// Runs `sc` for `cycles` cycles on the upstream block and on [`SurfLimiter`], closed loop on
/// the upstream outputs, comparing every output port every cycle and the four registers after
/// every edge. Stops stepping at the first port difference; the registers (streamed from the
/// waveform dump when the simulation ends, [`late`]) are compared up to there, and the earlier
/// difference is the one reported, wherever it lies. `vcd`: a waveform of scopes `tb`, `model`
/// and `rtl` — of the whole run, or (`window_only`) of the [`dcqcn_cosim::lockstep::WAVEFORM_CYCLES`]
/// cycles up to a mismatch. Memory: that many cycles twice, or the whole run for a whole-run
/// waveform.
pub fn lockstep(
    b: &Built,
    sc: &SurfScenario,
    seed: u64,
    cycles: u64,
    replay: &str,
    vcd: Option<(&Path, bool)>,
) -> Result<SurfOutcome, SurfError> {
    use late::ModelSide;
    let mut side = ModelRun::new(sc, seed);
    let mut sim = SurfSim::start(b, sc.name)?;
    let keep_all = matches!(vcd, Some((_, false)));
    let cap = (!keep_all).then_some(WAVEFORM_CYCLES_USIZE);
    let mut held: Window<Cycle> = Window::new(cap);
    let mut port0 = Ports::default();
    let mut prev = Outputs::default();
    let mut port_mismatch = None;
    let start = Instant::now();
    let mut stepped = 0;
    for k in 0..=cycles {
        let (i, mo, mr) = side.step(&prev);
        let po = sim.step(&i)?;
        if k == cycles {
            break; // the extra cycle that shows the registers after the last edge
        }
        stepped += 1;
        // Cycle 0: the registered outputs still hold their power-up values.
        let differs = k > 0 && !diffs(&i, &mo, &po, None).is_empty();
        prev = po.out;
        if k == 0 {
            port0 = po.clone();
        }
        held.push(Cycle {
            inputs: i,
            model: mo,
            rtl: po,
            model_regs: mr,
        });
        if differs {
            port_mismatch = Some(k);
            // One more cycle shows the registers after this edge.
            let (i2, _, _) = side.step(&prev);
            sim.step(&i2)?;
            break;
        }
    }
    let mut dump = sim.finish()?;
    let run = late::Run {
        stepped,
        held: &held,
        port0: &port0,
        port_mismatch,
    };
    let found = late::first_difference(
        &run,
        &mut ModelRun::new(sc, seed),
        &mut |_, rst| dump.next_regs(rst),
        cap,
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let upstream_run = dump.scratch().path().to_path_buf();
    let (mismatch, compared) = conclude(
        &found,
        stepped,
        &Context {
            scenario: sc,
            seed,
            commit: &b.commit,
            replay,
            upstream_run: &upstream_run,
        },
        vcd,
    )?;
    if mismatch.is_some() {
        dump.scratch().keep();
    }
    let kept = dump.scratch().kept();
    Ok(SurfOutcome {
        cycles: compared,
        seconds,
        mismatch,
        upstream_run,
        kept,
    })
}

/// What a report names besides the cycles.
pub struct Context<'a> {
    pub scenario: &'a SurfScenario,
    pub seed: u64,
    pub commit: &'a str,
    /// The command that runs the scenario again (without `--cycles`).
    pub replay: &'a str,
    pub upstream_run: &'a Path,
}

/// The mismatch at `found.at` (fields, history, replay command) and the cycles compared, and the
/// waveform `vcd` (see [`lockstep`]) from `found.rows`.
pub fn conclude(
    found: &late::Found,
    stepped: u64,
    cx: &Context,
    vcd: Option<(&Path, bool)>,
) -> Result<(Option<SurfMismatch>, u64), SurfError> {
    let rows = &found.rows;
    let row = |c: u64| {
        rows.get(c).ok_or(SurfError::Lost {
            cycle: c,
            first: rows.first(),
            end: rows.end(),
        })
    };
    let mismatch = match found.at {
        None => None,
        Some(at) => {
            let r = row(at)?;
            let c = &r.cycle;
            let fields = diffs(
                &c.inputs,
                &c.model,
                &c.rtl,
                Some((&c.model_regs, &r.rtl_regs)),
            );
            let hist_from = at
                .saturating_sub(dcqcn_cosim::lockstep::HISTORY_CYCLES - 1)
                .max(rows.first());
            let mut history = Vec::new();
            for k in hist_from..=at {
                let h = &row(k)?.cycle;
                history.push(history_row(k, &h.inputs, &h.model));
            }
            Some(SurfMismatch {
                cycle: at,
                time_us: at as f64 / 156.25,
                scenario: cx.scenario.name.to_string(),
                seed: cx.seed,
                variant: format!("surf {}", cx.commit),
                data_bytes: DATA_BYTES,
                fields,
                writes: cx
                    .scenario
                    .writes
                    .iter()
                    .map(|(a, d)| format!("{a:#05x}={d:#010x}"))
                    .collect(),
                replay: format!("{} --cycles {}", cx.replay, at + 1),
                history,
                upstream_run: cx.upstream_run.display().to_string(),
            })
        }
    };
    if let Some((path, window_only)) = vcd {
        if !window_only || mismatch.is_some() {
            let end = found.at.map_or(stepped, |c| c + 1).min(rows.end());
            let from = if window_only {
                end.saturating_sub(dcqcn_cosim::lockstep::WAVEFORM_CYCLES)
                    .max(rows.first())
            } else {
                rows.first()
            };
            write_vcd(path, rows, from..end)?;
        }
    }
    Ok((mismatch, found.at.unwrap_or(stepped)))
}

/// Writes cycles `range` of `rows`: scope `tb` the inputs, scopes `model` and `rtl` the outputs
/// (at the falling edge) and the four registers (after the rising edge), as `dcqcn cosim`'s
/// waveforms.
fn write_vcd(
    path: &Path,
    rows: &Window<Row>,
    range: std::ops::Range<u64>,
) -> Result<(), SurfError> {
    use vcd::{TimescaleUnit, Value};
    let file = std::fs::File::create(path).map_err(io_err(path))?;
    let io = |e: std::io::Error| SurfError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let mut w = vcd::Writer::new(BufWriter::new(file));
    let f = fields(DATA_BYTES);
    let half = 3_200u64; // ps: 156.25 MHz
    w.timescale(1, TimescaleUnit::PS).map_err(io)?;
    w.add_module("surf").map_err(io)?;
    let clk = w.add_wire(1, "clk").map_err(io)?;
    let mut ids = Vec::new();
    for scope in ["tb", "model", "rtl"] {
        w.add_module(scope).map_err(io)?;
        let mut v = Vec::new();
        for g in &f {
            if (scope == "tb") == (g.dir == Dir::In) {
                v.push(Some(w.add_wire(g.width, g.name).map_err(io)?));
            } else {
                v.push(None);
            }
        }
        ids.push(v);
        w.upscope().map_err(io)?;
    }
    w.upscope().map_err(io)?;
    w.enddefinitions().map_err(io)?;
    let bits = |v: &Val, width: u32| -> Vec<Value> {
        (0..width)
            .rev()
            .map(|b| {
                if v[(b / 64) as usize] >> (b % 64) & 1 == 1 {
                    Value::V1
                } else {
                    Value::V0
                }
            })
            .collect()
    };
    for c in range {
        let Some(Row {
            cycle: cy,
            rtl_regs,
        }) = rows.get(c)
        else {
            return Err(SurfError::Lost {
                cycle: c,
                first: rows.first(),
                end: rows.end(),
            });
        };
        let mv = cycle_values(&cy.inputs, &cy.model, &cy.model_regs);
        let rv = cycle_values(&cy.inputs, &cy.rtl.out, rtl_regs);
        for (phase, dirs) in [(0u64, [Dir::In, Dir::Out]), (1, [Dir::St, Dir::St])] {
            w.timestamp(c * 2 * half + phase * half).map_err(io)?;
            w.change_scalar(clk, if phase == 0 { Value::V0 } else { Value::V1 })
                .map_err(io)?;
            for (k, g) in f.iter().enumerate() {
                if !dirs.contains(&g.dir) {
                    continue;
                }
                for (s, vals) in [(0usize, &mv), (1, &mv), (2, &rv)] {
                    if let Some(id) = ids[s][k] {
                        w.change_vector(id, bits(&vals[k], g.width)).map_err(io)?;
                    }
                }
            }
        }
    }
    w.flush().map_err(io)?;
    Ok(())
}
