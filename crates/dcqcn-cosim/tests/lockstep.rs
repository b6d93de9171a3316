//! Every built-in scenario runs model vs RTL with zero mismatches (shortened; `make cosim` runs the
//! full lengths), runs are repeatable to the cycle, and the harness refuses bad variants.

use dcqcn_cosim::lockstep::{self, Tracer};
use dcqcn_cosim::rtl::{self, Rtl};
use dcqcn_cosim::CosimError;
use dcqcn_model::snapshot::{FieldValue, FIELDS};
use dcqcn_model::{Config, Inputs, Snapshot};
use dcqcn_stim::coverage::{self, Coverage};
use dcqcn_stim::golden;
use dcqcn_stim::inject;
use dcqcn_stim::run::{run_model, RunSpec, RunStats};
use dcqcn_stim::scenario::{self, Scenario};
use dcqcn_stim::variant::{self, Hdl};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use sha2::{Digest, Sha256};

const CYCLES: u64 = 400_000;
/// The VHDL twin's share of `make test` (`make cosim HDL=vhdl` runs the full lengths).
const CYCLES_VHDL: u64 = 100_000;

fn spec(sc: &Scenario, cycles: u64) -> RunSpec {
    RunSpec {
        scenario: sc.name.into(),
        params: sc.params(),
        stimulus: sc.stimulus.clone(),
        seed: 11,
        cycles,
        variant: variant::width_variant(sc.data_bytes),
        replay: format!("dcqcn cosim --scenario {} --seed 11", sc.name),
        rtl_init_seed: 0,
        initial_state: None,
    }
}

#[test]
fn every_scenario_matches_cycle_for_cycle() {
    every_scenario_matches(Hdl::Sv, CYCLES);
}

#[test]
fn every_scenario_matches_cycle_for_cycle_on_the_vhdl_twin() {
    every_scenario_matches(Hdl::Vhdl, CYCLES_VHDL);
}

fn every_scenario_matches(hdl: Hdl, cycles: u64) {
    for sc in scenario::builtin() {
        let mut spec = spec(&sc, cycles);
        spec.variant = hdl.width_variant(sc.data_bytes);
        let o = lockstep::run(&spec, None).unwrap();
        if let Some(m) = &o.mismatch {
            panic!("{}", m.report());
        }
        let s = o.stats;
        assert_eq!(s.cycles, cycles, "{}", sc.name);
        // The scenario really exercises the block (a run where nothing happens proves nothing).
        assert!(s.beats > 1_000, "{}: {} beats", sc.name, s.beats);
        assert!(s.cnps > 0 && s.decreases > 0, "{}: {s:?}", sc.name);
    }
}

/// The base configuration (spec 2: no rate rules, control schemes or trace) on both HDLs: every
/// 8-byte scenario, those that program the absent features included (their words answer DECERR
/// on both sides and the block runs as with them at reset).
#[test]
fn every_8_byte_scenario_matches_on_the_base_configuration() {
    use dcqcn_model::Features;
    use dcqcn_stim::variant::Build;
    for hdl in [Hdl::Sv, Hdl::Vhdl] {
        let v = hdl.build_variant(8, Build::Base);
        let info = rtl::variants().into_iter().find(|x| x.name == v).unwrap();
        assert_eq!(info.features, Features::BASE, "{v}");
        let cycles = if hdl == Hdl::Sv { 100_000 } else { 40_000 };
        for sc in scenario::builtin()
            .into_iter()
            .filter(|s| s.data_bytes == 8)
        {
            let mut spec = spec(&sc, cycles);
            spec.variant = v.clone();
            spec.params = info.params().unwrap();
            let o = lockstep::run(&spec, None).unwrap();
            if let Some(m) = &o.mismatch {
                panic!("{}", m.report());
            }
            assert_eq!(o.stats.cycles, cycles, "{v} {}", sc.name);
            // the run exercises the block (traffic, CNPs, decreases), as the full suite's test asks
            let st = o.stats;
            assert!(
                st.beats > 0 && st.cnps > 0 && st.decreases > 0,
                "{v} {}: {st:?}",
                sc.name
            );
        }
    }
}

#[test]
fn a_run_whose_model_has_other_features_than_the_variant_is_an_error() {
    let sc = scenario::by_name("paper-table2").unwrap();
    let mut s = spec(&sc, 10);
    s.variant = "w8-base".into();
    let e = lockstep::run(&s, None).unwrap_err();
    assert!(
        e.to_string()
            .contains("is built with the features base but the run's model has full"),
        "{e}"
    );
}

#[test]
fn variants_cover_the_three_beat_widths_in_both_hdls() {
    let names: Vec<String> = rtl::variants().into_iter().map(|v| v.name).collect();
    for w in ["w8", "w32", "w64", "vhdl-w8", "vhdl-w32", "vhdl-w64"] {
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

/// Everything a run produces, in comparable form: a SHA-256 over every cycle's inputs, model
/// record and RTL record (every field of each), the full statistics (wall-clock time aside), the
/// coverage, and the mismatch report (text, with the model's last cycles, and JSON) if there is one.
#[derive(Debug, PartialEq)]
struct Fingerprint {
    cycles_traced: u64,
    per_cycle_sha256: String,
    stats: RunStats,
    coverage: Coverage,
    report: Option<String>,
    json: Option<String>,
}

impl Fingerprint {
    /// The parts that differ from `other`, named.
    fn differences(&self, other: &Fingerprint) -> Vec<String> {
        let mut d = Vec::new();
        let mut part =
            |name: &str, same: bool, a: &dyn std::fmt::Debug, b: &dyn std::fmt::Debug| {
                if !same {
                    d.push(format!("{name}: {a:?} vs {b:?}"));
                }
            };
        part(
            "cycles traced",
            self.cycles_traced == other.cycles_traced,
            &self.cycles_traced,
            &other.cycles_traced,
        );
        part(
            "per-cycle hash (inputs, model, RTL)",
            self.per_cycle_sha256 == other.per_cycle_sha256,
            &self.per_cycle_sha256,
            &other.per_cycle_sha256,
        );
        part(
            "run statistics",
            self.stats == other.stats,
            &self.stats,
            &other.stats,
        );
        part(
            "coverage",
            self.coverage == other.coverage,
            &self.coverage.hits,
            &other.coverage.hits,
        );
        part(
            "mismatch report",
            self.report == other.report,
            &self.report,
            &other.report,
        );
        part(
            "mismatch JSON",
            self.json == other.json,
            &self.json,
            &other.json,
        );
        d
    }
}

/// Hashes every traced cycle.
struct CycleHasher {
    sha: Sha256,
    cycles: u64,
    data_bytes: u32,
}

impl CycleHasher {
    fn value(&mut self, v: FieldValue) {
        match v {
            FieldValue::Scalar(x) => self.sha.update(x.to_le_bytes()),
            FieldValue::Wide(w) => w.iter().for_each(|x| self.sha.update(x.to_le_bytes())),
        }
    }
}

impl Tracer for CycleHasher {
    fn cycle(&mut self, cycle: u64, inputs: &Inputs, model: &Snapshot, rtl: Option<&Snapshot>) {
        self.sha.update(cycle.to_le_bytes());
        // The inputs, then every field of the model's record.
        for v in golden::cycle_values(inputs, model, self.data_bytes) {
            v.iter().for_each(|x| self.sha.update(x.to_le_bytes()));
        }
        let rtl = rtl.expect("the lockstep traces the RTL");
        for k in 0..FIELDS.len() {
            self.value(rtl.value(k));
        }
        self.cycles += 1;
    }
}

fn fingerprint(spec: &RunSpec) -> Fingerprint {
    let mut h = CycleHasher {
        sha: Sha256::new(),
        cycles: 0,
        data_bytes: spec.params.data_bytes(),
    };
    let o = lockstep::run(spec, Some((&mut h, 0..u64::MAX))).unwrap();
    let (report, json) = match o.mismatch {
        Some(mut m) => {
            lockstep::explain(spec, &mut m, lockstep::HISTORY_CYCLES);
            (Some(m.report()), Some(serde_json::to_string(&m).unwrap()))
        }
        None => (None, None),
    };
    Fingerprint {
        cycles_traced: h.cycles,
        per_cycle_sha256: format!("{:x}", h.sha.finalize()),
        stats: RunStats {
            seconds: 0.0,
            ..o.stats
        },
        coverage: o.coverage,
        report,
        json,
    }
}

/// Two runs with the same seed produce the same everything, cycle by cycle; another seed produces
/// other stimulus.
#[test]
fn same_seed_same_run() {
    let sc = scenario::by_name("regs-midrun").unwrap();
    let a = fingerprint(&spec(&sc, 100_000));
    assert_eq!((a.cycles_traced, a.stats.cycles), (100_000, 100_000));
    assert!(a.report.is_none());
    let b = fingerprint(&spec(&sc, 100_000));
    let d = a.differences(&b);
    assert!(
        d.is_empty(),
        "two runs with seed 11 differ in\n{}",
        d.join("\n")
    );

    let other = fingerprint(&RunSpec {
        seed: 12,
        ..spec(&sc, 100_000)
    });
    assert_ne!(
        a.per_cycle_sha256, other.per_cycle_sha256,
        "seeds 11 and 12 give the same cycles"
    );
}

/// A failing run is as repeatable as a passing one: the same mismatch, report and JSON.
#[cfg(feature = "mutants")]
#[test]
fn same_seed_same_mismatch() {
    let sc = scenario::by_name("cnp-storm").unwrap();
    let s = RunSpec {
        variant: "mut_alpha_truncates".into(),
        ..spec(&sc, 1_000_000)
    };
    let a = fingerprint(&s);
    let report = a.report.as_deref().expect("the mutant mismatches");
    assert!(
        report.contains("MISMATCH at cycle") && report.contains("last cycles"),
        "{report}"
    );
    assert_eq!(a.cycles_traced, a.stats.cycles);
    let d = a.differences(&fingerprint(&s));
    assert!(
        d.is_empty(),
        "two failing runs with seed 11 differ in\n{}",
        d.join("\n")
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
    let mut cov = coverage::Coverage::new();
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
    assert_eq!(cov.covered(), coverage::BINS.len(), "\n{}", cov.table());
}

/// Injected trace states (`dcqcn_stim::inject::state`), the storage included, run in lockstep on `w8` with the trace armed:
/// every entry the read-out shows and every entry the window records is compared (the
/// scenario's random AXI4-Lite accesses select and read entries and write 0x170 and 0x180).
#[test]
fn injected_trace_states_run_in_lockstep() {
    let sc = scenario::by_name("cnp-storm").unwrap();
    let p = sc.params();
    let mut runner = TestRunner::deterministic();
    let (mut recorded, mut shown) = (0u32, 0u32);
    for k in 0..40u64 {
        let cfg = Config {
            trace_en: true,
            trace_wrap: k % 2 == 1,
            trace_sel: (k * 7 % 64) as u8,
            ..sc.stimulus.config
        };
        let s = inject::state(cfg, p)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let mut stimulus = sc.stimulus.clone();
        stimulus.config = cfg;
        stimulus.resets.initial_cycles = 0;
        let run = RunSpec {
            scenario: sc.name.into(),
            params: p,
            stimulus,
            seed: k,
            cycles: 3_000,
            variant: "w8".into(),
            replay: format!("injected trace state {k}"),
            rtl_init_seed: k + 1,
            initial_state: Some(s.to_state(cfg)),
        };
        let o = lockstep::run(&run, None).unwrap();
        assert!(o.mismatch.is_none(), "{}", o.mismatch.unwrap().report());
        let mut m = run.model();
        let before = m.trace().wptr;
        run_model(&run, |_, _, _, mm| m = mm.clone());
        recorded += u32::from(m.trace().wptr != before);
        shown += u32::from(s.trace_count > 0);
    }
    // not vacuous: windows that were not empty, and runs that recorded entries
    assert!(recorded >= 10 && shown >= 10, "{recorded} {shown}");
}
