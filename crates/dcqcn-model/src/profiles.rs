//! The named configurations of spec 6.3 that are published parameter sets of other DCQCN
//! implementations, mapped onto this block's registers at the block's own clock and line rate
//! ([`Params`]), and [`NamedConfig`], every named configuration (`upstream-reset` and
//! `paper-table2` are `Config::reset` and `Config::paper_table2` in `config.rs`).
//!
//! Conversions used throughout (spec 6.3): a time becomes cycles at `p.clk_hz()` rounded half up;
//! a rate in Mb/s becomes bytes/s × 125,000; a 16-bit interval that does not fit saturates at
//! 65,535 (only at clocks above ~1.3 GHz). Fields not named keep their reset value
//! (`..Config::reset(p)`).

use crate::config::{self, Config};
use crate::params::Params;

/// The named configurations of spec 6.3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedConfig {
    UpstreamReset,
    PaperTable2,
    /// Zhu et al., SIGCOMM 2015 ([`dcqcn_sigcomm15`]).
    DcqcnSigcomm15,
    /// NVIDIA ConnectX defaults ([`nvidia_cx`]).
    NvidiaCx,
    /// The ns-3 simulator of HPCC ([`ns3_hpcc`]).
    Ns3Hpcc,
}

impl NamedConfig {
    pub const ALL: [NamedConfig; 5] = [
        NamedConfig::UpstreamReset,
        NamedConfig::PaperTable2,
        NamedConfig::DcqcnSigcomm15,
        NamedConfig::NvidiaCx,
        NamedConfig::Ns3Hpcc,
    ];

    pub fn name(self) -> &'static str {
        match self {
            NamedConfig::UpstreamReset => "upstream-reset",
            NamedConfig::PaperTable2 => "paper-table2",
            NamedConfig::DcqcnSigcomm15 => "dcqcn-sigcomm15",
            NamedConfig::NvidiaCx => "nvidia-cx",
            NamedConfig::Ns3Hpcc => "ns3-hpcc",
        }
    }

    pub fn from_name(name: &str) -> Option<NamedConfig> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    pub fn config(self, p: &Params) -> Config {
        match self {
            NamedConfig::UpstreamReset => Config::reset(p),
            NamedConfig::PaperTable2 => Config::paper_table2(p),
            NamedConfig::DcqcnSigcomm15 => dcqcn_sigcomm15(p),
            NamedConfig::NvidiaCx => nvidia_cx(p),
            NamedConfig::Ns3Hpcc => ns3_hpcc(p),
        }
    }
}

/// Bytes/s per Mb/s.
const MBPS: u64 = 125_000;

/// round(ns x f / 10^9), half up.
fn cycles(p: &Params, ns: u64) -> u64 {
    config::cycles(p, ns, 1_000_000_000)
}

/// A time as a 16-bit interval field (saturating).
fn cycles16(p: &Params, ns: u64) -> u16 {
    cycles(p, ns).min(u64::from(u16::MAX)) as u16
}

/// A time as the 32-bit increase interval (saturating; 32 bits hold 27 s at the highest clock).
fn cycles32(p: &Params, ns: u64) -> u32 {
    cycles(p, ns).min(u64::from(u32::MAX)) as u32
}

/// round(L x num / den), half up, as bytes/s.
fn of_line(p: &Params, num: u64, den: u64) -> u32 {
    ((u64::from(p.line_rate()) * num + den / 2) / den) as u32
}

/// `dcqcn-sigcomm15`: the reaction point of Zhu et al., "Congestion Control for Large-Scale RDMA
/// Deployments" (SIGCOMM 2015), with its published defaults.
///
/// | paper | value | here |
/// |---|---|---|
/// | g | 1/256 | `alpha_g` = 1024 − 4 = 1020 |
/// | K, alpha timer | 55 us | `alpha_interval` = round(55 us × f) (8,594 at 156.25 MHz) |
/// | cut | Rc (1 − α/2) | `dec_gain` = 1 |
/// | Rt ← Rc on every CNP | | `clamp_tgt` = 1 |
/// | T, increase timer | 55 us | `inc_interval` = round(55 us × f) (8,594) |
/// | B, byte counter | 10 MB | `byte_en` = 1, `byte_threshold` = 10,000,000 |
/// | F | 5 | `stage_threshold` = 5 (the paper compares T and BC after the event's increment, as we do) |
/// | R_AI | 40 Mb/s | `rai` = 5,000,000 B/s |
/// | R_HAI, added i × R_HAI, i = min(T, BC) − F | not given | `rhai` = 400 Mb/s = 50,000,000 B/s (10 × R_AI, QCN's ratio), `hai_mult` = 1 |
/// | N, CNP spacing of the notification point | 50 us | `dec_interval` = round(50 us × f) (7,813) |
/// | initial α | 1 | `alpha_init` = 1023 |
///
/// The paper's reaction point cuts on every CNP and has no cooldown of its own; its notification
/// point sends at most one CNP per flow per 50 us, so a 50 us cooldown cuts once per CNP for every
/// stream the paper's notification point can send (faster streams are coalesced to that rate). The
/// paper updates α at the CNP and restarts the alpha timer; this block folds the CNP into the next
/// alpha period (spec 4.3), the same value one period boundary later. rmin: the paper gives none
/// (reset value, 10 MB/s).
pub fn dcqcn_sigcomm15(p: &Params) -> Config {
    Config {
        alpha_g: 1020,
        dec_gain: 1,
        stage_threshold: 5,
        clamp_tgt: true,
        rai: (40 * MBPS) as u32,
        rhai: (400 * MBPS) as u32,
        inc_interval: cycles32(p, 55_000),
        dec_interval: cycles16(p, 50_000),
        alpha_interval: cycles16(p, 55_000),
        timer_en: true,
        byte_en: true,
        byte_threshold: 10_000_000,
        hai_mult: true,
        alpha_init: 1023,
        ..Config::reset(p)
    }
}

/// `nvidia-cx`: the NVIDIA ConnectX reaction-point defaults (MLNX_OFED / firmware names), mapped
/// by the rules of spec 6.2 and 6.3.
///
/// | NVIDIA | default | here (156.25 MHz, L = 10 Gb/s) |
/// |---|---|---|
/// | `dce_tcp_g` | 1019 | `alpha_g` = 1019 (same Q0.10 weight of the old α) |
/// | `dce_tcp_rtt` (α period) | 1 us | `alpha_interval` = round(1 us × f) = 156 (156.25: the period is 0.16 % short) |
/// | `initial_alpha_value` | 1023 | `alpha_init` = 1023 |
/// | `rpg_gd` | 11 | `dec_gain` = rpg_gd − 10 = 1 (cut Rc·α / 2^11, α in 1/1024: exact) |
/// | `rpg_min_dec_fac` | 50 % | `min_dec_fac` = round(1024 × 50 / 100) = 512 |
/// | `rpg_min_rate` | 1 Mb/s | `rmin` = 125,000 B/s |
/// | `rate_reduce_monitor_period` | 4 us | `dec_interval` = round(4 us × f) = 625 |
/// | `rate_to_set_on_first_cnp` | 0 (= 85 % of line rate) | `rate_first_cnp` = round(0.85 L) = 1,062,500,000 B/s |
/// | `clamp_tgt_rate` / `clamp_tgt_rate_after_time_inc` | 0 / 1 | `clamp_tgt` = 0 (our 0 is the after-increase rule) |
/// | `rpg_time_reset` | 300 us | `inc_interval` = round(300 us × f) = 46,875 |
/// | `rpg_byte_reset` | 32,767 (64 B units) | `byte_en` = 1, `byte_threshold` = 2,097,088 |
/// | `rpg_threshold` | 1 | `stage_threshold` = rpg_threshold + 1 = 2 |
/// | `rpg_ai_rate` / `rpg_hai_rate` | 5 / 50 Mb/s | `rai` = 625,000, `rhai` = 6,250,000 B/s, `hai_mult` = 0 |
/// | `rpg_max_rate` | 0 (= line rate) | `rmax` = 0 |
///
/// Not exact on this block (the closest register values above):
/// - `rate_reduce_monitor_period`: NVIDIA checks for a CNP every 4 us and cuts at the check; this
///   block cuts at the CNP when 4 us have passed since the last cut (a cooldown). Both cut at most
///   once per 4 us; a cut comes up to 4 us earlier here.
/// - `rate_to_set_on_first_cnp`: NVIDIA's first CNP sets Rc and Rt to that rate and cuts nothing;
///   here it sets Rc, and Rt stays at L (spec 4.4), so the recovery after the first CNP aims at L
///   until the first decrease that clamps Rt. NVIDIA documents 0 as "85 % of line rate" (older
///   firmware: half).
/// - `rpg_threshold`: NVIDIA compares the stage counts before the event's own increment, this
///   block after it (spec 4.5), hence + 1. Exact with one trigger or while the byte counter has
///   not fired; with both triggers the count of the trigger that did not fire is compared one
///   higher than NVIDIA's.
/// - α: this block rounds α·g/1024 half up (spec 4.3), so with no CNP α stays at floor(512/5) =
///   102 (≈ 0.1) where NVIDIA's documented update decays on towards 0.
pub fn nvidia_cx(p: &Params) -> Config {
    Config {
        alpha_g: 1019,
        dec_gain: 1,
        stage_threshold: 2,
        clamp_tgt: false,
        rai: (5 * MBPS) as u32,
        rhai: (50 * MBPS) as u32,
        rmin: MBPS as u32,
        inc_interval: cycles32(p, 300_000),
        dec_interval: cycles16(p, 4_000),
        alpha_interval: cycles16(p, 1_000),
        timer_en: true,
        byte_en: true,
        byte_threshold: 32_767 * 64,
        rmax: 0,
        rate_first_cnp: of_line(p, 85, 100),
        alpha_init: 1023,
        min_dec_fac: 512,
        hai_mult: false,
        ..Config::reset(p)
    }
}

/// `ns3-hpcc`: DCQCN as the ns-3 simulator of HPCC (Li et al., SIGCOMM 2019; `rdma-hw.cc`, the
/// "Mellanox" mode) runs it in that repository's DCQCN experiments (`run.py --cc dcqcn`).
///
/// | ns-3 | value | here |
/// |---|---|---|
/// | `EWMA_GAIN` g | 1/256 | `alpha_g` = 1020 |
/// | `ALPHA_RESUME_INTERVAL` | 1 us | `alpha_interval` = round(1 us × f) = 156 |
/// | `RATE_DECREASE_INTERVAL` | 4 us | `dec_interval` = 625 |
/// | `RP_TIMER` | 300 us | `inc_interval` = 46,875 |
/// | `FAST_RECOVERY_TIMES` | 1 | `stage_threshold` = 1 + 1 = 2 |
/// | `CLAMP_TARGET_RATE` | 0 | `clamp_tgt` = 0 (ns-3 then clamps only if the stage is non-zero: our rule) |
/// | `RATE_AI` | 5 Mb/s × bw / 25 Gb/s | `rai` = round(L / 5000) (250,000 B/s at 10 Gb/s) |
/// | `RATE_HAI` | 50 Mb/s × bw / 25 Gb/s | `rhai` = round(L / 500) (2,500,000 B/s), `hai_mult` = 0 |
/// | `MIN_RATE` | 1000 Mb/s | `rmin` = 125,000,000 B/s |
/// | cut | Rc (1 − α/2) | `dec_gain` = 1 |
/// | increase triggers | timer only | `timer_en` = 1, `byte_en` = 0 |
/// | `RateOnFirstCnp` | 1.0 (no change) | `rate_first_cnp` = 0 |
/// | α at the first CNP | 1 | `alpha_init` = 1023 |
///
/// ns-3 scales R_AI and R_HAI with the NIC's bandwidth (the values above are its 25 Gb/s ones);
/// they are scaled to this block's L. ns-3 compares the stage before the event's own increment
/// (`stage < F` fast recovery), this block after it, hence F + 1. Not exact on this block: ns-3
/// checks for a CNP every 4 us (a grid started by the first CNP) and cuts at the check, this block
/// at the CNP once 4 us have passed since the last cut; in particular ns-3's first cut comes one
/// check after the first CNP, with α already decayed 4 times from 1 (0.984), so ours, with 1023,
/// is 1.5 % deeper. Starting α at 1008 instead would make that cut exact but leave α 16/1024 below
/// ns-3's for the next cuts, which measured worse (`tests/profiles.rs`: 2.6 % against 1.4 %).
pub fn ns3_hpcc(p: &Params) -> Config {
    Config {
        alpha_g: 1020,
        dec_gain: 1,
        stage_threshold: 2,
        clamp_tgt: false,
        rai: of_line(p, 1, 5_000),
        rhai: of_line(p, 1, 500),
        rmin: (1_000 * MBPS) as u32,
        inc_interval: cycles32(p, 300_000),
        dec_interval: cycles16(p, 4_000),
        alpha_interval: cycles16(p, 1_000),
        timer_en: true,
        byte_en: false,
        hai_mult: false,
        rate_first_cnp: 0,
        alpha_init: 1023,
        ..Config::reset(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_at_the_default_parameters() {
        let p = Params::DEFAULT;
        let s = dcqcn_sigcomm15(&p);
        assert_eq!(
            (s.inc_interval, s.alpha_interval, s.dec_interval),
            (8_594, 8_594, 7_813)
        );
        assert_eq!(
            (s.rai, s.rhai, s.byte_threshold),
            (5_000_000, 50_000_000, 10_000_000)
        );
        let n = nvidia_cx(&p);
        assert_eq!(
            (n.inc_interval, n.alpha_interval, n.dec_interval),
            (46_875, 156, 625)
        );
        assert_eq!(
            (n.rai, n.rhai, n.rmin, n.rate_first_cnp, n.byte_threshold),
            (625_000, 6_250_000, 125_000, 1_062_500_000, 2_097_088)
        );
        let h = ns3_hpcc(&p);
        assert_eq!((h.rai, h.rhai, h.rmin), (250_000, 2_500_000, 125_000_000));
        assert_eq!((h.stage_threshold, h.alpha_interval), (2, 156));
        for c in [s, n, h] {
            assert_eq!(c.out_of_range(), None);
        }
    }

    #[test]
    fn intervals_saturate_at_fast_clocks() {
        let p = Params::new(8, 4_000_000_000, 1_250_000_000).unwrap();
        assert_eq!(dcqcn_sigcomm15(&p).dec_interval, u16::MAX);
        assert_eq!(nvidia_cx(&p).alpha_interval, 4_000);
    }
}
