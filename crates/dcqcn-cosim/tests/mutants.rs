//! Proof that the lockstep catches bugs: each deliberately defective RTL variant
//! (verilator/mutants/*.toml) is reported at exactly the first cycle where its defect changes an
//! output or a register, in the field the defect touches. Each defect exists twice, in the
//! SystemVerilog (`mut_<name>`) and in the VHDL twin (`mut_vhdl_<name>`); both are checked against
//! the same prediction.
//!
//! The expected cycle is computed from the model alone (a predicate on the registers before the
//! cycle, its inputs and its events), independently of the RTL.
#![cfg(feature = "mutants")]

use dcqcn_cosim::fuzz;
use dcqcn_cosim::lockstep;
use dcqcn_model::alpha::update;
use dcqcn_model::{Config, CycleEvents, Inputs, Params, State};
use dcqcn_stim::fuzz::{load_case, save_case};
use dcqcn_stim::run::{run_model, RunSpec};
use dcqcn_stim::scenario;
use dcqcn_stim::stimulus::{CnpSpec, StimulusSpec};

type Pred = fn(&State, &Inputs, &CycleEvents) -> bool;

fn spec(scenario_name: &str, variant: &str, cycles: u64) -> RunSpec {
    let sc = scenario::by_name(scenario_name).unwrap();
    RunSpec {
        scenario: sc.name.into(),
        params: sc.params(),
        stimulus: sc.stimulus.clone(),
        seed: 5,
        cycles,
        variant: variant.into(),
        replay: format!("dcqcn cosim --scenario {scenario_name} --seed 5 --variant {variant}"),
        rtl_init_seed: 0,
        initial_state: None,
    }
}

/// First cycle of the model run where `pred` holds.
fn first_cycle(s: &RunSpec, pred: Pred) -> u64 {
    let mut before = *s.model().state();
    let mut found = None;
    run_model(s, |c, i, _, m| {
        if found.is_none() && pred(&before, i, m.events()) {
            found = Some(c);
        }
        before = *m.state();
    });
    found.expect("the scenario reaches the defect's trigger")
}

/// The defect `name` in both HDLs: `mut_<name>` (correct RTL `w8`) and `mut_vhdl_<name>` (correct
/// RTL `vhdl-w8`).
fn check(name: &str, scenario_name: &str, field: &str, pred: Pred, offset: i64) {
    let _ = check_variant(
        &format!("mut_{name}"),
        "w8",
        scenario_name,
        field,
        pred,
        offset,
    );
    let _ = check_variant(
        &format!("mut_vhdl_{name}"),
        "vhdl-w8",
        scenario_name,
        field,
        pred,
        offset,
    );
}

/// The run of `variant` mismatches first at the predicted cycle, with `field` among the fields,
/// and `correct` passes the same run; returns the mismatch.
fn check_variant(
    variant: &str,
    correct: &str,
    scenario_name: &str,
    field: &str,
    pred: Pred,
    offset: i64,
) -> lockstep::Mismatch {
    let probe = spec(scenario_name, variant, 2_000_000);
    let expected = (first_cycle(&probe, pred) as i64 + offset) as u64;
    let run = spec(scenario_name, variant, expected + 1_000);
    let o = lockstep::run(&run, None).unwrap();
    let m = o
        .mismatch
        .unwrap_or_else(|| panic!("{variant}: no mismatch reported"));
    assert_eq!(
        m.cycle,
        expected,
        "{variant}: first mismatch cycle\n{}",
        m.report()
    );
    let fields: Vec<&str> = m.fields.iter().map(|f| f.field).collect();
    assert!(
        fields.contains(&field),
        "{variant}: fields {fields:?} should include {field}"
    );
    assert!(
        m.replay.contains(&format!("--variant {variant}"))
            && m.replay.ends_with(&format!("--cycles {}", expected + 1))
    );
    // The same run on the correct RTL passes.
    let good = RunSpec {
        variant: correct.into(),
        ..run
    };
    assert!(
        lockstep::run(&good, None).unwrap().mismatch.is_none(),
        "{variant}: the correct RTL mismatches too"
    );
    m
}

#[test]
fn timer_off_by_one_is_caught_when_the_timer_fires() {
    check(
        "inc_timer_late",
        "cnp-storm",
        "inc_timer",
        |_, _, e| e.timer_fire && !e.dec_fire,
        0,
    );
}

#[test]
fn wrong_rounding_is_caught_at_the_first_alpha_update_it_changes() {
    check(
        "alpha_truncates",
        "cnp-storm",
        "alpha",
        |s, _, e| {
            if !e.alpha_fire {
                return false;
            }
            let c = &s.regs.cfg;
            let pend = s.alpha.alpha_pending || (e.cnp_edge && !c.bypass && s.active);
            let g = u32::from(c.alpha_g);
            let t = (u32::from(s.alpha.alpha) * g) >> 10;
            let truncated = if pend { (t + 1024 - g).min(1023) } else { t } as u16;
            truncated != update(s.alpha.alpha, c.alpha_g, pend)
        },
        0,
    );
}

#[test]
fn swapped_pending_priority_is_caught_at_the_first_cnp_served_at_once() {
    check(
        "pending_set_loses",
        "cnp-storm",
        "dec_pending",
        |s, _, e| e.cnp_edge && !s.regs.cfg.bypass && e.dec_fire,
        0,
    );
}

#[test]
fn strict_gate_is_caught_when_credit_equals_the_beat() {
    check(
        "gate_strict",
        "paper-table2",
        "s_axis_tready",
        |s, i, _| {
            !i.rst
                && !s.regs.cfg.bypass
                && (!s.gate.m_valid || i.m_axis_tready)
                && s.gate.credit == u64::from(i.s_axis.tkeep.count_ones()) << 16
        },
        0,
    );
}

/// spec 4.9: the first cycle of an unthrottled scheme (2 or 3) holds the credit at 0 and opens
/// the gate; a block that ignores scheme bit 1 keeps the credit it accumulates.
#[test]
fn lost_scheme_bit_is_caught_in_the_first_unthrottled_cycle() {
    check(
        "ungated_bypass_only",
        "schemes",
        "credit",
        |s, i, _| !i.rst && !s.regs.cfg.bypass && s.regs.cfg.scheme & 2 != 0,
        0,
    );
}

#[test]
fn early_cnp_edge_is_caught_one_cycle_before_the_model_sees_the_cnp() {
    check(
        "cnp_edge_early",
        "paper-table2",
        "cnt_cnp",
        |_, _, e| e.cnp_edge,
        -1,
    );
}

#[test]
fn missing_reset_is_caught_with_random_initial_values() {
    // All registers starting at 0 hide it: the counter's power-up value equals its reset value.
    let zero = spec("paper-table2", "mut_cnt_stall_no_reset", 50_000);
    assert!(
        lockstep::run(&zero, None).unwrap().mismatch.is_none(),
        "zero init cannot see a missing reset"
    );
    // Random initial values expose it at the first clock edge, in that register only.
    let random = RunSpec {
        rtl_init_seed: 7,
        ..zero
    };
    let m = lockstep::run(&random, None)
        .unwrap()
        .mismatch
        .expect("missing reset caught");
    assert_eq!(m.cycle, 0, "{}", m.report());
    let fields: Vec<&str> = m.fields.iter().map(|f| f.field).collect();
    assert_eq!(fields, ["cnt_stall"]);
}

/// The VHDL twin's registers start at their declared initial values (REG_INIT_C; GHDL synthesis
/// keeps them), so random power-up values cannot show its missing reset; a reset after the counter
/// has moved does, at exactly that reset's cycle, in that register only.
#[test]
fn missing_reset_in_the_vhdl_twin_is_caught_at_the_first_reset_after_a_stall() {
    let m = check_variant(
        "mut_vhdl_cnt_stall_no_reset",
        "vhdl-w8",
        "reset-midframe",
        "cnt_stall",
        |s, i, _| i.rst && s.regs.cnt.cnt_stall != 0,
        0,
    );
    let fields: Vec<&str> = m.fields.iter().map(|f| f.field).collect();
    assert_eq!(fields, ["cnt_stall"]);
}

/// spec 4.10: with the trace armed and `trace_wrap` = 0 the window keeps the first 64 events; a
/// window that counts as full at 63 drops the 64th, so `trace_count` stays at 63 in the cycle the
/// model records it. Checked on the SystemVerilog mutant and on the VHDL twin's copy
/// (`vhdl-trace-window-63.toml`).
#[test]
fn short_trace_window_is_caught_at_the_64th_event() {
    let armed = |variant: &str, cycles: u64| {
        let mut r = spec("cnp-storm", variant, cycles);
        r.stimulus.config.trace_en = true;
        r.stimulus.config.trace_wrap = false;
        r.replay = format!("{} (trace armed, first 64 events kept)", r.replay);
        r
    };
    for (variant, good) in [
        ("mut_trace_window_63", "w8"),
        ("mut_vhdl_trace_window_63", "vhdl-w8"),
    ] {
        let pred: Pred = |s, i, e| {
            !i.rst
                && s.regs.cfg.trace_en
                && !s.regs.cfg.trace_wrap
                && s.regs.trace.count == 63
                && (e.dec_fire || e.inc.is_some())
        };
        let expected = first_cycle(&armed(variant, 2_000_000), pred);
        let run = armed(variant, expected + 1_000);
        let m = lockstep::run(&run, None)
            .unwrap()
            .mismatch
            .unwrap_or_else(|| panic!("{variant}: no mismatch reported"));
        assert_eq!(m.cycle, expected, "{variant}\n{}", m.report());
        let fields: Vec<&str> = m.fields.iter().map(|f| f.field).collect();
        assert!(
            fields.contains(&"trace_count") && fields.contains(&"trace_lost"),
            "{variant}: fields {fields:?}"
        );
        // the same run on the correct RTL passes
        let good = RunSpec {
            variant: good.into(),
            ..run
        };
        let o = lockstep::run(&good, None).unwrap();
        assert!(
            o.mismatch.is_none(),
            "{}: {:?}",
            good.variant,
            o.mismatch.map(|m| m.report())
        );
    }
}

#[test]
fn every_mutant_has_a_test() {
    let compiled: Vec<String> = dcqcn_cosim::rtl::variants()
        .into_iter()
        .map(|v| v.name)
        .filter(|n| n.starts_with("mut_"))
        .collect();
    let tested = [
        "mut_inc_timer_late",
        "mut_alpha_truncates",
        "mut_pending_set_loses",
        "mut_gate_strict",
        "mut_cnp_edge_early",
        "mut_cnt_stall_no_reset",
        "mut_vhdl_inc_timer_late",
        "mut_vhdl_alpha_truncates",
        "mut_vhdl_pending_set_loses",
        "mut_vhdl_gate_strict",
        "mut_vhdl_cnp_edge_early",
        "mut_vhdl_cnt_stall_no_reset",
        "mut_byte_cnt_wraps",
        "mut_credit_top_bit",
        "mut_vhdl_byte_cnt_wraps",
        "mut_vhdl_credit_top_bit",
        "mut_ungated_bypass_only",
        "mut_vhdl_ungated_bypass_only",
        "mut_trace_window_63",
        "mut_vhdl_trace_window_63",
    ];
    let mut c = compiled.clone();
    c.sort();
    let mut t: Vec<String> = tested.iter().map(|s| s.to_string()).collect();
    t.sort();
    assert_eq!(c, t);
    let _ = Params::DEFAULT;
}

/// A run from `initial` (spec 4.8) on `variant`: the scenario's stimulus with configuration
/// `cfg`, no CNPs, no initial reset.
fn injected(
    scenario_name: &str,
    variant: &str,
    cfg: Config,
    initial: State,
    cycles: u64,
) -> RunSpec {
    let sc = scenario::by_name(scenario_name).unwrap();
    let mut stimulus = StimulusSpec {
        config: cfg,
        cnp: CnpSpec::None,
        ..sc.stimulus.clone()
    };
    stimulus.resets.initial_cycles = 0;
    RunSpec {
        stimulus,
        cycles,
        variant: variant.into(),
        initial_state: Some(State {
            regs: dcqcn_model::regs::Regs {
                cfg,
                ..initial.regs
            },
            ..initial
        }),
        ..spec(scenario_name, variant, cycles)
    }
}

/// The scenario as it is (its CNPs, its initial reset) with the injected run's configuration, from
/// reset.
fn from_reset(scenario_name: &str, run: &RunSpec, cycles: u64) -> RunSpec {
    let mut r = spec(scenario_name, &run.variant, cycles);
    r.stimulus.config = run.stimulus.config;
    r
}

/// The defect `name` in both HDLs, in a corner a run from reset does not reach in `reset_cycles`:
/// from the injected state it is caught at the cycle `pred` predicts (in `field`, the correct RTL
/// passing), and the scenario from reset with the same configuration runs `reset_cycles` without
/// a mismatch.
fn check_injected(
    name: &str,
    scenario_name: &str,
    run: impl Fn(&str) -> RunSpec,
    field: &str,
    pred: Pred,
    reset_cycles: u64,
) {
    for (variant, correct) in [
        (format!("mut_{name}"), "w8"),
        (format!("mut_vhdl_{name}"), "vhdl-w8"),
    ] {
        let probe = run(&variant);
        let expected = first_cycle(&probe, pred);
        let m = lockstep::run(&probe, None)
            .unwrap()
            .mismatch
            .unwrap_or_else(|| panic!("{variant}: no mismatch from the injected state"));
        assert_eq!(m.cycle, expected, "{variant}\n{}", m.report());
        assert!(
            m.fields.iter().any(|f| f.field == field),
            "{variant}: {field} not among\n{}",
            m.report()
        );
        let good = RunSpec {
            variant: correct.into(),
            ..probe.clone()
        };
        let o = lockstep::run(&good, None).unwrap();
        assert!(
            o.mismatch.is_none(),
            "{correct}: {:?}",
            o.mismatch.map(|m| m.report())
        );
        let o = lockstep::run(&from_reset(scenario_name, &probe, reset_cycles), None).unwrap();
        assert!(
            o.mismatch.is_none(),
            "{variant}: caught from reset too, so the corner is not out of reach"
        );
    }
}

#[test]
fn byte_counter_saturation_is_caught_from_an_injected_state_only() {
    let p = Params::DEFAULT;
    // byte trigger on with the largest threshold (it never fires), saturating traffic
    let cfg = Config {
        byte_en: true,
        byte_threshold: u32::MAX,
        ..Config::paper_table2(&p)
    };
    let mut s = State::reset(&p);
    s.active = true;
    s.inc.byte_cnt = u32::MAX - 20;
    check_injected(
        "byte_cnt_wraps",
        "byte-counter",
        |v| injected("byte-counter", v, cfg, s, 2_000),
        "byte_cnt",
        |s, _, e| {
            s.active
                && s.regs.cfg.byte_en
                && !s.regs.cfg.bypass
                && !e.dec_fire
                && !e.byte_fire
                && u64::from(s.inc.byte_cnt) + u64::from(e.bytes_in) > u64::from(u32::MAX)
        },
        200_000,
    );
}

#[test]
fn credit_top_bit_is_caught_from_an_injected_state_only() {
    let p = Params::DEFAULT;
    // the largest cap: from reset the credit could grow to 2^32 bytes, at 8 bytes per cycle
    let cfg = Config {
        credit_cap: u32::MAX,
        ..Config::paper_table2(&p)
    };
    // bit 47 set, and still set after a beat is charged (the next edge drops it in the mutant)
    let mut s = State::reset(&p);
    s.gate.credit = (1 << 47) + (1 << 20);
    check_injected(
        "credit_top_bit",
        "paper-table2",
        |v| injected("paper-table2", v, cfg, s, 2_000),
        "credit",
        |s, _, e| {
            !s.regs.cfg.bypass && (s.gate.credit - (u64::from(e.bytes_in) << 16)) >> 47 & 1 == 1
        },
        200_000,
    );
}

/// The minimal cases the fuzzer found against each mutant (saved in tests/fuzz-regressions as
/// `mutant-<name>.json`, replayed on the correct RTL by tests/fuzz.rs and checked in as golden
/// sets) still tell that mutant apart: on it, each one mismatches; and on the same defect in the
/// VHDL twin, except the missing reset: that case is one cycle from random power-up values, and the
/// twin's registers start at their declared initial values (see the test above).
#[test]
fn saved_minimal_cases_still_catch_their_mutants() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-regressions");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let Some(mutant) = stem.strip_prefix("mutant-") else {
            continue;
        };
        let saved = load_case(&path).unwrap();
        let name = mutant.replace('-', "_");
        for (variant, caught) in [
            (format!("mut_{name}"), true),
            (format!("mut_vhdl_{name}"), name != "cnt_stall_no_reset"),
        ] {
            let spec = saved
                .case
                .run_spec(saved.cycles, Some(&variant), String::new())
                .unwrap();
            let o = lockstep::run(&spec, None).unwrap();
            assert_eq!(
                o.mismatch.is_some(),
                caught,
                "{} on {variant}",
                path.display()
            );
        }
        n += 1;
    }
    assert_eq!(n, 6, "one saved case per mutant");
}

fn scratch(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("dcqcn-mutants-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A saved case that fails replays with its report, and the mismatch artifacts are written: the
/// JSON report and, beside it, a waveform of the last 200 cycles with both sides; each one that
/// cannot be written is an error naming its file.
#[test]
fn failing_case_replays_and_writes_report_and_waveform() {
    let dir = scratch("artifacts");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fuzz-regressions/mutant-gate-strict.json");
    let mut saved = load_case(&src).unwrap();
    saved.variant = Some("mut_gate_strict".into());
    let case = dir.join("case.json");
    save_case(&case, &saved).unwrap();
    let r = fuzz::replay(&case).unwrap();
    let m = r.outcome.mismatch.expect("the case fails on its mutant");
    assert_eq!(m.variant, "mut_gate_strict");
    assert_eq!(
        m.history.len() as u64,
        (m.cycle + 1).min(lockstep::HISTORY_CYCLES)
    );
    let replay = format!("replay: dcqcn fuzz --replay {} --cycles", case.display());
    assert!(m.report().contains(&replay), "{}", m.report());

    let a = dcqcn_cosim::artifacts::write_mismatch_artifacts(
        &r.spec,
        &m,
        &fuzz::mismatch_report_path(&case),
    );
    let report = a.report.unwrap();
    assert_eq!(report, dir.join("case.mismatch.json"));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["cycle"], m.cycle);
    assert_eq!(json["variant"], "mut_gate_strict");
    let (vcd, cycles) = a.waveform.unwrap();
    assert_eq!(vcd, dir.join("case.mismatch.vcd"));
    assert_eq!(
        (*cycles.start(), *cycles.end()),
        (
            m.cycle.saturating_sub(lockstep::WAVEFORM_CYCLES - 1),
            m.cycle
        )
    );
    let text = std::fs::read_to_string(&vcd).unwrap();
    assert!(text.contains("$scope module model $end") && text.contains("$scope module rtl $end"));

    let a =
        dcqcn_cosim::artifacts::write_mismatch_artifacts(&r.spec, &m, &dir.join("missing/r.json"));
    let e = a.report.unwrap_err().to_string();
    assert!(e.contains("missing/r.json: cannot write report: "), "{e}");
    let e = a.waveform.unwrap_err().to_string();
    assert!(e.contains("missing/r.vcd: cannot write waveform: "), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}

/// A campaign against a mutant fails; its shrunk case is saved, and replaying the saved file gives
/// the same mismatch.
#[test]
fn campaign_failure_is_saved_and_replays() {
    let dir = scratch("campaign");
    let cfg = fuzz::CampaignCfg {
        cases: Some(8),
        seconds: None,
        seed: 1,
        cycles: 5_000,
        jobs: 2,
        variant: Some("mut_gate_strict".into()),
        hdl: Default::default(),
        inject: true,
    };
    let r = fuzz::campaign(&cfg, &|_, _, _| {}).unwrap();
    let f = r.failure.expect("the campaign finds the defect");
    let case = dir.join("case.json");
    let s = fuzz::save_failure(&f, cfg.variant.as_deref(), &case).unwrap();
    assert_eq!(s.saved.cycles, f.mismatch.cycle + 1);
    assert_eq!(s.saved.variant.as_deref(), Some("mut_gate_strict"));
    assert_eq!(load_case(&case).unwrap(), s.saved);
    assert_eq!(s.mismatch.replay, fuzz::replay_command(&case));
    assert!(!s.mismatch.history.is_empty());
    let m = fuzz::replay(&case)
        .unwrap()
        .outcome
        .mismatch
        .expect("the saved case fails again");
    assert_eq!((m.cycle, &m.fields), (f.mismatch.cycle, &f.mismatch.fields));
    let _ = std::fs::remove_dir_all(dir);
}
