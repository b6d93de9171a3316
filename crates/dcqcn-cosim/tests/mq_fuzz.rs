//! The multi-QP fuzz campaign (docs/spec-mq.md 8.3, 8.4) against the Verilated RTL, small: 20
//! cases at QPS 4 (one in four from an injected state) on the SystemVerilog and on the VHDL twin
//! with no mismatch, the same result whatever the thread count, injected cases alone on both
//! HDLs, and saved cases (injected ones too) that replay or are refused naming the field.

use dcqcn_cosim::fuzz::mq::{
    mq_campaign, mq_case_coverage, mq_replay, mq_run_spec, variant_of, MqCampaignCfg,
    MqCampaignResult, MqFailure,
};
use dcqcn_cosim::mq_lockstep;
use dcqcn_stim::fuzz::mq::{mq_case_at, save_mq_case, MqSavedCase, MQ_SAVED_CASE_FORMAT};
use dcqcn_stim::variant::Hdl;

const CASES: u64 = 20;
const CYCLES: u64 = 3_000;

fn campaign(hdl: Hdl, jobs: usize) -> Option<MqCampaignResult> {
    variant_of(hdl, 4)?;
    let cfg = MqCampaignCfg {
        cases: Some(CASES),
        seconds: None,
        seed: 11,
        cycles: CYCLES,
        jobs,
        hdl,
        qps: vec![4],
        variant: None,
        inject: true,
    };
    Some(mq_campaign(&cfg, &|_, _, _| {}).expect("the campaign runs"))
}

fn no_mismatch(r: &MqCampaignResult) {
    if let Some(MqFailure {
        index, mismatch, ..
    }) = &r.failure
    {
        panic!("case {index}: {}", mismatch.report());
    }
    assert_eq!(r.cases, CASES);
    assert_eq!(r.cycles, CASES * CYCLES);
    assert!(r.coverage.covered() > 20, "{}", r.coverage.table());
}

#[test]
fn twenty_cases_on_both_hdls_and_the_same_report_whatever_the_jobs() {
    let Some(sv1) = campaign(Hdl::Sv, 1) else {
        eprintln!("no SystemVerilog dcqcn_mq variant at QPS 4 is built: skipped");
        return;
    };
    no_mismatch(&sv1);
    let sv2 = campaign(Hdl::Sv, 2).expect("built");
    no_mismatch(&sv2);
    assert_eq!(sv1.coverage, sv2.coverage);
    assert_eq!(sv1.coverage.table(), sv2.coverage.table());
    assert_eq!((sv1.cases, sv1.cycles), (sv2.cases, sv2.cycles));
    if let Some(vhdl) = campaign(Hdl::Vhdl, 1) {
        no_mismatch(&vhdl);
        // the same cases, the same model: the same coverage on either HDL
        assert_eq!(vhdl.coverage, sv1.coverage);
    }
}

#[test]
fn a_saved_case_replays_and_a_bad_one_is_refused_by_field() {
    if variant_of(Hdl::Sv, 4).is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("dcqcn-mq-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("case.json");
    let saved = MqSavedCase {
        format: MQ_SAVED_CASE_FORMAT.into(),
        cycles: 2_000,
        variant: None,
        case: mq_case_at(3, 1, &[4]).unwrap(),
    };
    save_mq_case(&path, &saved).unwrap();
    let (back, spec, o) = mq_replay(&path).unwrap();
    assert_eq!(back, saved);
    assert_eq!(spec.qps, 4);
    assert!(o.mismatch.is_none());
    assert_eq!(o.stats.cycles, 2_000);
    // a QPS no variant is built at
    let mut bad = saved.clone();
    bad.case.qps = 3;
    // (an injected state of QPS 4 would be refused first, under `case.initial`)
    bad.case.initial = None;
    save_mq_case(&path, &bad).unwrap();
    let e = mq_replay(&path).unwrap_err().to_string();
    assert!(e.contains("case.qps"), "{e}");
    // a variant of another QPS
    let mut bad = saved.clone();
    bad.variant = variant_of(Hdl::Sv, 64).map(|v| v.name);
    if bad.variant.is_some() {
        save_mq_case(&path, &bad).unwrap();
        let e = mq_replay(&path).unwrap_err().to_string();
        assert!(e.contains("case.qps") && e.contains("64"), "{e}");
    }
    // an injected case replays from its saved state
    let mut inj = saved.clone();
    inj.case = (0..40)
        .map(|n| mq_case_at(3, n, &[4]).unwrap())
        .find(|c| c.initial.is_some())
        .expect("an injected case among 40");
    save_mq_case(&path, &inj).unwrap();
    let (back, spec, o) = mq_replay(&path).unwrap();
    assert_eq!(back, inj);
    assert_eq!(spec.initial, inj.case.initial);
    assert!(o.mismatch.is_none());
    std::fs::remove_dir_all(&dir).ok();
}

/// The first injected cases of a campaign at QPS 4 (spec-mq 8.3) run on both HDLs without a
/// mismatch, and their coverage, counted on the model from the same state, hits the two bins only
/// an injected state reaches.
#[test]
fn injected_cases_run_in_lockstep_on_both_hdls() {
    let cases: Vec<_> = (0..400)
        .map(|n| mq_case_at(11, n, &[4]).unwrap())
        .filter(|c| c.initial.is_some())
        .take(6)
        .collect();
    assert_eq!(cases.len(), 6);
    let mut hit = [false; 2];
    for c in &cases {
        let cov = mq_case_coverage(c, CYCLES).unwrap();
        for (k, b) in ["stamp_age_2_31", "window_read_and_write"]
            .iter()
            .enumerate()
        {
            hit[k] |= !cov.missed().contains(b);
        }
    }
    for hdl in [Hdl::Sv, Hdl::Vhdl] {
        if variant_of(hdl, 4).is_none() {
            eprintln!(
                "no {} dcqcn_mq variant at QPS 4 is built: skipped",
                hdl.name()
            );
            continue;
        }
        for (k, c) in cases.iter().enumerate() {
            let spec = mq_run_spec(c, CYCLES, hdl, None, format!("injected case {k}"));
            let o = mq_lockstep::run(&spec, None).expect("the lockstep runs");
            if let Some(m) = o.mismatch {
                panic!("{} injected case {k}: {}", hdl.name(), m.report());
            }
            assert_eq!(o.stats.cycles, CYCLES);
        }
    }
    // the stamp 2^31 in the past is drawn in most injected states; the pending window read and
    // write in one in four
    assert!(hit[0], "no injected case hit stamp_age_2_31");
}
