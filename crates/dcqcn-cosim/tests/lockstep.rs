//! Every built-in scenario runs model vs RTL with zero mismatches (shortened; `make cosim` runs the
//! full lengths), and the harness refuses bad variants.

use dcqcn_cosim::lockstep::{self, RunSpec};
use dcqcn_cosim::rtl::{self, Rtl};
use dcqcn_cosim::scenario::{self, Scenario};
use dcqcn_cosim::CosimError;

const CYCLES: u64 = 400_000;

fn spec(sc: &Scenario, cycles: u64) -> RunSpec {
    RunSpec {
        scenario: sc.name.into(),
        params: sc.params(),
        stimulus: sc.stimulus.clone(),
        seed: 11,
        cycles,
        variant: rtl::width_variant(sc.data_bytes),
        replay: format!("dcqcn cosim --scenario {} --seed 11", sc.name),
        rtl_init_seed: 0,
    }
}

#[test]
fn every_scenario_matches_cycle_for_cycle() {
    for sc in scenario::builtin() {
        let o = lockstep::run(&spec(&sc, CYCLES), None).unwrap();
        if let Some(m) = &o.mismatch {
            panic!("{}", m.report());
        }
        let s = o.stats;
        assert_eq!(s.cycles, CYCLES, "{}", sc.name);
        // The scenario really exercises the block (a run where nothing happens proves nothing).
        assert!(s.beats > 1_000, "{}: {} beats", sc.name, s.beats);
        assert!(s.cnps > 0 && s.decreases > 0, "{}: {s:?}", sc.name);
    }
}

#[test]
fn variants_cover_the_three_beat_widths() {
    let names: Vec<String> = rtl::variants().into_iter().map(|v| v.name).collect();
    for w in ["w8", "w32", "w64"] {
        assert!(names.iter().any(|n| n == w), "{names:?}");
    }
}

#[test]
fn unknown_variant_and_width_mismatch_are_errors() {
    match Rtl::new("w7") {
        Err(CosimError::UnknownVariant { name, known }) => {
            assert_eq!(name, "w7");
            assert!(known.contains(&"w8".to_string()));
        }
        Err(e) => panic!("wrong error {e}"),
        Ok(_) => panic!("w7 is not a variant"),
    }
    let sc = scenario::by_name("paper-table2").unwrap();
    let mut s = spec(&sc, 10);
    s.variant = "w32".into();
    let e = lockstep::run(&s, None).unwrap_err();
    assert!(
        e.to_string()
            .contains("32-byte beats but the scenario uses 8-byte beats"),
        "{e}"
    );
}

#[test]
fn same_seed_same_run() {
    let sc = scenario::by_name("regs-midrun").unwrap();
    let a = lockstep::run(&spec(&sc, 100_000), None).unwrap().stats;
    let b = lockstep::run(&spec(&sc, 100_000), None).unwrap().stats;
    assert_eq!(
        (a.beats, a.cnps, a.decreases, a.axil_reads),
        (b.beats, b.cnps, b.decreases, b.axil_reads)
    );
}

/// With random initial register values the reset still brings the RTL to the model's state: every
/// register is reset (several seeds, every scenario's beat width).
#[test]
fn random_initial_values_are_all_reset() {
    for sc in scenario::builtin() {
        for init in [1u64, 0xDEAD_BEEF, u64::MAX] {
            let s = RunSpec {
                rtl_init_seed: init,
                ..spec(&sc, 20_000)
            };
            if let Some(m) = lockstep::run(&s, None).unwrap().mismatch {
                panic!("init seed {init}\n{}", m.report());
            }
        }
    }
}

/// `make cosim`'s claim, checked in CI: the full default suite matches on every cycle and reaches
/// every functional-coverage bin.
#[test]
fn default_suite_matches_and_reaches_every_coverage_bin() {
    let mut cov = dcqcn_cosim::coverage::Coverage::new();
    let mut cycles = 0;
    for sc in scenario::default_suite() {
        let o = lockstep::run(&spec(&sc, sc.default_cycles), None).unwrap();
        if let Some(m) = &o.mismatch {
            panic!("{}", m.report());
        }
        cycles += o.stats.cycles;
        cov.merge(&o.coverage);
    }
    assert!(cycles >= 50_000_000);
    assert_eq!(
        cov.covered(),
        dcqcn_cosim::coverage::BINS.len(),
        "\n{}",
        cov.table()
    );
}
