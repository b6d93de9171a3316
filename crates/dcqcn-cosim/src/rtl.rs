//! The Verilated RTL as a stepper with the model's types: `Inputs` in, `Snapshot` out.

use crate::ffi::bridge::{self, PortsIn, Sample, TraceSlot};
use crate::CosimError;
use dcqcn_model::{Features, Inputs, Outputs, Params, Snapshot, State};

/// A compiled RTL variant (beat width, clock and line rate, or deliberate defect).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub name: String,
    pub data_bytes: u32,
    /// CLK_FREQ_HZ it was built with.
    pub clk_hz: u32,
    /// LINE_RATE it was built with, bytes/s.
    pub line_rate: u32,
    /// RATE_RULES, CONTROL and TRACE_DEPTH it was built with (spec 2).
    pub features: Features,
    pub description: String,
}

impl Variant {
    /// The parameters it was built with (the model of a run on it takes the same).
    pub fn params(&self) -> Result<Params, dcqcn_model::ParamError> {
        Params::new(self.data_bytes, self.clk_hz, self.line_rate)?.with_features(self.features)
    }
}

/// Every variant compiled into this binary.
pub fn variants() -> Vec<Variant> {
    bridge::variants()
        .into_iter()
        .map(|v| Variant {
            name: v.name,
            data_bytes: v.data_bytes,
            clk_hz: v.clk_hz,
            line_rate: v.line_rate,
            features: Features {
                rate_rules: v.rate_rules,
                control: v.control,
                trace_depth: v.trace_depth,
            },
            description: v.description,
        })
        .collect()
}

/// One Verilated instance.
pub struct Rtl {
    dut: cxx::UniquePtr<bridge::Dut>,
    variant: Variant,
    sample: Sample,
}

impl Rtl {
    /// A variant with every register starting at 0.
    pub fn new(variant: &str) -> Result<Rtl, CosimError> {
        Self::with_init(variant, 0)
    }

    /// A variant whose registers start at random values drawn from `init_seed` (0: all zero). The
    /// reset must bring every register to its spec value; the lockstep checks it.
    pub fn with_init(variant: &str, init_seed: u64) -> Result<Rtl, CosimError> {
        let info = variants()
            .into_iter()
            .find(|v| v.name == variant)
            .ok_or_else(|| CosimError::UnknownVariant {
                name: variant.to_string(),
                known: variants().into_iter().map(|v| v.name).collect(),
            })?;
        let dut = bridge::new_dut(variant, init_seed)
            .map_err(|e| CosimError::Verilator(e.what().to_string()))?;
        Ok(Rtl {
            dut,
            variant: info,
            sample: Sample::default(),
        })
    }

    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    /// Loads every register of spec 7 from the model's `state`, the trace's 64 entries included,
    /// between two cycles (spec 4.8).
    pub fn inject(&mut self, state: &State) {
        let s = state_sample(state);
        let mem: Vec<TraceSlot> = state
            .regs
            .trace
            .mem
            .iter()
            .map(|e| TraceSlot {
                kind: e.kind,
                rc: e.rc,
                stamp: e.stamp,
            })
            .collect();
        self.dut.pin_mut().inject(&s, &mem);
    }

    /// Whether each cycle copies a run of registers whole where the Verilated instance holds it in
    /// one piece (the default; see [`Sample`]), or every register field by field. Returns how
    /// many of the four runs (8, 16, 32, 64 bits) are now copied whole.
    pub fn copy_whole_runs(&mut self, allow: bool) -> u32 {
        self.dut.pin_mut().copy_whole_runs(allow)
    }

    /// The bridge record of the last step (the test of whole-run copies compares two).
    #[cfg(test)]
    pub(crate) fn sample(&self) -> &Sample {
        &self.sample
    }

    /// One clock cycle, its record returned.
    #[inline]
    pub fn step(&mut self, i: &Inputs) -> Snapshot {
        self.cycle(i);
        self.snapshot()
    }

    /// One clock cycle, its record kept in the instance: [`Rtl::matches`] compares it,
    /// [`Rtl::snapshot`] returns it (the lockstep's hot loop converts it only when it reports).
    #[inline]
    pub fn cycle(&mut self, i: &Inputs) {
        let p = ports(i);
        self.dut.pin_mut().step(&p, &mut self.sample);
    }

    /// Whether the record of the last cycle equals `model`'s, every field.
    #[inline]
    pub fn matches(&self, model: &Snapshot) -> bool {
        sample_matches(model, &self.sample)
    }

    /// The record of the last cycle: its outputs and every register after its edge.
    pub fn snapshot(&self) -> Snapshot {
        from_sample(&self.sample)
    }

    /// The bare C++ loop over pre-built inputs (benchmark only).
    pub fn run_bare(&mut self, inputs: &[PortsIn], repeat: u32) -> u64 {
        self.dut.pin_mut().run_bare(inputs, repeat)
    }
}

/// Model inputs as bridge ports.
#[inline]
pub fn ports(i: &Inputs) -> PortsIn {
    PortsIn {
        rst: i.rst,
        cnp: i.cnp,
        s_axis_tdata: i.s_axis.tdata,
        s_axis_tkeep: i.s_axis.tkeep,
        s_axis_tvalid: i.s_axis.tvalid,
        s_axis_tlast: i.s_axis.tlast,
        m_axis_tready: i.m_axis_tready,
        s_axil_awaddr: i.axil.awaddr,
        s_axil_awvalid: i.axil.awvalid,
        s_axil_wdata: i.axil.wdata,
        s_axil_wstrb: i.axil.wstrb,
        s_axil_wvalid: i.axil.wvalid,
        s_axil_bready: i.axil.bready,
        s_axil_araddr: i.axil.araddr,
        s_axil_arvalid: i.axil.arvalid,
        s_axil_rready: i.axil.rready,
    }
}

/// The registered port outputs of a state (`m_axis_*` from the output register, `s_axil_b*`/`r*`
/// from the response registers); the combinational handshakes are 0.
pub fn registered_outputs(s: &State) -> Outputs {
    Outputs {
        m_axis_tvalid: s.gate.m_valid,
        m_axis_tdata: s.gate.m_data,
        m_axis_tkeep: s.gate.m_keep,
        m_axis_tlast: s.gate.m_last,
        s_axil_bvalid: s.regs.axil.bvalid,
        s_axil_bresp: s.regs.axil.bresp,
        s_axil_rvalid: s.regs.axil.rvalid,
        s_axil_rdata: s.regs.axil.rdata,
        s_axil_rresp: s.regs.axil.rresp,
        ..Outputs::default()
    }
}

/// A model state as the bridge's record (what [`Rtl::inject`] loads).
fn state_sample(state: &State) -> Sample {
    to_sample(&Snapshot::from_model(&registered_outputs(state), state))
}

/// How a field of the record travels in the bridge's [`Sample`]: as itself, or a flag as a byte
/// (0 or 1, as the Verilated model stores a one-bit signal; see `Sample`).
trait Wire<W>: Copy {
    fn to_wire(self) -> W;
    fn from_wire(w: W) -> Self;
}

impl<T: Copy> Wire<T> for T {
    #[inline(always)]
    fn to_wire(self) -> T {
        self
    }
    #[inline(always)]
    fn from_wire(w: T) -> T {
        w
    }
}

impl Wire<u8> for bool {
    #[inline(always)]
    fn to_wire(self) -> u8 {
        u8::from(self)
    }
    #[inline(always)]
    fn from_wire(w: u8) -> bool {
        w != 0
    }
}

/// Whether the model's value `m` and the RTL's `w` are equal, compared as they travel (a flag
/// the RTL held at 2 would differ from the model's 1).
#[inline(always)]
fn same<T: Wire<W>, W: PartialEq>(m: T, w: W) -> bool {
    m.to_wire() == w
}

// [`Snapshot`] and the bridge's [`Sample`] have the same fields under the same names (spec 7): the
// model's list of them converts and compares the two. The conversions name every field of both
// structs, so a field missing from either does not build.
macro_rules! record_conversions {
    ($($f:ident),* $(,)?) => {
        /// The RTL's record as the model's type.
        #[inline]
        fn from_sample(s: &Sample) -> Snapshot {
            Snapshot { $($f: Wire::from_wire(s.$f),)* }
        }

        /// The model's record as the bridge's type.
        fn to_sample(n: &Snapshot) -> Sample {
            Sample { $($f: Wire::to_wire(n.$f),)* }
        }

        /// Whether every field of the two records is equal, without converting either: every
        /// field is compared (no early exit), the differences or-ed together.
        #[inline]
        fn sample_matches(m: &Snapshot, s: &Sample) -> bool {
            let mut differ = false;
            $( differ |= !same(m.$f, s.$f); )*
            !differ
        }

        /// Copies of `s`, each with one field changed (its lowest bit flipped), in list order.
        #[cfg(test)]
        fn one_field_changed(s: &Sample) -> Vec<(&'static str, Sample)> {
            vec![$({
                let mut c = *s;
                tests::Flip::flip(&mut c.$f);
                (stringify!($f), c)
            }),*]
        }
    };
}

dcqcn_model::with_snapshot_fields!(record_conversions);

#[cfg(test)]
mod tests {
    use super::*;
    use dcqcn_model::snapshot::FIELDS;

    /// A field's value with its lowest bit flipped.
    pub(super) trait Flip {
        fn flip(&mut self);
    }
    impl Flip for bool {
        fn flip(&mut self) {
            *self = !*self;
        }
    }
    macro_rules! flip_int {
        ($($t:ty),*) => {$(
            impl Flip for $t {
                fn flip(&mut self) {
                    *self ^= 1;
                }
            }
        )*};
    }
    flip_int!(u8, u16, u32, u64);
    impl Flip for [u64; 8] {
        fn flip(&mut self) {
            self[0] ^= 1;
        }
    }

    /// The per-cycle comparison sees a difference in any one field of the record, and every field
    /// of spec 7 is in the list.
    #[test]
    fn a_difference_in_any_field_is_a_mismatch() {
        let model = Snapshot::from_model(
            &Outputs::default(),
            &State::reset(&dcqcn_model::Params::DEFAULT),
        );
        let same = to_sample(&model);
        assert!(sample_matches(&model, &same));
        let changed = one_field_changed(&same);
        assert_eq!(changed.len(), FIELDS.len());
        for (name, rtl) in changed {
            assert!(
                !sample_matches(&model, &rtl),
                "a change of {name} went unseen"
            );
            assert_eq!(
                model.diff(&from_sample(&rtl)),
                vec![FIELDS.iter().position(|f| f.name == name).unwrap()],
                "{name}"
            );
        }
    }
}
