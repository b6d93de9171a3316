//! The register map of `nscc_mq` (`nscc::regmap`, generated from regmap/nscc_mq_regs.rdl) against
//! the model's NSCC registers and init record (`nscc::fixed`), so that the source and the model
//! cannot drift apart (docs/spec-nscc.md 8.1, 8.3):
//!
//! - every field of `NsccRegs` is a read/write field of the map whose reset is
//!   `NsccRegs::default()`'s value, and whose width is the one `NsccRegs::validate` enforces; the
//!   NSCC words 0x050-0x084 hold no other field;
//! - every NSCC field of a flow's window resets to the model's init record at the default
//!   registers (flow 0, whose init visit is at `now` = 0), and `win_ok` to the send test on it.
//!
//! `make regmap-check` holds `nscc::regmap` equal to the source; this test holds the source equal to
//! the model.

use dcqcn_model::nscc::fixed::{self, NsccFlow, NsccRegs, NsccRegsError};
use dcqcn_model::nscc::regmap::{self, Access, Field};

/// The global field `name`, which must exist once.
fn field(name: &str) -> &'static Field {
    let found: Vec<&Field> = regmap::FIELDS.iter().filter(|f| f.name == name).collect();
    assert_eq!(found.len(), 1, "field `{name}` in nscc::regmap::FIELDS");
    found[0]
}

/// The window field `name`, which must exist once.
fn qp_field(name: &str) -> &'static Field {
    let found: Vec<&Field> = regmap::QP_FIELDS
        .iter()
        .filter(|f| f.name == name)
        .collect();
    assert_eq!(found.len(), 1, "field `{name}` in nscc::regmap::QP_FIELDS");
    found[0]
}

/// Every register of `NsccRegs` by its map name, with its value in `r`. The destructuring names
/// every field, so a field added to the model fails to compile here until the map has it too.
fn regs_by_name(r: &NsccRegs) -> Vec<(&'static str, u32)> {
    let NsccRegs {
        base_rtt,
        target,
        mtu,
        max_wnd,
        init_cwnd,
        fi,
        alpha,
        fi_scale,
        eta,
        adjust_period,
        adjust_bytes,
        gamma,
        ewma_shift,
        qa_gate,
        qa_en,
        fi_delay,
        qa_delay,
        cc_en,
    } = *r;
    vec![
        ("base_rtt", base_rtt),
        ("target", target),
        ("mtu", mtu),
        ("max_wnd", max_wnd),
        ("init_cwnd", init_cwnd),
        ("fi", fi),
        ("alpha", alpha),
        ("fi_scale", fi_scale),
        ("eta", eta),
        ("adjust_period", adjust_period),
        ("adjust_bytes", adjust_bytes),
        ("gamma", gamma),
        ("ewma_shift", ewma_shift),
        ("qa_gate", qa_gate),
        ("qa_en", u32::from(qa_en)),
        ("fi_delay", fi_delay),
        ("qa_delay", qa_delay),
        ("cc_en", u32::from(cc_en)),
    ]
}

/// `r` with register `name` set to `v` (a flag to `v != 0`).
fn with(r: NsccRegs, name: &str, v: u32) -> NsccRegs {
    let mut r = r;
    match name {
        "base_rtt" => r.base_rtt = v,
        "target" => r.target = v,
        "mtu" => r.mtu = v,
        "max_wnd" => r.max_wnd = v,
        "init_cwnd" => r.init_cwnd = v,
        "fi" => r.fi = v,
        "alpha" => r.alpha = v,
        "fi_scale" => r.fi_scale = v,
        "eta" => r.eta = v,
        "adjust_period" => r.adjust_period = v,
        "adjust_bytes" => r.adjust_bytes = v,
        "gamma" => r.gamma = v,
        "ewma_shift" => r.ewma_shift = v,
        "qa_gate" => r.qa_gate = v,
        "qa_en" => r.qa_en = v != 0,
        "fi_delay" => r.fi_delay = v,
        "qa_delay" => r.qa_delay = v,
        "cc_en" => r.cc_en = v != 0,
        _ => panic!("no register `{name}` in NsccRegs"),
    }
    r
}

#[test]
fn the_reset_of_every_nscc_register_is_the_models_default() {
    let d = NsccRegs::default();
    for (name, value) in regs_by_name(&d) {
        let f = field(name);
        assert_eq!(
            f.access,
            Access::ReadWrite,
            "{name}: a configuration register"
        );
        assert_eq!(
            f.reset, value,
            "{name}: the RDL resets it to {}, NsccRegs::default() to {value}",
            f.reset
        );
    }
    // cc_en is bit 0 of the engine's enables; the others are the NSCC words 0x050-0x084, which
    // hold nothing else
    assert_eq!(
        (field("cc_en").word, field("cc_en").lsb),
        (regmap::ENABLES, 0)
    );
    let mut in_words: Vec<&str> = regmap::FIELDS
        .iter()
        .filter(|f| (regmap::BASE_RTT..=regmap::QA_DELAY).contains(&f.word))
        .map(|f| f.name)
        .collect();
    let mut model: Vec<&str> = regs_by_name(&d)
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| *n != "cc_en")
        .collect();
    in_words.sort_unstable();
    model.sort_unstable();
    assert_eq!(in_words, model);
}

#[test]
fn every_nscc_register_is_as_wide_in_the_map_as_in_the_model() {
    for (name, _) in regs_by_name(&NsccRegs::default()) {
        let f = field(name);
        let max = u32::try_from((1u64 << f.width) - 1).expect("a field of at most 32 bits");
        let r = with(NsccRegs::default(), name, max);
        assert_eq!(
            r.validate(),
            Ok(()),
            "{name}: {max} fits the map's {} bits",
            f.width
        );
        if f.width < 32 && f.width > 1 {
            let r = with(NsccRegs::default(), name, max + 1);
            match r.validate() {
                Err(NsccRegsError::Width { field, bits, .. }) => {
                    assert_eq!((field, bits), (name, f.width), "{name}");
                }
                other => panic!(
                    "{name}: {} does not fit {} bits: {other:?}",
                    max + 1,
                    f.width
                ),
            }
        }
    }
}

#[test]
fn every_nscc_window_field_resets_to_the_init_record() {
    let regs = NsccRegs::default();
    // flow 0's init visit is at now = 0, and the grant process writes gbytes = 0 (spec-nscc 7)
    let NsccFlow {
        cwnd,
        abytes,
        saved,
        base_rtt,
        max_wnd,
        avg,
        achieved,
        received,
        fi_count,
        inc,
        to_ignore,
        ignored,
        increase,
        trigger_qa,
        qa_armed,
        t_adj,
        t_dec,
        t_qa,
    } = NsccFlow::init(&regs, 0);
    let gbytes = 0u32;
    let want: [(&str, u32); 20] = [
        ("cwnd", cwnd),
        ("saved", saved),
        ("flow_base_rtt", base_rtt),
        ("flow_max_wnd", max_wnd),
        ("avg", avg),
        ("inflight", gbytes.wrapping_sub(abytes)),
        ("achieved", achieved),
        ("received", received),
        ("fi_count", fi_count),
        ("inc_lo", (inc & 0xFFFF_FFFF) as u32),
        ("inc_hi", (inc >> 32) as u32),
        ("to_ignore", to_ignore),
        ("ignored", ignored),
        ("increase", u32::from(increase)),
        ("trigger_qa", u32::from(trigger_qa)),
        ("qa_armed", u32::from(qa_armed)),
        (
            "win_ok",
            u32::from(fixed::win_ok(gbytes, abytes, cwnd, regs.mtu_eff())),
        ),
        ("t_adj", t_adj),
        ("t_dec", t_dec),
        ("t_qa", t_qa),
    ];
    for (name, value) in want {
        let f = qp_field(name);
        assert_eq!(
            f.reset, value,
            "{name}: the RDL's reset after the init round is {}, the model's init record {value}",
            f.reset
        );
    }
    // `old` is not in the record: its reset value is 0 (spec-nscc 7)
    assert_eq!(qp_field("old").reset, 0);
}
