//! The top of the model, `MqBlock` (spec-mq 4.1; RTL `dcqcn_mq`): the bitmaps, the memories and
//! the processes of one clock cycle, wired as the RTL wires its modules.
//!
//! A cycle t reads S(t) only: every process computes its writes from the registers, bitmaps and
//! memories at the start of t and the inputs of t; then all writes land together at the closing
//! edge (spec-mq 4.1). Two results are shared within the cycle, as the spec names them: the joint
//! outstanding count (4.6) and the precedence of the bitmap bits two processes write (4.7), applied
//! here in one place, [`MqBlock::cycle`].

pub use super::bitmaps::{Bitmap, Bitmaps};
use super::grant::{self, GrantExec, GrantRegs};
use super::mem::{low_mask, Credit, MqMems, Record, DFX_ENTRIES, MEMORIES, REQ_MEM};
use super::obs::{state_index, MqObs, WriteObs, BITMAPS, STATE_FIELDS, STREAMS};
use super::params::MqParams;
use super::ports::{MqInputs, MqOutputs};
use super::regs::{win, BusComb, CountEvents, DfxWrite, Monitors, MqRegs, WriteKind};
use super::rpt::{self, RptExec, RptRegs};
use super::visit::{self, Scan, VisitKind};
use crate::rate_inc::Phase;

/// Every register and bitmap of the block: S(t) without the memories.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MqState {
    pub scan: Scan,
    pub grant: GrantRegs,
    pub rpt: RptRegs,
    pub regs: MqRegs,
    pub bitmaps: Bitmaps,
}

impl MqState {
    pub fn reset(p: &MqParams) -> MqState {
        let regs = MqRegs::reset(p);
        MqState {
            scan: Scan::RESET,
            grant: GrantRegs::reset(p, &regs.cfg),
            rpt: RptRegs::default(),
            regs,
            bitmaps: Bitmaps::reset(p.qps()),
        }
    }
}

/// A state field's Rust type as the bits of its `obs_state` field (obs.rs): an unsigned value as
/// it is, `bool` as 0 or 1, a signed value as its two's complement bits.
trait FieldBits: Copy {
    /// The bits the type holds.
    const BITS: u32;
    /// Two's complement: the field must be `BITS` wide.
    const SIGNED: bool = false;
    fn to_bits(self) -> u64;
    /// The low bits of `v`: exact once `v` is checked to fit the field's width.
    fn from_bits(v: u64) -> Self;
}

impl FieldBits for bool {
    const BITS: u32 = 1;
    fn to_bits(self) -> u64 {
        u64::from(self)
    }
    fn from_bits(v: u64) -> bool {
        v != 0
    }
}

macro_rules! unsigned_field_bits {
    ($($t:ty),*) => {$(
        impl FieldBits for $t {
            const BITS: u32 = <$t>::BITS;
            fn to_bits(self) -> u64 {
                u64::from(self)
            }
            fn from_bits(v: u64) -> $t {
                v as $t
            }
        }
    )*};
}
unsigned_field_bits!(u8, u16, u32, u64);

impl FieldBits for i32 {
    const BITS: u32 = 32;
    const SIGNED: bool = true;
    fn to_bits(self) -> u64 {
        u64::from(self as u32)
    }
    fn from_bits(v: u64) -> i32 {
        v as u32 as i32
    }
}

/// The state record, each field named once: its name (obs.rs `STATE_FIELDS`, in that order) and
/// where it lives in [`MqState`]; its width is the one `STATE_FIELDS` gives, its conversion the
/// Rust type's ([`FieldBits`]). Generates [`MqState::fields`] and [`MqState::set_field`].
macro_rules! state_fields {
    ($($name:literal => $($path:ident).+,)*) => {
        impl MqState {
            /// The state record's fields (obs.rs `STATE_FIELDS`), named, in order; a signed field
            /// as its two's complement bits.
            pub fn fields(&self) -> Vec<(&'static str, u64)> {
                let fields = vec![$(($name, FieldBits::to_bits(self.$($path).+)),)*];
                debug_assert_eq!(fields.len(), STATE_FIELDS.len());
                fields
            }

            /// The values of [`MqState::fields`] into `v` (its length made `STATE_FIELDS`'s),
            /// without allocating once `v` has that length: the lockstep's per-cycle form.
            pub fn values_into(&self, v: &mut Vec<u64>) {
                v.clear();
                $(v.push(FieldBits::to_bits(self.$($path).+));)*
            }

            /// Sets the state field `name` (obs.rs `STATE_FIELDS`) to `v`; refused when `v` does
            /// not fit the field's width or no field has that name (spec-mq 8.3).
            pub fn set_field(&mut self, name: &str, v: u64) -> Result<(), MqInitialError> {
                let Some(k) = state_index(name) else {
                    return Err(MqInitialError::Unknown {
                        field: format!("state.{name}"),
                    });
                };
                fits_state_field(name, STATE_FIELDS[k].1, v)?;
                match name {
                    $($name => self.$($path).+ = FieldBits::from_bits(v),)*
                    _ => unreachable!("STATE_FIELDS has {name} but set_field does not"),
                }
                Ok(())
            }
        }

        // Checked when the crate compiles: the fields follow `STATE_FIELDS` name by name, in its
        // order, and each Rust type holds its width (a signed type exactly: two's complement).
        const _: () = {
            const fn of<T: FieldBits>(_: fn(MqState) -> T) -> (u32, bool) {
                (T::BITS, T::SIGNED)
            }
            let types: &[(&str, (u32, bool))] = &[$(($name, of(|s: MqState| s.$($path).+)),)*];
            assert!(types.len() == STATE_FIELDS.len(), "one field per STATE_FIELDS entry");
            let mut k = 0;
            while k < types.len() {
                let (name, (type_bits, signed)) = types[k];
                let (spec, bits) = STATE_FIELDS[k];
                assert!(same_name(name, spec), "the fields follow STATE_FIELDS, in order");
                assert!(bits <= type_bits, "a field wider than its Rust type");
                assert!(!signed || bits == type_bits, "a signed field narrower than its type");
                k += 1;
            }
        };
    };
}

/// State field `name` of `bits` bits holds `v`, or the error naming it.
fn fits_state_field(name: &str, bits: u32, v: u64) -> Result<(), MqInitialError> {
    if v > low_mask(bits) {
        return Err(MqInitialError::TooWide {
            field: format!("state.{name}"),
            value: v,
            bits,
        });
    }
    Ok(())
}

/// `a == b`, at compile time.
const fn same_name(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

state_fields! {
    // engine (spec-mq 4.2)
    "now" => scan.now,
    "scan_q" => scan.scan_q,
    "init" => scan.init,
    "rr" => grant.rr,
    "gx_valid" => grant.gx_valid,
    "gx_qp" => grant.gx_qp,
    "rx_valid" => rpt.rx_valid,
    "rx_qp" => rpt.rx_qp,
    "rx_bytes" => rpt.rx_bytes,
    "pcredit" => grant.pcredit,
    "g_valid" => grant.g_valid,
    "g_qp" => grant.g_qp,
    "g_bytes" => grant.g_bytes,
    "wpend" => regs.bus.wpend,
    "wq" => regs.bus.wq,
    "wword" => regs.bus.wword,
    "wdata" => regs.bus.wdata,
    "wstrb" => regs.bus.wstrb,
    "rpend" => regs.bus.rpend,
    "rq" => regs.bus.rq,
    "rword" => regs.bus.rword,
    "bvalid" => regs.bus.bvalid,
    "bresp" => regs.bus.bresp,
    "rvalid" => regs.bus.rvalid,
    "rdata" => regs.bus.rdata,
    "rresp" => regs.bus.rresp,
    // configuration (6.2)
    "cfg_dcqcn_hw_en" => regs.cfg.dcqcn_hw_en,
    "cfg_hw_rate_throttle_en" => regs.cfg.hw_rate_throttle_en,
    "cfg_tx_wqe_ost_limit_en" => regs.cfg.tx_wqe_ost_limit_en,
    "cfg_speed_limiter_en" => regs.cfg.speed_limiter_en,
    "cfg_cnp_merge_period" => regs.cfg.cnp_merge_period,
    "cfg_nocnp_timer_th" => regs.cfg.nocnp_timer_th,
    "cfg_byte_cnt_th" => regs.cfg.byte_cnt_th,
    "cfg_max_rate" => regs.cfg.max_rate,
    "cfg_alpha_timer_th" => regs.cfg.alpha_timer_th,
    "cfg_upd_alpha_g" => regs.cfg.upd_alpha_g,
    "cfg_alpha_rate_shift" => regs.cfg.alpha_rate_shift,
    "cfg_alpha_init" => regs.cfg.alpha_init,
    "cfg_rate_ai" => regs.cfg.rate_ai,
    "cfg_rate_hai" => regs.cfg.rate_hai,
    "cfg_rate_min" => regs.cfg.rate_min,
    "cfg_stage_threshold" => regs.cfg.stage_threshold,
    "cfg_clamp_tgt" => regs.cfg.clamp_tgt,
    "cfg_cnp_timer_thrd" => regs.cfg.cnp_timer_thrd,
    "cfg_ost_limit" => regs.cfg.ost_limit,
    "cfg_ost_limit_cnp" => regs.cfg.ost_limit_cnp,
    "cfg_credit_cap" => regs.cfg.credit_cap,
    "cfg_dfx_en" => regs.cfg.dfx_en,
    "cfg_dfx_wrap" => regs.cfg.dfx_wrap,
    "cfg_dfx_sel" => regs.cfg.dfx_sel,
    "cfg_dfx_qp" => regs.cfg.dfx_qp,
    // counters (6.2)
    "cnt_cnp" => regs.cnt.cnt_cnp,
    "cnt_dec" => regs.cnt.cnt_dec,
    "cnt_inc_fr" => regs.cnt.cnt_inc_fr,
    "cnt_inc_ai" => regs.cnt.cnt_inc_ai,
    "cnt_inc_hai" => regs.cnt.cnt_inc_hai,
    "cnt_inc_timer" => regs.cnt.cnt_inc_timer,
    "cnt_inc_byte" => regs.cnt.cnt_inc_byte,
    "cnt_grant" => regs.cnt.cnt_grant,
    "cnt_grant_bytes" => regs.cnt.cnt_grant_bytes,
    "cnt_grant_bytes_latch" => regs.cnt.cnt_grant_bytes_latch,
    "cnt_req" => regs.cnt.cnt_req,
    "cnt_req_drop" => regs.cnt.cnt_req_drop,
    "cnt_rpt" => regs.cnt.cnt_rpt,
    "cnt_rpt_spurious" => regs.cnt.cnt_rpt_spurious,
    "cnt_bad_qp" => regs.cnt.cnt_bad_qp,
    "cnt_init_drop" => regs.cnt.cnt_init_drop,
    // DFX window (5.9)
    "dfx_count" => regs.dfx.dfx_count,
    "dfx_wptr" => regs.dfx.dfx_wptr,
    "dfx_lost" => regs.dfx.dfx_lost,
    "dfx_n_dec" => regs.dfx.dfx_n_dec,
    "dfx_n_byte" => regs.dfx.dfx_n_byte,
    "dfx_n_timer" => regs.dfx.dfx_n_timer,
    "dfx_time" => regs.dfx.dfx_time,
}

/// Any starting state of the block (spec-mq 8.3): every register, every bitmap bit and every
/// memory entry. The lockstep loads it into the model and into either HDL (every copy of every
/// memory) between two clock edges (`MqRunSpec::initial`). Every value within its field's width
/// is legal; [`MqInitial::validate`] refuses the others, naming the field.
///
/// Saved (serde) as named fields: `state` (field name -> value), `bitmaps` (name -> 64-bit words,
/// QP q at bit q % 64 of word q / 64) and `mems` (memory name -> packed entries, the layouts of
/// [`MEMORIES`]); reading one checks it as [`MqInitial::validate`] does.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(try_from = "MqInitialFile", into = "MqInitialFile")]
pub struct MqInitial {
    pub state: MqState,
    pub mems: MqMems,
}

/// Why an [`MqInitial`] is refused: each names the field (`state.scan_q`, `bitmap.lim8`,
/// `mem.rate_mem[3]`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MqInitialError {
    #[error("{field}: {value} does not fit {bits} bits")]
    TooWide {
        field: String,
        value: u64,
        bits: u32,
    },
    #[error("{field}: bit {bit} is set, beyond QP {last} (QPS {qps})")]
    BeyondQps {
        field: String,
        bit: u32,
        last: u32,
        qps: u32,
    },
    #[error("{field}: {len} {unit}, expected {expected}")]
    Length {
        field: String,
        len: usize,
        expected: usize,
        unit: &'static str,
    },
    #[error("{field}: no such field")]
    Unknown { field: String },
    #[error("{field}: missing")]
    Missing { field: String },
    #[error("the initial state is for QPS {initial}, the run is at QPS {run}")]
    Qps { initial: u32, run: u32 },
}

impl MqInitial {
    /// The reset state with every memory entry 0.
    pub fn reset(p: &MqParams) -> MqInitial {
        MqInitial {
            state: MqState::reset(p),
            mems: MqMems::new(p.qps()),
        }
    }

    /// The current state of a model.
    pub fn of(b: &MqBlock) -> MqInitial {
        MqInitial {
            state: b.state().clone(),
            mems: b.mems().clone(),
        }
    }

    /// The QPS its per-QP memories are sized for.
    pub fn qps(&self) -> u32 {
        self.mems.req_mem.len() as u32
    }

    /// Every value fits its field at `qps` (spec-mq 8.3): the state fields their widths, the
    /// bitmaps `qps` bits, every memory its depth and every entry its width. The first that does
    /// not is named.
    pub fn validate(&self, qps: u32) -> Result<(), MqInitialError> {
        for (k, (name, v)) in self.state.fields().into_iter().enumerate() {
            fits_state_field(name, STATE_FIELDS[k].1, v)?;
        }
        for (k, map) in self.state.bitmaps.in_order().into_iter().enumerate() {
            check_bitmap(BITMAPS[k], &map.0, qps)?;
        }
        for (m, mem) in MEMORIES.iter().enumerate() {
            let depth = if mem.readers.is_empty() {
                DFX_ENTRIES
            } else {
                qps as usize
            };
            let entries = self.mems.entries(m);
            if entries.len() != depth {
                return Err(MqInitialError::Length {
                    field: format!("mem.{}", mem.name),
                    len: entries.len(),
                    expected: depth,
                    unit: "entries",
                });
            }
            let bits = mem.width();
            if let Some((i, &v)) = entries.iter().enumerate().find(|e| *e.1 > low_mask(bits)) {
                return Err(MqInitialError::TooWide {
                    field: format!("mem.{}[{i}]", mem.name),
                    value: v,
                    bits,
                });
            }
        }
        Ok(())
    }
}

/// A bitmap of `qps` bits as 64-bit words: the right number of words, no bit at or above `qps`.
fn check_bitmap(name: &str, words: &[u64], qps: u32) -> Result<(), MqInitialError> {
    let expected = qps.div_ceil(64) as usize;
    if words.len() != expected {
        return Err(MqInitialError::Length {
            field: format!("bitmap.{name}"),
            len: words.len(),
            expected,
            unit: "words",
        });
    }
    for (w, &x) in words.iter().enumerate() {
        let lo = 64 * w as u32;
        let beyond = x & !low_mask(qps - lo);
        if beyond != 0 {
            return Err(MqInitialError::BeyondQps {
                field: format!("bitmap.{name}"),
                bit: lo + beyond.trailing_zeros(),
                last: qps - 1,
                qps,
            });
        }
    }
    Ok(())
}

/// The saved form of [`MqInitial`]: named fields (see there).
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct MqInitialFile {
    state: std::collections::BTreeMap<String, u64>,
    bitmaps: std::collections::BTreeMap<String, Vec<u64>>,
    mems: std::collections::BTreeMap<String, Vec<u64>>,
}

impl From<MqInitial> for MqInitialFile {
    fn from(i: MqInitial) -> MqInitialFile {
        MqInitialFile {
            state: i
                .state
                .fields()
                .into_iter()
                .map(|(n, v)| (n.to_string(), v))
                .collect(),
            bitmaps: BITMAPS
                .iter()
                .zip(i.state.bitmaps.in_order())
                .map(|(n, b)| (n.to_string(), b.0.clone()))
                .collect(),
            mems: MEMORIES
                .iter()
                .enumerate()
                .map(|(k, m)| (m.name.to_string(), i.mems.entries(k)))
                .collect(),
        }
    }
}

impl TryFrom<MqInitialFile> for MqInitial {
    type Error = MqInitialError;

    /// Refuses an unknown or missing name and any value that does not fit its field; QPS is the
    /// length of the per-QP memories.
    fn try_from(f: MqInitialFile) -> Result<MqInitial, MqInitialError> {
        for names in [
            f.state.keys().map(String::as_str).collect::<Vec<_>>(),
            f.bitmaps.keys().map(String::as_str).collect(),
            f.mems.keys().map(String::as_str).collect(),
        ] {
            for n in names {
                let known = state_index(n).is_some()
                    || BITMAPS.contains(&n)
                    || MEMORIES.iter().any(|m| m.name == n);
                if !known {
                    return Err(MqInitialError::Unknown {
                        field: n.to_string(),
                    });
                }
            }
        }
        let missing = |what: &str, n: &str| MqInitialError::Missing {
            field: format!("{what}.{n}"),
        };
        let req = f
            .mems
            .get(MEMORIES[REQ_MEM].name)
            .ok_or_else(|| missing("mem", MEMORIES[REQ_MEM].name))?;
        let qps = req.len() as u32;
        let p = MqParams::with_qps(qps.max(1)).map_err(|_| MqInitialError::Length {
            field: "mem.req_mem".into(),
            len: req.len(),
            expected: 1,
            unit: "entries (QPS 1..4096)",
        })?;
        let mut i = MqInitial::reset(&p);
        for &(name, _) in STATE_FIELDS {
            let v = *f.state.get(name).ok_or_else(|| missing("state", name))?;
            i.state.set_field(name, v)?;
        }
        for (k, name) in BITMAPS.iter().enumerate() {
            let words = f
                .bitmaps
                .get(*name)
                .ok_or_else(|| missing("bitmap", name))?;
            check_bitmap(name, words, qps)?;
            let b = &mut i.state.bitmaps;
            let map = [
                &mut b.req_valid,
                &mut b.rate_ok,
                &mut b.ost_lt_hi,
                &mut b.ost_lt_lo,
                &mut b.lim8,
                &mut b.cnp_flag,
                &mut b.arb_mask,
            ];
            map[k].0.clone_from(words);
        }
        for (m, mem) in MEMORIES.iter().enumerate() {
            let entries = f
                .mems
                .get(mem.name)
                .ok_or_else(|| missing("mem", mem.name))?;
            let depth = i.mems.depth(m);
            if entries.len() != depth {
                return Err(MqInitialError::Length {
                    field: format!("mem.{}", mem.name),
                    len: entries.len(),
                    expected: depth,
                    unit: "entries",
                });
            }
            let bits = mem.width();
            for (q, &v) in entries.iter().enumerate() {
                if v > low_mask(bits) {
                    return Err(MqInitialError::TooWide {
                        field: format!("mem.{}[{q}]", mem.name),
                        value: v,
                        bits,
                    });
                }
                i.mems.set_entry(m, q, v);
            }
        }
        Ok(i)
    }
}

/// The memory writes of one cycle (spec-mq 8.2), one per write port.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CycleWrites {
    /// The visit: QP and the record written (`CC_RATE_MEM` included).
    pub wv: Option<(u16, Record)>,
    /// The grant process: QP, credit entry, `gcnt`.
    pub wg: Option<(u16, Credit, u8)>,
    /// The report process: QP, `dcnt`, `sent`.
    pub wr: Option<(u16, u8, u32)>,
    /// The request input: QP, `req_bytes`.
    pub wq: Option<(u16, u16)>,
    /// The DFX window.
    pub wd: Option<DfxWrite>,
}

impl CycleWrites {
    /// The streams as obs.rs lays them out.
    pub fn to_obs(&self) -> [WriteObs; 5] {
        let mut w = [WriteObs::default(); 5];
        if let Some((q, r)) = self.wv {
            w[0] = WriteObs::of(&STREAMS[0], q, &r.wv_fields());
        }
        if let Some((q, c, g)) = self.wg {
            let v = [u64::from(c.credit as u32), u64::from(c.stamp), u64::from(g)];
            w[1] = WriteObs::of(&STREAMS[1], q, &v);
        }
        if let Some((q, d, s)) = self.wr {
            w[2] = WriteObs::of(&STREAMS[2], q, &[u64::from(d), u64::from(s)]);
        }
        if let Some((q, b)) = self.wq {
            w[3] = WriteObs::of(&STREAMS[3], q, &[u64::from(b)]);
        }
        if let Some(d) = self.wd {
            let e = d.entry;
            let v = [e & 7, (e >> 3) & 1, (e >> 4) & 0xFF_FFFF, e >> 28];
            w[4] = WriteObs::of(&STREAMS[4], u16::from(d.index), &v);
        }
        w
    }
}

/// The multi-QP DCQCN block `dcqcn_mq`: registers, bitmaps and memories, one [`MqBlock::step`]
/// per clock cycle.
#[derive(Clone, Debug)]
pub struct MqBlock {
    p: MqParams,
    s: MqState,
    mems: MqMems,
    /// Scratch for the eligibility words of a cycle (not state; no allocation per step).
    elig: Vec<u64>,
}

impl MqBlock {
    /// Registers and bitmaps at their reset values, memories all 0.
    pub fn new(p: MqParams) -> MqBlock {
        MqBlock {
            p,
            s: MqState::reset(&p),
            mems: MqMems::new(p.qps()),
            elig: vec![0; p.qps().div_ceil(64) as usize],
        }
    }

    pub fn params(&self) -> &MqParams {
        &self.p
    }
    /// The registers and bitmaps, S(t) of the next step.
    pub fn state(&self) -> &MqState {
        &self.s
    }
    /// For state injection (spec-mq 8.3) and tests: every value within its field's width is
    /// legal.
    pub fn state_mut(&mut self) -> &mut MqState {
        &mut self.s
    }
    pub fn mems(&self) -> &MqMems {
        &self.mems
    }
    /// For state injection (spec-mq 8.3) and tests.
    pub fn mems_mut(&mut self) -> &mut MqMems {
        &mut self.mems
    }

    /// State injection (spec-mq 8.3): the registers, bitmaps and memories become `init`'s, after
    /// it is checked to fit this block's QPS.
    pub fn load(&mut self, init: &MqInitial) -> Result<(), MqInitialError> {
        if init.qps() != self.p.qps() {
            return Err(MqInitialError::Qps {
                initial: init.qps(),
                run: self.p.qps(),
            });
        }
        init.validate(self.p.qps())?;
        self.s = init.state.clone();
        self.mems = init.mems.clone();
        Ok(())
    }

    /// One clock cycle t: the outputs the block drives in t, then the closing edge.
    #[inline]
    pub fn step(&mut self, i: &MqInputs) -> MqOutputs {
        self.cycle(i).0
    }

    /// [`MqBlock::step`] plus the observation of cycle t (obs.rs): S(t), its bitmaps and the
    /// memory writes of t.
    pub fn step_obs(&mut self, i: &MqInputs) -> (MqOutputs, MqObs) {
        let mut obs = self.obs_state();
        let (out, w) = self.cycle(i);
        obs.writes = w.to_obs();
        (out, obs)
    }

    /// [`MqBlock::step_obs`] into `obs`, reusing its vectors (no allocation once they have their
    /// sizes): the lockstep's per-cycle form.
    pub fn step_obs_into(&mut self, i: &MqInputs, obs: &mut MqObs) -> MqOutputs {
        self.s.values_into(&mut obs.state);
        for (dst, b) in obs.bitmaps.iter_mut().zip(self.s.bitmaps.in_order()) {
            dst.clone_from(&b.0);
        }
        let (out, w) = self.cycle(i);
        obs.writes = w.to_obs();
        out
    }

    /// State and bitmaps of the current S, writes all invalid.
    pub fn obs_state(&self) -> MqObs {
        MqObs {
            state: self.state_fields().iter().map(|f| f.1).collect(),
            bitmaps: self.s.bitmaps.in_order().map(|b| b.0.clone()),
            writes: [WriteObs::default(); 5],
        }
    }

    /// The state record's fields (obs.rs `STATE_FIELDS`), named, in order.
    pub fn state_fields(&self) -> Vec<(&'static str, u64)> {
        self.s.fields()
    }

    /// The outputs of cycle t: registered outputs from S(t), AXI readies from the handshake.
    #[inline]
    fn outputs(&self, bc: &BusComb) -> MqOutputs {
        let g = &self.s.grant;
        let b = &self.s.regs.bus;
        MqOutputs {
            m_grant_valid: g.g_valid,
            m_grant_qp: g.g_qp,
            m_grant_bytes: g.g_bytes,
            s_axil_awready: bc.wr_en,
            s_axil_wready: bc.wr_en,
            s_axil_arready: bc.rd_en,
            s_axil_bvalid: b.bvalid,
            s_axil_bresp: b.bresp,
            s_axil_rvalid: b.rvalid,
            s_axil_rdata: b.rdata,
            s_axil_rresp: b.rresp,
        }
    }

    /// One cycle: every process from S(t), then the edge.
    #[inline]
    fn cycle(&mut self, i: &MqInputs) -> (MqOutputs, CycleWrites) {
        let p = self.p;
        let qps = p.qps();
        let mon = Monitors {
            init: self.s.scan.init,
            pcredit: self.s.grant.pcredit,
            now: self.s.scan.now,
        };
        let bc = self
            .s
            .regs
            .bus_comb(&i.axil, i.rst, &p, &mon, &self.mems.dfx_mem);
        let out = self.outputs(&bc);
        let MqBlock { s, mems, elig, .. } = self;
        let cfg = s.regs.cfg;
        let (init, now) = (mon.init, mon.now);
        let mut w = CycleWrites::default();

        // spec-mq 4.1 "Reset": registers and bitmaps take their reset values, no memory is
        // written.
        if i.rst {
            let regs = MqRegs::reset(&p);
            s.scan = Scan::RESET;
            s.grant = GrantRegs::reset(&p, &regs.cfg);
            s.rpt = RptRegs::default();
            s.regs = regs;
            s.bitmaps.reset_in_place(qps);
            return (out, w);
        }

        // The visit (spec-mq 4.3, 5.4, 5.8, 6.1).
        let vo = visit::comb(&s.scan, mems, &s.bitmaps, &s.regs, &p);
        let clear_now = vo.kind == VisitKind::Clear;

        // The pick stage (spec-mq 4.5).
        let bus = &s.regs.bus;
        let next_scan = s.scan.next_scan(qps);
        // A qp_clear completes at the next visit: pending now, or accepted now (pending in S(t+1)).
        let accepted_clear = match bc.wr {
            WriteKind::Pending { q, word } => {
                bc.wr_en
                    && q == next_scan
                    && word == win::QP_CTRL
                    && i.axil.wstrb & 1 != 0
                    && (i.axil.wdata >> 1) & 1 == 1
            }
            _ => false,
        };
        let clear_next = (bus.wpend && bus.wclr() && next_scan == bus.wq) || accepted_clear;
        grant::eligibility(&s.bitmaps, &cfg, elig);
        let pick = grant::pick_stage(&s.grant, init, i.grant_pause, clear_next, &cfg, elig);

        // Grant and report execution (spec-mq 4.5, 4.6).
        let gx: Option<GrantExec> = grant::execute(&s.grant, init, clear_now, now, mems, &cfg, &p);
        let rx: Option<RptExec> = rpt::execute(&s.rpt, init, mems, &p);
        let (rpt_next, rpt_bad, rpt_drop) = rpt::input(&i.rpt, init, &p);

        // CNP input (spec-mq 5.3) and request input (4.4), from S(t).
        let cnp_bad = i.cnp.valid && u32::from(i.cnp.qp) >= qps;
        let cnp_ok = i.cnp.valid && !cnp_bad && !init;
        let cnp_drop = i.cnp.valid && !cnp_bad && init;
        let req_bad = i.req.valid && u32::from(i.req.qp) >= qps;
        let req_full = !req_bad && i.req.valid && s.bitmaps.req_valid.get(usize::from(i.req.qp));
        let accept = i.req.valid && !req_bad && !req_full;

        // The joint outstanding count (spec-mq 4.6) of each QP a clear, grant or report touches.
        let clr_q = clear_now.then_some(vo.v);
        let inc_q = gx.map(|x| x.q);
        let dec_q = rx.map(|x| x.q);
        let mut spurious = false;
        let mut touched: [Option<u16>; 3] = [clr_q, inc_q, dec_q];
        for k in 0..3 {
            let Some(q) = touched[k] else { continue };
            // Each QP once.
            for t in touched.iter_mut().skip(k + 1) {
                if *t == Some(q) {
                    *t = None;
                }
            }
            let (clr, inc, dec) = (clr_q == Some(q), inc_q == Some(q), dec_q == Some(q));
            let qi = usize::from(q);
            let j = rpt::joint(
                mems.grant_cnt_mem[qi],
                mems.done_cnt_mem[qi],
                clr,
                inc,
                dec,
                &cfg,
            );
            s.bitmaps.ost_lt_hi.set(qi, j.ost_lt_hi);
            s.bitmaps.ost_lt_lo.set(qi, j.ost_lt_lo);
            if inc {
                let x = gx.expect("inc has a grant");
                w.wg = Some((q, x.credit, j.gcnt));
            } else if clr {
                let c = Credit {
                    credit: cfg.capq() as i32,
                    stamp: now,
                };
                w.wg = Some((q, c, j.gcnt));
            }
            if dec {
                let x = rx.expect("dec has a report");
                w.wr = Some((q, j.dcnt, x.sent));
                spurious = j.spur;
            }
        }

        // The visit's writes: record, and at init the credit and counts through the grant and
        // report ports.
        let dcq = vo.dcqcn;
        match vo.kind {
            VisitKind::None => {}
            VisitKind::Init => {
                w.wv = Some((vo.v, vo.rec));
                let c = Credit {
                    credit: cfg.capq() as i32,
                    stamp: now,
                };
                w.wg = Some((vo.v, c, 0));
                w.wr = Some((vo.v, 0, 0));
            }
            VisitKind::Normal | VisitKind::Clear => w.wv = Some((vo.v, vo.rec)),
        }
        if accept {
            w.wq = Some((i.req.qp, i.req.bytes));
        }

        // Bitmaps, with the precedence of spec-mq 4.7 (later lines win).
        let bm = &mut s.bitmaps;
        let v = usize::from(vo.v);
        if let Some(q) = pick {
            bm.req_valid.set(usize::from(q), false);
        }
        match vo.kind {
            VisitKind::Normal => {
                if vo.wake {
                    bm.rate_ok.set(v, true);
                }
                if dcq.is_some_and(|d| d.lim_clr) {
                    bm.lim8.set(v, false);
                }
                bm.cnp_flag.set(v, false);
            }
            VisitKind::Clear => {
                bm.req_valid.set(v, false);
                bm.rate_ok.set(v, true);
                bm.lim8.set(v, false);
                bm.cnp_flag.set(v, false);
            }
            VisitKind::None | VisitKind::Init => {}
        }
        if let Some(m) = vo.arb_mask {
            bm.arb_mask.set(v, m);
        }
        if let Some(x) = gx {
            bm.rate_ok.set(usize::from(x.q), x.rate_ok);
        }
        if accept {
            bm.req_valid.set(usize::from(i.req.qp), true);
        }
        if cnp_ok {
            let q = usize::from(i.cnp.qp);
            bm.cnp_flag.set(q, true);
            bm.lim8.set(q, true);
        }

        // Memories.
        if let Some((q, r)) = w.wv {
            mems.set_record(usize::from(q), &r);
        }
        if let Some((q, c, g)) = w.wg {
            mems.cc_byte_cnt_mem[usize::from(q)] = c.pack();
            mems.grant_cnt_mem[usize::from(q)] = g;
        }
        if let Some((q, d, sent)) = w.wr {
            mems.done_cnt_mem[usize::from(q)] = d;
            mems.sent_mem[usize::from(q)] = sent;
        }
        if let Some((q, b)) = w.wq {
            mems.req_mem[usize::from(q)] = b;
        }

        // Registers: counters and DFX (regs), the grant and report registers, the scan.
        let ev = CountEvents {
            cnp: cnp_ok,
            dec: dcq.is_some_and(|d| d.dec),
            inc_fr: dcq.is_some_and(|d| d.inc && d.phase == Phase::FastRecovery),
            inc_ai: dcq.is_some_and(|d| d.inc && d.phase == Phase::Additive),
            inc_hai: dcq.is_some_and(|d| d.inc && d.phase == Phase::Hyper),
            inc_timer: dcq.is_some_and(|d| d.inc && d.tf),
            inc_byte: dcq.is_some_and(|d| d.inc && d.bf),
            grant: gx.is_some(),
            grant_bytes: gx.map_or(0, |x| x.bytes),
            req: accept,
            req_drop: req_full,
            rpt: rx.is_some(),
            rpt_spurious: spurious,
            bad_qp: u32::from(req_bad) + u32::from(cnp_bad) + u32::from(rpt_bad),
            init_drop: u32::from(cnp_drop) + u32::from(rpt_drop),
            dfx: visit::dfx_event(&vo, &cfg),
        };
        w.wd = s
            .regs
            .next(&i.axil, &bc, &vo.win, &ev, &p, &mut mems.dfx_mem);
        s.grant.next(pick, &gx, &cfg, &p);
        s.rpt = rpt_next;
        s.scan.next(qps);
        (out, w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state with every field, bitmap bit and memory entry set from `seed`, within its width.
    fn drawn(qps: u32, seed: u64) -> MqInitial {
        let p = MqParams::with_qps(qps).unwrap();
        let mut i = MqInitial::reset(&p);
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for &(name, bits) in STATE_FIELDS {
            i.state.set_field(name, next() & low_mask(bits)).unwrap();
        }
        for q in 0..qps as usize {
            let b = &mut i.state.bitmaps;
            for map in [&mut b.req_valid, &mut b.lim8, &mut b.arb_mask] {
                map.set(q, next() & 1 == 1);
            }
        }
        for m in 0..MEMORIES.len() {
            for e in 0..i.mems.depth(m) {
                i.mems.set_entry(m, e, next());
            }
        }
        i
    }

    /// Each field takes its top value through its name and reads it back there, every other
    /// field unchanged (the names, order and widths are checked when the crate compiles).
    #[test]
    fn each_field_holds_its_top_value() {
        let s = MqState::reset(&MqParams::with_qps(4).unwrap());
        for &(name, bits) in STATE_FIELDS {
            let mut t = s.clone();
            t.set_field(name, low_mask(bits)).unwrap();
            let changed: Vec<_> = t
                .fields()
                .into_iter()
                .zip(s.fields())
                .filter(|(a, b)| a != b)
                .map(|(a, _)| a)
                .collect();
            let was = s.fields()[state_index(name).unwrap()].1;
            if was == low_mask(bits) {
                assert!(changed.is_empty(), "{name}");
            } else {
                assert_eq!(changed, [(name, low_mask(bits))], "{name}");
            }
        }
    }

    #[test]
    fn set_field_then_fields_reads_every_value_back() {
        let i = drawn(65, 7);
        let again = drawn(65, 7);
        assert_eq!(i, again, "deterministic");
        let p = MqParams::with_qps(65).unwrap();
        let mut s = MqState::reset(&p);
        for (name, v) in i.state.fields() {
            s.set_field(name, v).unwrap();
        }
        assert_eq!(s.fields(), i.state.fields());
        assert!(i.validate(65).is_ok());
    }

    #[test]
    fn a_value_that_does_not_fit_is_refused_with_its_name() {
        let p = MqParams::with_qps(4).unwrap();
        let mut s = MqState::reset(&p);
        assert_eq!(
            s.set_field("scan_q", 1 << 12).unwrap_err().to_string(),
            "state.scan_q: 4096 does not fit 12 bits"
        );
        assert!(s.set_field("no_such", 0).is_err());
        let mut i = drawn(4, 3);
        i.state.regs.cfg.alpha_init = 1024;
        assert_eq!(
            i.validate(4).unwrap_err().to_string(),
            "state.cfg_alpha_init: 1024 does not fit 10 bits"
        );
        let mut i = drawn(4, 3);
        i.mems.rate_mem[3] = 1 << 48;
        assert_eq!(
            i.validate(4).unwrap_err().to_string(),
            format!("mem.rate_mem[3]: {} does not fit 48 bits", 1u64 << 48)
        );
        let mut i = drawn(4, 3);
        i.state.bitmaps.lim8.0[0] |= 1 << 4;
        assert_eq!(
            i.validate(4).unwrap_err().to_string(),
            "bitmap.lim8: bit 4 is set, beyond QP 3 (QPS 4)"
        );
        let mut b = MqBlock::new(MqParams::with_qps(8).unwrap());
        assert!(matches!(
            b.load(&drawn(4, 3)),
            Err(MqInitialError::Qps { initial: 4, run: 8 })
        ));
    }

    #[test]
    fn the_saved_form_reads_back_and_refuses_a_value_that_does_not_fit() {
        let i = drawn(70, 11);
        let text = serde_json::to_string(&i).unwrap();
        let back: MqInitial = serde_json::from_str(&text).unwrap();
        assert_eq!(back, i);
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["state"]["cfg_ost_limit"] = 256.into();
        let e = serde_json::from_value::<MqInitial>(v.clone()).unwrap_err();
        assert!(
            e.to_string()
                .contains("state.cfg_ost_limit: 256 does not fit 8 bits"),
            "{e}"
        );
        v["state"]["cfg_ost_limit"] = 3.into();
        v["mems"]["alpha_mem"][69] = (1u64 << 26).into();
        let e = serde_json::from_value::<MqInitial>(v.clone()).unwrap_err();
        assert!(e.to_string().contains("mem.alpha_mem[69]"), "{e}");
        v["mems"]["alpha_mem"][69] = 0.into();
        v["state"].as_object_mut().unwrap().remove("rr");
        let e = serde_json::from_value::<MqInitial>(v).unwrap_err();
        assert!(e.to_string().contains("state.rr: missing"), "{e}");
    }

    #[test]
    fn a_loaded_model_runs_from_the_state() {
        let i = drawn(4, 5);
        let mut b = MqBlock::new(MqParams::with_qps(4).unwrap());
        b.load(&i).unwrap();
        assert_eq!(MqInitial::of(&b), i);
        // any state steps (no panic on QPs >= QPS, timers at their limits...)
        for _ in 0..50 {
            b.step(&MqInputs::default());
        }
    }
}
