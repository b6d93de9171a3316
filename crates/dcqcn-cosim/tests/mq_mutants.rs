//! Proof that the multi-QP lockstep catches bugs (docs/spec-mq.md 8): each deliberately defective
//! `dcqcn_mq_core` of verilator/mutants/mq/ (built at QPS 4 with feature `mutants`, build.rs
//! `mq_mutant_variants`) is reported at exactly the first cycle where its defect changes an
//! observed register or write, in the field the defect touches. Each defect exists twice, in the
//! SystemVerilog (`mut_mq_<name>`) and in the VHDL twin (`mut_mq_vhdl_<name>`), one per process:
//! the visit, the grant, the report and the register file. Both are checked against the same
//! prediction, and the correct RTL of each HDL passes the same run.
//!
//! The expected cycle is computed from the model alone: a predicate on the model's registers
//! before and after a cycle, its inputs and its writes, independently of the RTL.
#![cfg(feature = "mutants")]

use dcqcn_cosim::mq_lockstep::{run, MqMismatch, MqRunSpec};
use dcqcn_cosim::mq_rtl::mq_variants;
use dcqcn_model::mq::{MqBlock, MqInputs, MqObs, MqOutputs, MqParams, MqState};
use dcqcn_stim::mq::{by_name, MqBench, MqStimulus};
use dcqcn_stim::variant::Hdl;

/// The QPS the mutants are built at (build.rs `mq_mutant_variants`).
const QPS: u32 = 4;
const SEED: u64 = 7;
/// How far the model is searched for a defect's trigger.
const SEARCH: u64 = 200_000;

/// One model cycle t: S(t), the inputs of t, S(t + 1), and the observation of t (its writes).
type Pred = fn(&MqState, &MqInputs, &MqState, &MqObs) -> bool;

/// A built-in scenario's stimulus at QPS 4, changed by `tweak` (where a defect needs events the
/// scenario makes rarely).
fn stimulus(scenario: &str, tweak: Option<fn(&mut MqStimulus)>) -> MqStimulus {
    let mut s = (by_name(scenario)
        .expect("a built-in multi-QP scenario")
        .stimulus)(QPS);
    if let Some(f) = tweak {
        f(&mut s);
    }
    s
}

fn spec(stim: &Stim, hdl: Hdl, variant: Option<&str>, cycles: u64) -> MqRunSpec {
    let (scenario, tweak) = *stim;
    let target = variant.map_or_else(
        || format!("--hdl {} --qps {QPS}", hdl.name()),
        |v| format!("--variant {v}"),
    );
    MqRunSpec {
        scenario: scenario.into(),
        stimulus: stimulus(scenario, tweak),
        qps: QPS,
        hdl,
        variant: variant.map(String::from),
        seed: SEED,
        cycles,
        replay: format!(
            "dcqcn cosim --block mq {target} --scenario {scenario} --seed {SEED}{}",
            if tweak.is_some() {
                " (stimulus changed by tests/mq_mutants.rs)"
            } else {
                ""
            }
        ),
        plant: None,
        initial: None,
    }
}

/// A scenario by name and how its stimulus is changed.
type Stim = (&'static str, Option<fn(&mut MqStimulus)>);

/// The first cycle of the model's run of `stim` where `pred` holds.
fn first_cycle(stim: &Stim, pred: Pred) -> u64 {
    let mut model = MqBlock::new(MqParams::with_qps(QPS).unwrap());
    let mut bench = MqBench::new(&stimulus(stim.0, stim.1), QPS, SEED);
    let mut out = MqOutputs::default();
    for cycle in 0..SEARCH {
        let before = model.state().clone();
        let i = bench.next(&out);
        let (o, obs) = model.step_obs(&i);
        out = o;
        if pred(&before, &i, model.state(), &obs) {
            return cycle;
        }
    }
    panic!(
        "{}: the defect's trigger is not reached in {SEARCH} cycles",
        stim.0
    );
}

/// The defect `name` in both HDLs: caught at the first cycle where `pred` holds plus `offset`,
/// first field `field`; the correct RTL passes the same run.
fn check(name: &str, stim: Stim, field: &str, pred: Pred, offset: u64) {
    let expected = first_cycle(&stim, pred) + offset;
    for (hdl, variant) in [
        (Hdl::Sv, format!("mut_mq_{name}")),
        (Hdl::Vhdl, format!("mut_mq_vhdl_{name}")),
    ] {
        let m = caught(&stim, hdl, &variant, expected + 50);
        assert_eq!(
            m.cycle,
            expected,
            "{variant}: caught at cycle {}, predicted {expected}:\n{}",
            m.cycle,
            m.report()
        );
        assert_eq!(
            m.fields[0].field,
            field,
            "{variant}: first differing field:\n{}",
            m.report()
        );
        let ok = run(&spec(&stim, hdl, None, expected + 50), None).unwrap();
        assert!(
            ok.mismatch.is_none(),
            "the correct {} RTL fails the same run:\n{}",
            hdl.name(),
            ok.mismatch.unwrap().report()
        );
        eprintln!("{variant}: caught at cycle {expected} (predicted), first field {field}");
    }
}

/// The mismatch of `variant` in a run of `cycles` cycles (the test fails without one).
fn caught(stim: &Stim, hdl: Hdl, variant: &str, cycles: u64) -> MqMismatch {
    assert!(
        mq_variants().iter().any(|v| v.name == variant),
        "{variant} is not built (verilator/mutants/mq/, feature `mutants`)"
    );
    run(&spec(stim, hdl, Some(variant), cycles), None)
        .unwrap()
        .mismatch
        .unwrap_or_else(|| panic!("{variant} passed {} ({cycles} cycles)", stim.0))
}

/// Report process (spec-mq 4.6): a report in the init round is dropped, rx_bytes' = 0; the mutant
/// takes its bytes. Visible in S(t + 1) after the first such report with bytes != 0. At QPS 4 the
/// init round is 4 cycles, and `mq-bad-qp`'s spurious reports (1 %) almost never fall into one
/// (not in 200k cycles of seed 7): here they are drawn every other cycle.
#[test]
fn rpt_bytes_in_init() {
    check(
        "rpt_bytes_in_init",
        ("mq-bad-qp", Some(|s| s.spurious = 0.5)),
        "state.rx_bytes",
        |s, i, _, _| {
            s.scan.init && !i.rst && i.rpt.valid && u32::from(i.rpt.qp) < QPS && i.rpt.bytes != 0
        },
        1,
    );
}

/// Register file (spec-mq 6.2): cnt_rpt_spurious counts the dropped requests instead of the
/// spurious reports. Visible in S(t + 1) after the first cycle (no reset, no counter clear) whose
/// numbers of the two events differ.
#[test]
fn spurious_counts_drops() {
    check(
        "spurious_counts_drops",
        ("mq-bad-qp", None),
        "state.cnt_rpt_spurious",
        |s, i, n, _| {
            let drops = n
                .regs
                .cnt
                .cnt_req_drop
                .wrapping_sub(s.regs.cnt.cnt_req_drop);
            let spur = n
                .regs
                .cnt
                .cnt_rpt_spurious
                .wrapping_sub(s.regs.cnt.cnt_rpt_spurious);
            !i.rst && drops <= 1 && spur <= 1 && drops != spur
        },
        1,
    );
}

/// Visit (spec-mq 5.4 step 3): a decrease sets alpha to alpha (1 - G) + G; the mutant leaves out
/// + G. Visible in the visit's record write (wv) in the cycle of the first decrease with G != 0.
#[test]
fn visit_dec_alpha_no_g() {
    check(
        "visit_dec_alpha_no_g",
        ("mq-cnp-storm", None),
        "write.wv.alpha",
        |s, i, n, _| {
            !i.rst && s.regs.cfg.upd_alpha_g != 0 && n.regs.cnt.cnt_dec == s.regs.cnt.cnt_dec + 1
        },
        0,
    );
}

/// Grant process (spec-mq 4.5): the speed limiter charges 1024 x bytes per executed grant; the
/// mutant 512 x bytes. Visible in S(t + 1) (pcredit) after the first executed grant with the
/// limiter on.
#[test]
fn grant_limiter_half_charge() {
    check(
        "grant_limiter_half_charge",
        ("mq-incast", None),
        "state.pcredit",
        |s, i, n, _| {
            !i.rst && s.regs.cfg.speed_limiter_en && n.grant.g_valid && n.grant.g_bytes != 0
        },
        1,
    );
}
