//! The scenarios run against the upstream block ([`scenarios`]) and their register words.

use super::common::{SurfError, DATA_BYTES};
use dcqcn_model::{Config, Params};
use dcqcn_stim::stimulus::{
    AxilSpec, CnpSpec, DataPattern, PeriodicWrite, ResetSpec, SinkSpec, StimulusSpec, TrafficSpec,
    WriteMode,
};

/// Register word 0x000 of the upstream block: alphaG [9:0], dec_gain [13:10], T [21:14],
/// clampTgtRate [22].
pub fn word0(alpha_g: u32, dec_gain: u32, t: u32, clamp: bool) -> u32 {
    (alpha_g & 0x3FF) | (dec_gain & 0xF) << 10 | (t & 0xFF) << 14 | u32::from(clamp) << 22
}

/// Register word 0x014: rateDecInterval [15:0], alphaUpdInterval [31:16].
pub fn word_intervals(nd: u32, na: u32) -> u32 {
    (nd & 0xFFFF) | (na & 0xFFFF) << 16
}

/// A named run against the upstream block.
#[derive(Clone, Debug)]
pub struct SurfScenario {
    pub name: &'static str,
    pub description: &'static str,
    pub stimulus: StimulusSpec,
    /// Upstream register writes (address, data) after each reset.
    pub writes: Vec<(u16, u32)>,
    /// Cycles in which `cnp` is driven high on top of the stimulus's CNP source (single CNPs at
    /// known cycles).
    pub cnp_at: Vec<u64>,
    pub default_cycles: u64,
}

/// The parameters of every SURF run: 32-byte beats, 156.25 MHz, 1.25e9 B/s.
pub fn params() -> Params {
    Params::with_data_bytes(DATA_BYTES).expect("32-byte beats are legal")
}

fn quiet() -> StimulusSpec {
    StimulusSpec {
        config: Config::reset(&params()),
        traffic: None,
        sink: SinkSpec::Always,
        cnp: CnpSpec::None,
        axil: AxilSpec::config_only(),
        resets: ResetSpec {
            initial_cycles: 8,
            mean_interval: 0,
            width: (1, 1),
        },
    }
}

fn traffic(lo: u32, hi: u32) -> TrafficSpec {
    TrafficSpec {
        frame_bytes: (lo, hi),
        gap_cycles: (0, 0),
        valid_prob: 1.0,
        sparse_last_keep: false,
        data: DataPattern::Ramp,
    }
}

fn periodic_cnp(period: u64) -> CnpSpec {
    CnpSpec::Periodic { period, width: 1 }
}

/// The recorded scenarios (docs/surf-lockstep.md lists what each covers).
pub fn scenarios() -> Vec<SurfScenario> {
    const W0: u16 = 0x000;
    const INC: u16 = 0x010;
    const INTV: u16 = 0x014;
    const ALPHA_CNP: u16 = 0x020;
    const BYPASS: u16 = 0x024;
    let reset_word0 = word0(0x3FC, 1, 5, false);
    vec![
        SurfScenario {
            name: "first-cnp",
            description: "reset values, saturating 32 B frames, one CNP at cycle 40: Rc 625,610,352 at c+9+Nd, the token rate after it",
            stimulus: StimulusSpec {
                traffic: Some(traffic(32, 32)),
                ..quiet()
            },
            cnp_at: vec![40],
            writes: vec![],
            default_cycles: 800,
        },
        SurfScenario {
            name: "blind-windows",
            description: "Nd = 20, Na = 30, random CNP pulses of 1-2 cycles: CNPs in the decrease and alpha blind windows",
            stimulus: StimulusSpec {
                traffic: Some(traffic(32, 160)),
                cnp: CnpSpec::Random {
                    prob: 0.06,
                    max_width: 2,
                },
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![(INTV, word_intervals(20, 30)), (INC, 400)],
            default_cycles: 1_500,
        },
        SurfScenario {
            name: "alpha-wrap",
            description: "G = 512, Na = 12, Nd = 9, a CNP every 40 cycles: alpha 1023 -> 0 -> 512 ...",
            stimulus: StimulusSpec {
                cnp: periodic_cnp(40),
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![(W0, word0(512, 1, 5, false)), (INTV, word_intervals(9, 12))],
            default_cycles: 800,
        },
        SurfScenario {
            name: "t0",
            description: "T = 0, Ni = 3, Nd = 8: one CNP at 20, then 255 fast-recovery steps, an additive one, fast recovery again",
            stimulus: quiet(),
            cnp_at: vec![20],
            writes: vec![(W0, word0(0x3FC, 1, 0, false)), (INC, 3), (INTV, word_intervals(8, 0x2192))],
            default_cycles: 1_700,
        },
        SurfScenario {
            name: "l1-convergence",
            description: "reset T, Ni = 4, Nd = 10: one CNP at 20, recovery converges to L - 1 and stays there",
            stimulus: StimulusSpec {
                traffic: Some(traffic(64, 64)),
                ..quiet()
            },
            cnp_at: vec![20],
            writes: vec![(INC, 4), (INTV, word_intervals(10, 0x2192))],
            default_cycles: 700,
        },
        SurfScenario {
            name: "bypass",
            description: "bypass toggled every 500 cycles under CNPs every 97 cycles, Nd = 15, Na = 25, Ni = 60",
            stimulus: StimulusSpec {
                traffic: Some(traffic(32, 96)),
                cnp: periodic_cnp(97),
                axil: AxilSpec {
                    periodic: vec![PeriodicWrite {
                        period: 500,
                        addr: BYPASS,
                        values: vec![0, 1],
                    }],
                    ..AxilSpec::config_only()
                },
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![(INTV, word_intervals(15, 25)), (INC, 60), (BYPASS, 1)],
            default_cycles: 1_500,
        },
        SurfScenario {
            name: "first-frame-free",
            description: "back-to-back 4096 B frames from reset: the first passes uncharged, the rest wait for tokens",
            stimulus: StimulusSpec {
                traffic: Some(traffic(4096, 4096)),
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![],
            default_cycles: 1_100,
        },
        SurfScenario {
            name: "size-fifo-overflow",
            description: "full-rate frames of 32-256 B: more than 63 complete frames queue, sizes are dropped and frames charged with others' sizes",
            stimulus: StimulusSpec {
                traffic: Some(TrafficSpec {
                    data: DataPattern::Random,
                    ..traffic(32, 256)
                }),
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![],
            default_cycles: 1_500,
        },
        SurfScenario {
            name: "cnpcntrst",
            description: "cnpCntRst written 1, 1, 0, 1 (only 0 -> 1 clears) under CNPs every 23 cycles",
            stimulus: StimulusSpec {
                cnp: periodic_cnp(23),
                axil: AxilSpec {
                    read_prob: 0.02,
                    periodic: vec![PeriodicWrite {
                        period: 150,
                        addr: ALPHA_CNP,
                        values: vec![0x400, 0x400, 0, 0x400],
                    }],
                    ..AxilSpec::config_only()
                },
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![(INTV, word_intervals(30, 50))],
            default_cycles: 1_000,
        },
        SurfScenario {
            name: "decerr-strobes",
            description: "random reads and writes, any data and strobes, unmapped and read-only words, slow bready/rready",
            stimulus: StimulusSpec {
                traffic: Some(traffic(32, 128)),
                sink: SinkSpec::Random { ready_prob: 0.7 },
                cnp: CnpSpec::Random {
                    prob: 0.01,
                    max_width: 3,
                },
                axil: AxilSpec {
                    read_prob: 0.08,
                    write_prob: 0.06,
                    write_mode: WriteMode::Any,
                    decerr: true,
                    bready_prob: 0.6,
                    rready_prob: 0.6,
                    periodic: vec![],
                    rule_words: false,
                    scheme_words: false,
                    trace_words: false,
                },
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![(INTV, word_intervals(25, 40)), (W0, reset_word0)],
            default_cycles: 1_500,
        },
    ]
}

pub fn scenario(name: &str) -> Result<SurfScenario, SurfError> {
    scenarios()
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| SurfError::UnknownScenario {
            name: dcqcn_cosim::clip(name),
            known: scenarios().iter().map(|s| s.name.to_string()).collect(),
        })
}
