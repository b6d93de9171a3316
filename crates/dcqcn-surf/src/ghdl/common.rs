//! What every part of the bridge shares: the upstream files it needs, our bridge's VHDL, the
//! recorded format's name, the probed signals, the records of one cycle and the error.

use dcqcn_model::Outputs;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Beat width of the upstream wrapper (its `S_AXIS_TDATA` is 256 bits).
pub const DATA_BYTES: u32 = 32;
/// Line 1 of a recorded set's `vectors.txt` (docs/surf-lockstep.md: the golden format with the
/// upstream wrapper's ports and four registers).
pub const FORMAT: &str = "dcqcn-golden-surf 1";
/// Our bridge around the wrapper (built into the binary: the build needs no repository checkout).
pub const BRIDGE_VHDL: &str = include_str!("../../../../testbench/surf/surf_tb.vhd");
/// GHDL analysis flags: SURF CI's.
pub const GHDL_FLAGS: [&str; 4] = ["--std=08", "-fsynopsys", "-frelaxed-rules", "-fexplicit"];

/// Files a SURF checkout has (the base library the block stands on).
pub const BASE_FILES: &[&str] = &[
    "base/general/rtl/StdRtlPkg.vhd",
    "axi/axi-stream/rtl/AxiStreamPkg.vhd",
    "axi/axi-lite/rtl/AxiLitePkg.vhd",
    "protocols/ssi/rtl/SsiPkg.vhd",
    "axi/axi-stream/rtl/AxiStreamFifoV2.vhd",
    "axi/axi-stream/rtl/AxiStreamMon.vhd",
    "base/fifo/rtl/inferred/FifoSync.vhd",
    "base/sync/rtl/SynchronizerEdge.vhd",
    "base/sync/rtl/SynchronizerOneShotCnt.vhd",
    "axi/axi-lite/ip_integrator/SlaveAxiLiteIpIntegrator.vhd",
];

/// The stream monitor the block's token bucket instantiates (a base file).
pub const MONITOR_FILE: &str = "axi/axi-stream/rtl/AxiStreamMon.vhd";
/// The block file that instantiates [`MONITOR_FILE`].
pub const TOKEN_BUCKET_FILE: &str = "ethernet/RoCEv2/rtl/RoCEv2TokenBucket.vhd";

/// The block's own files and its wrapper.
pub const BLOCK_FILES: &[&str] = &[
    "ethernet/RoCEv2/rtl/RoCEv2Pkg.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2Dcqcn.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2RateDecProc.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2RateIncProc.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2AlphaUpdate.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2TokenBucket.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2TokenCalc.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2AxisBucket.vhd",
    "ethernet/RoCEv2/wrappers/RoCEv2DcqcnWrapper.vhd",
];

/// Directories of the checkout whose VHDL files are offered to GHDL (`ghdl -i`; `ghdl -m` then
/// analyses only what the wrapper needs).
pub(super) const SOURCE_DIRS: &[&str] = &["base", "axi", "protocols/ssi", "dsp/generic"];

/// The signals inside the block that hold the four registers, as the waveform dump names them
/// (lower case): Rc, Rt and alpha are wired to the decrease process's ports, the CNP counter is
/// the counter's output (the register 0x020 holds it one cycle later).
pub(super) const PROBES: [&str; 4] = [
    "/surf_tb/u_dut/u_dut/ratedecproc_1/currc",
    "/surf_tb/u_dut/u_dut/ratedecproc_1/currt",
    "/surf_tb/u_dut/u_dut/ratedecproc_1/alpha",
    "/surf_tb/u_dut/u_dut/cnpcnt",
];

/// Bad input, a failed build, or a simulator that misbehaved.
#[derive(Debug, Error)]
pub enum SurfError {
    #[error("--surf-dir {}: no such directory", path.display())]
    Missing { path: PathBuf },
    #[error("--surf-dir {}: not a directory", path.display())]
    NotADirectory { path: PathBuf },
    #[error("--surf-dir {}: not a SURF checkout: missing {}", path.display(), missing.join(", "))]
    NotSurf { path: PathBuf, missing: Vec<String> },
    #[error("--surf-dir {}: this SURF has no RoCEv2Dcqcn block (a version from before it?): missing {}", path.display(), missing.join(", "))]
    NoBlock { path: PathBuf, missing: Vec<String> },
    #[error("--surf-dir {}: {MONITOR_FILE} has no `frameUpdate` output port, which {TOKEN_BUCKET_FILE} connects (this AxiStreamMon is older than the block; slaclab/surf 76a87cf18ca581cd6f938490a0bca8af1d4e394d has the port): GHDL could not elaborate the block", path.display())]
    OldMonitor { path: PathBuf },
    #[error(
        "GHDL not found (`{ghdl}`): install it with scripts/deps.sh, or name it with GHDL=..."
    )]
    NoGhdl { ghdl: String },
    #[error("{what} failed (exit {code}); GHDL's output: {}", log.display())]
    Build {
        what: String,
        code: i32,
        log: PathBuf,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("simulator, cycle {cycle}: {what} (its messages: {})", log.display())]
    Sim {
        cycle: u64,
        what: String,
        log: PathBuf,
    },
    #[error("unknown SURF scenario `{name}` (known: {})", known.join(", "))]
    UnknownScenario { name: String, known: Vec<String> },
    #[error("upstream drove {field} = {value} (not 0/1) in cycle {cycle}: cannot record it")]
    Undefined {
        cycle: u64,
        field: &'static str,
        value: String,
    },
    #[error("internal: the replay of the stimulus and the model differs from the run in cycle {cycle} (a stimulus that reads an output the lockstep does not compare?)")]
    Replay { cycle: u64 },
    #[error("internal: cycle {cycle} is not held for the report (held: {first}..{end})")]
    Lost { cycle: u64, first: u64, end: u64 },
}

pub(super) fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> SurfError + '_ {
    move |source| SurfError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The wrapper's outputs in one cycle, and the fields that were not 0/1 there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ports {
    pub out: Outputs,
    /// Output fields with a bit that was not 0 or 1 (U, X, ...).
    pub undefined: Vec<&'static str>,
}

/// Rc, Rt, alpha and the CNP counter register (0x020[26:11]) in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Regs {
    pub rc: u32,
    pub rt: u32,
    pub alpha: u16,
    pub cnp_cnt: u16,
}
