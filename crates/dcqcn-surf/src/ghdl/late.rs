//! Finding the first difference of a SURF lockstep wherever it lies, in bounded memory.
//!
//! The output ports are compared while the simulator runs, but Rc, Rt, alpha and the CNP counter
//! come from the simulator's register dump, read when the run has ended: their first difference
//! may lie any number of cycles before the end, long before the cycles the run kept. The dump is
//! therefore streamed against a replay of the model side (the stimulus and the model, which are
//! deterministic), and the cycles up to the first register difference are kept in a window of
//! bounded length.
//!
//! The replay needs the upstream outputs the stimulus saw. Before the first port difference they
//! equal the model's in every compared field (the m_axis payload only where m_axis_tvalid is 1,
//! and no bit that is not 0/1), and the stimulus reads no other: the replay takes the model's
//! outputs there, cycle 0's upstream outputs (not compared: power-up values) from the run, and the
//! run's own upstream outputs wherever the run still holds the cycle. Where it does, the replayed
//! inputs, model outputs and model registers must equal the run's, or the replay is an error
//! ([`SurfError::Replay`]), never a report.

use super::common::{Ports, Regs, SurfError};
use dcqcn_model::{Inputs, Outputs};
use std::collections::VecDeque;

/// Consecutive cycles of a run, the oldest dropped beyond a capacity.
#[derive(Clone, Debug)]
pub struct Window<T> {
    first: u64,
    rows: VecDeque<T>,
    cap: Option<usize>,
}

impl<T> Window<T> {
    /// An empty window from cycle 0 that holds at most `cap` cycles (at least 1), or every cycle.
    pub fn new(cap: Option<usize>) -> Self {
        Window {
            first: 0,
            rows: VecDeque::new(),
            cap: cap.map(|c| c.max(1)),
        }
    }

    /// Appends the next cycle's row.
    pub fn push(&mut self, row: T) {
        self.rows.push_back(row);
        if let Some(c) = self.cap {
            while self.rows.len() > c {
                self.rows.pop_front();
                self.first += 1;
            }
        }
    }

    /// The oldest cycle held.
    pub fn first(&self) -> u64 {
        self.first
    }

    /// One past the newest cycle held.
    pub fn end(&self) -> u64 {
        self.first + self.rows.len() as u64
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The row of `cycle`, if held.
    pub fn get(&self, cycle: u64) -> Option<&T> {
        let i = usize::try_from(cycle.checked_sub(self.first)?).ok()?;
        self.rows.get(i)
    }
}

/// One cycle of the run: the inputs, the model's outputs, the upstream outputs and the model's
/// registers after the edge.
#[derive(Clone, Debug, PartialEq)]
pub struct Cycle {
    pub inputs: Inputs,
    pub model: Outputs,
    pub rtl: Ports,
    pub model_regs: Regs,
}

/// A cycle with the upstream registers after its edge (from the dump).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub cycle: Cycle,
    pub rtl_regs: Regs,
}

/// The model side of a run, stepped again from reset: each call gives the next cycle's inputs
/// (drawn with the upstream outputs `prev` of the cycle before), the model's outputs and its
/// registers after the edge.
pub trait ModelSide {
    fn step(&mut self, prev: &Outputs) -> (Inputs, Outputs, Regs);
}

/// What the run kept.
pub struct Run<'a> {
    /// Cycles stepped on both sides (the last is the port mismatch, if any).
    pub stepped: u64,
    /// The newest cycles of the run, with the upstream outputs as they were.
    pub held: &'a Window<Cycle>,
    /// Cycle 0's upstream outputs.
    pub port0: &'a Ports,
    /// The cycle of the first port difference (the last cycle stepped).
    pub port_mismatch: Option<u64>,
}

/// The first difference and the cycles up to it (with the upstream registers).
#[derive(Debug)]
pub struct Found {
    /// The first cycle with a difference in a port or a register; `None`: none.
    pub at: Option<u64>,
    /// The cycles up to `at` (or to the last cycle stepped), at most `cap` of them.
    pub rows: Window<Row>,
}

/// Replays `model` for the cycles of `run`, reads each cycle's upstream registers from `dump`
/// (given the cycle and its reset input) until the first register difference, and keeps the last
/// `cap` cycles up to it (`None`: every cycle). The replay goes on without the dump while the run
/// holds cycles after that, to check them against the run.
pub fn first_difference(
    run: &Run,
    model: &mut dyn ModelSide,
    dump: &mut dyn FnMut(u64, bool) -> Result<Regs, SurfError>,
    cap: Option<usize>,
) -> Result<Found, SurfError> {
    let mut rows = Window::new(cap);
    let mut reg_diff: Option<u64> = None;
    let mut prev = Outputs::default();
    for k in 0..run.stepped {
        if reg_diff.is_some() && k >= run.held.end() {
            break;
        }
        let (inputs, model_out, model_regs) = model.step(&prev);
        let rtl = match run.held.get(k) {
            Some(h) => {
                if h.inputs != inputs || h.model != model_out || h.model_regs != model_regs {
                    return Err(SurfError::Replay { cycle: k });
                }
                h.rtl.clone()
            }
            None if k == 0 => run.port0.clone(),
            None => Ports {
                out: model_out,
                undefined: Vec::new(),
            },
        };
        prev = rtl.out;
        if reg_diff.is_some() {
            continue;
        }
        let rtl_regs = dump(k, inputs.rst)?;
        rows.push(Row {
            cycle: Cycle {
                inputs,
                model: model_out,
                rtl,
                model_regs,
            },
            rtl_regs,
        });
        if rtl_regs != model_regs {
            reg_diff = Some(k);
        }
    }
    let at = match (run.port_mismatch, reg_diff) {
        (Some(p), Some(r)) => Some(p.min(r)),
        (p, r) => p.or(r),
    };
    Ok(Found { at, rows })
}

#[cfg(test)]
mod tests {
    //! The late-report logic without SURF or GHDL: an upstream that is the model itself, with a
    //! planted difference in its register dump (and, in some cases, in its ports).
    use super::super::lockstep::WAVEFORM_CYCLES_USIZE;
    use super::super::{conclude, scenario, Context, ModelRun};
    use super::*;

    /// A live run as [`super::super::lockstep`] keeps it: `held` the last cycles, cycle 0's ports;
    /// the upstream ports are the model's except a flipped `s_axis_tready` at `port_diff` (where
    /// the run stops). Also returns every cycle and the model's registers of every cycle, which
    /// the lockstep does not keep: the tests' expectations.
    struct Live {
        held: Window<Cycle>,
        port0: Ports,
        stepped: u64,
        port_mismatch: Option<u64>,
        all: Vec<Cycle>,
    }

    fn live(name: &str, seed: u64, cycles: u64, port_diff: Option<u64>) -> Live {
        let sc = scenario(name).unwrap();
        let mut side = ModelRun::new(&sc, seed);
        let mut held = Window::new(Some(WAVEFORM_CYCLES_USIZE));
        let (mut all, mut prev, mut port0) = (Vec::new(), Outputs::default(), Ports::default());
        let mut port_mismatch = None;
        for k in 0..cycles {
            let (inputs, model, model_regs) = side.step(&prev);
            let mut rtl = Ports {
                out: model,
                undefined: Vec::new(),
            };
            if port_diff == Some(k) {
                rtl.out.s_axis_tready = !rtl.out.s_axis_tready;
            }
            if k == 0 {
                port0 = rtl.clone();
            }
            prev = rtl.out;
            let c = Cycle {
                inputs,
                model,
                rtl,
                model_regs,
            };
            held.push(c.clone());
            all.push(c);
            if port_diff == Some(k) {
                port_mismatch = Some(k);
                break;
            }
        }
        Live {
            held,
            port0,
            stepped: all.len() as u64,
            port_mismatch,
            all,
        }
    }

    /// Runs the register comparison and the report on `l`, the dump being the model's registers
    /// with alpha changed in cycle `reg_diff`; writes the waveform window to `vcd`.
    fn report(
        l: &Live,
        name: &str,
        seed: u64,
        reg_diff: Option<u64>,
        vcd: &std::path::Path,
    ) -> (Found, Option<super::super::SurfMismatch>, u64, usize) {
        let sc = scenario(name).unwrap();
        let run = Run {
            stepped: l.stepped,
            held: &l.held,
            port0: &l.port0,
            port_mismatch: l.port_mismatch,
        };
        let mut reads = 0usize;
        let all = &l.all;
        let mut dump = |k: u64, rst: bool| {
            reads += 1;
            assert_eq!(rst, all[k as usize].inputs.rst, "cycle {k}");
            let mut r = all[k as usize].model_regs;
            if reg_diff == Some(k) {
                r.alpha ^= 0x10;
            }
            Ok(r)
        };
        let found = first_difference(
            &run,
            &mut ModelRun::new(&sc, seed),
            &mut dump,
            Some(WAVEFORM_CYCLES_USIZE),
        )
        .unwrap();
        let cx = Context {
            scenario: &sc,
            seed,
            commit: "0123456789abcdef0123456789abcdef01234567",
            replay: "dcqcn cosim --rtl surf --surf-dir S --scenario alpha-wrap --seed 1",
            upstream_run: std::path::Path::new("target/surf/k/runs/alpha-wrap-1-0"),
        };
        let (m, compared) = conclude(&found, l.stepped, &cx, Some((vcd, true))).unwrap();
        (found, m, compared, reads)
    }

    fn vcd_path(tag: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("dcqcn-surf-late-{}-{tag}.vcd", std::process::id()))
    }

    /// The waveform's clock timestamps: (first, last, count).
    fn stamps(path: &std::path::Path) -> (u64, u64, usize) {
        let text = std::fs::read_to_string(path).unwrap();
        let t: Vec<u64> = text
            .lines()
            .filter_map(|l| l.strip_prefix('#'))
            .map(|t| t.parse().unwrap())
            .collect();
        (t[0], t[t.len() - 1], t.len())
    }

    /// Checks a register-only mismatch at `r`: its fields, its history, its replay command, its
    /// JSON and the waveform of the 200 cycles up to it, all from cycles the run no longer held.
    fn check_register_mismatch(l: &Live, r: u64, tag: &str) {
        let vcd = vcd_path(tag);
        let _ = std::fs::remove_file(&vcd);
        let (found, m, compared, reads) = report(l, "alpha-wrap", 1, Some(r), &vcd);
        let m = m.expect("a mismatch");
        assert_eq!((found.at, m.cycle, compared), (Some(r), r, r));
        // The dump is read up to the difference, not beyond.
        assert_eq!(reads as u64, r + 1);
        assert!(found.rows.len() <= WAVEFORM_CYCLES_USIZE);
        assert_eq!(found.rows.end(), r + 1);
        let want = l.all[r as usize].model_regs.alpha;
        assert_eq!(m.fields.len(), 1, "{:?}", m.fields);
        let f = &m.fields[0];
        assert_eq!((f.field, f.block), ("alpha", "st"));
        assert_eq!(f.model, want.to_string());
        assert_eq!(f.rtl, (want ^ 0x10).to_string());
        // The history is the run's own cycles, inputs and model outputs as the run saw them.
        let from = r.saturating_sub(7);
        let cycles: Vec<u64> = m.history.iter().map(|h| h.cycle).collect();
        assert_eq!(cycles, (from..=r).collect::<Vec<_>>());
        for h in &m.history {
            let c = &l.all[h.cycle as usize];
            assert_eq!(h.inputs, c.inputs.describe(), "cycle {}", h.cycle);
            assert_eq!(h.outputs, c.model.describe(), "cycle {}", h.cycle);
        }
        assert!(
            m.replay.ends_with(&format!("--cycles {}", r + 1)),
            "{}",
            m.replay
        );
        assert!(m.report().contains(&format!("MISMATCH at cycle {r} ")));
        assert!(m
            .report()
            .contains("upstream run: target/surf/k/runs/alpha-wrap-1-0"));
        let j: serde_json::Value = serde_json::from_str(&m.to_json()).unwrap();
        assert_eq!(j["cycle"], r);
        assert_eq!(j["fields"][0]["field"], "alpha");
        // The waveform: cycles max(0, r - 199) ..= r, two timestamps per cycle.
        let first = r.saturating_sub(199);
        assert_eq!(
            stamps(&vcd),
            (
                first * 6_400,
                r * 6_400 + 3_200,
                2 * (r + 1 - first) as usize
            )
        );
        let _ = std::fs::remove_file(&vcd);
    }

    /// A register difference 5,000 cycles into a 6,000-cycle run without a port difference: the
    /// run holds cycles 5,800-5,999 only.
    #[test]
    fn late_register_mismatch_far_before_the_held_cycles() {
        let l = live("alpha-wrap", 1, 6_000, None);
        assert_eq!(l.held.first(), 5_800);
        check_register_mismatch(&l, 5_000, "far");
    }

    #[test]
    fn register_mismatch_at_cycle_0() {
        let l = live("alpha-wrap", 1, 6_000, None);
        check_register_mismatch(&l, 0, "zero");
    }

    #[test]
    fn register_mismatch_at_the_last_cycle() {
        let l = live("alpha-wrap", 1, 6_000, None);
        check_register_mismatch(&l, 5_999, "last");
    }

    /// A port difference at 3,000 and a register difference at 1,000: the register one is
    /// reported (the earlier), from the replay; and the replay is checked against the held cycles.
    #[test]
    fn earlier_register_mismatch_wins_over_a_later_port_mismatch() {
        let l = live("alpha-wrap", 1, 6_000, Some(3_000));
        assert_eq!((l.stepped, l.held.first()), (3_001, 2_801));
        check_register_mismatch(&l, 1_000, "port-later");
    }

    /// A port difference alone is reported at its cycle with the upstream ports as the run saw
    /// them (not the model's), and the registers compared up to it.
    #[test]
    fn port_mismatch_alone() {
        let l = live("alpha-wrap", 1, 6_000, Some(3_000));
        let vcd = vcd_path("port");
        let (found, m, compared, reads) = report(&l, "alpha-wrap", 1, None, &vcd);
        let m = m.unwrap();
        assert_eq!(
            (found.at, m.cycle, compared, reads),
            (Some(3_000), 3_000, 3_000, 3_001)
        );
        let names: Vec<&str> = m.fields.iter().map(|f| f.field).collect();
        assert_eq!(names, ["s_axis_tready"]);
        assert_eq!(stamps(&vcd), (2_801 * 6_400, 3_000 * 6_400 + 3_200, 400));
        let _ = std::fs::remove_file(&vcd);
    }

    /// No difference: no report, no waveform window, every cycle compared.
    #[test]
    fn no_mismatch() {
        let l = live("alpha-wrap", 1, 1_000, None);
        let vcd = vcd_path("none");
        let _ = std::fs::remove_file(&vcd);
        let (found, m, compared, reads) = report(&l, "alpha-wrap", 1, None, &vcd);
        assert!(m.is_none() && found.at.is_none());
        assert_eq!((compared, reads), (1_000, 1_000));
        assert!(!vcd.exists());
    }

    /// A replay that does not reproduce the run (here: a held cycle's inputs changed) is an
    /// internal error naming the cycle, not a report.
    #[test]
    fn a_replay_that_differs_from_the_run_is_an_error() {
        let mut l = live("alpha-wrap", 1, 1_000, None);
        let mut held = Window::new(Some(WAVEFORM_CYCLES_USIZE));
        for (k, c) in l.all.iter().enumerate() {
            let mut c = c.clone();
            if k == 900 {
                c.inputs.cnp = !c.inputs.cnp;
            }
            held.push(c);
        }
        l.held = held;
        let sc = scenario("alpha-wrap").unwrap();
        let run = Run {
            stepped: l.stepped,
            held: &l.held,
            port0: &l.port0,
            port_mismatch: None,
        };
        let all = &l.all;
        let e = first_difference(
            &run,
            &mut ModelRun::new(&sc, 1),
            &mut |k, _| Ok(all[k as usize].model_regs),
            Some(WAVEFORM_CYCLES_USIZE),
        )
        .unwrap_err();
        assert!(matches!(e, SurfError::Replay { cycle: 900 }), "{e}");
    }

    #[test]
    fn window_indexing() {
        let mut w = Window::new(Some(3));
        assert!(w.get(0).is_none() && w.is_empty());
        for k in 0..10u64 {
            w.push(k);
        }
        assert_eq!((w.first(), w.end(), w.len()), (7, 10, 3));
        assert_eq!(
            (w.get(6), w.get(7), w.get(9), w.get(10)),
            (None, Some(&7), Some(&9), None)
        );
        assert_eq!(w.get(u64::MAX), None);
        let mut all = Window::new(None);
        for k in 0..1_000u64 {
            all.push(k);
        }
        assert_eq!(
            (all.first(), all.get(0), all.get(999)),
            (0, Some(&0), Some(&999))
        );
    }
}
