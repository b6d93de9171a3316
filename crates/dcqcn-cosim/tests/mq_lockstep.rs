//! The multi-QP block's lockstep (docs/spec-mq.md 8): every scenario at QPS 4 and 64 on both HDLs
//! for a short run with no mismatch, and a planted difference reported at its cycle and field.

use dcqcn_cosim::mq_lockstep::{run, MqRunSpec, Plant};
use dcqcn_cosim::mq_rtl::mq_variants;
use dcqcn_model::mq::obs::{state_index, BITMAPS, STREAMS};
use dcqcn_stim::mq::{by_name, scenarios};
use dcqcn_stim::variant::Hdl;
use std::path::Path;

/// Cycles per scenario run: a few visits of every QP at QPS 64, past the init round, the
/// short timers of `short_timers` and several window accesses.
const CYCLES: u64 = 20_000;

fn spec(name: &str, hdl: Hdl, qps: u32, cycles: u64) -> MqRunSpec {
    let sc = by_name(name).expect("a built-in scenario");
    MqRunSpec {
        scenario: sc.name.into(),
        stimulus: (sc.stimulus)(qps),
        qps,
        hdl,
        variant: None,
        seed: 1,
        cycles,
        replay: format!("test {name}"),
        plant: None,
        initial: None,
    }
}

/// Whether the multi-QP variants are built (they are when rtl/mq/ and rtl/vhdl/mq/ exist).
fn built(hdl: Hdl, qps: u32) -> bool {
    let dir = match hdl {
        Hdl::Sv => "rtl/mq",
        Hdl::Vhdl => "rtl/vhdl/mq",
    };
    let present = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir)
        .is_dir();
    let has = mq_variants().iter().any(|v| v.hdl == hdl && v.qps == qps);
    if present && std::env::var_os("DCQCN_MQ_QPS").is_none() {
        assert!(has, "{dir} exists but its QPS {qps} variant is not built");
    }
    has
}

fn every_scenario(hdl: Hdl) {
    let mut failures = vec![];
    for qps in [4, 64] {
        if !built(hdl, qps) {
            eprintln!("skipped: no {} variant at QPS {qps}", hdl.name());
            continue;
        }
        for sc in scenarios() {
            let o = run(&spec(sc.name, hdl, qps, CYCLES), None).unwrap();
            assert_eq!(o.stats.cycles, CYCLES);
            if let Some(m) = o.mismatch {
                failures.push(m.report());
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_scenario_on_the_systemverilog() {
    every_scenario(Hdl::Sv);
}

#[test]
fn every_scenario_on_the_vhdl_twin() {
    every_scenario(Hdl::Vhdl);
}

/// A bit of the RTL's observation flipped at cycle c is reported at c, under the field's name,
/// with the expected and actual values one bit apart.
#[test]
fn a_planted_difference_is_reported_at_its_cycle_and_field() {
    for hdl in [Hdl::Sv, Hdl::Vhdl] {
        if !built(hdl, 4) {
            continue;
        }
        let rate_ok = BITMAPS.iter().position(|&b| b == "rate_ok").unwrap();
        let wv = STREAMS.iter().position(|s| s.name == "wv").unwrap();
        let cases = [
            (
                Plant::State {
                    field: state_index("cnt_dec").unwrap(),
                    bit: 3,
                },
                "state.cnt_dec",
                8,
            ),
            (
                Plant::Bitmap {
                    map: rate_ok,
                    qp: 2,
                },
                "bitmap.rate_ok[2]",
                1,
            ),
            (
                Plant::Write {
                    stream: wv,
                    field: 0,
                    bit: 0,
                },
                "write.wv.rc",
                1,
            ),
        ];
        for (plant, field, xor) in cases {
            let at = 9;
            let mut s = spec("mq-scheme1", hdl, 4, 200);
            s.plant = Some((at, plant));
            let m = run(&s, None).unwrap().mismatch.expect("the plant is seen");
            assert_eq!(m.cycle, at, "{field}");
            assert_eq!(m.fields.len(), 1, "{}", m.report());
            assert_eq!(m.fields[0].field, field);
            assert_eq!(m.fields[0].expected ^ m.fields[0].actual, xor, "{field}");
            assert_eq!(m.history.len(), 8);
            assert_eq!(m.history.last().unwrap().cycle, at);
            assert!(m.replay.ends_with(&format!("--cycles {}", at + 1)));
            assert!(m.report().contains(field));
        }
    }
}
