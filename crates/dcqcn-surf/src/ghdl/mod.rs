//! The upstream SURF block (`RoCEv2Dcqcn`, through SURF's own flat wrapper `RoCEv2DcqcnWrapper`)
//! from a user's SURF checkout, simulated per cycle by GHDL and driven by our stimulus sources at
//! 32-byte beats, closed loop: `dcqcn cosim --rtl surf` and `dcqcn surf record`.
//!
//! - [`check_tree`]: is the directory a SURF checkout with the block, and is its stream monitor
//!   recent enough for the block (else an error naming what is missing);
//! - [`build`]: analyses the checkout's files with GHDL (SURF CI's flags) into a build directory of
//!   ours and elaborates our bridge `testbench/surf/surf_tb.vhd` around the wrapper. Nothing is
//!   written into the checkout, and no upstream file is copied or changed;
//! - [`SurfSim`]: the running simulation, one text line each way per cycle (the protocol is in
//!   the bridge's header); Rc, Rt, alpha and the CNP counter come from the simulator's waveform
//!   dump of four signals inside the block, so the register bus is not used for them;
//! - [`scenarios`]: the recorded scenarios; [`record`]: a vector set of every port every cycle and
//!   the four registers, in the golden format's variant [`FORMAT`] ([`fields`]);
//! - [`lockstep`]: the same run against [`crate::model::SurfLimiter`], every output port and
//!   the four registers compared every cycle, with a mismatch report, JSON and a waveform window
//!   like `dcqcn cosim`'s.
//!
//! Why GHDL simulation and not `ghdl --synth` to Verilator (what the VHDL twin uses): GHDL 2.0
//! cannot synthesise the unmodified upstream closure (docs/surf-lockstep.md has the command and
//! its error), and the user's tree is not ours to patch.

mod common;
mod dump;
pub mod late;
mod lockstep;
mod record;
mod scenarios;
mod scratch;
mod sim;
mod tree;

pub use common::*;
pub use dump::{Dump, ProbeReader, RegStream};
pub use late::{Cycle, Row, Window};
pub use lockstep::*;
pub use record::*;
pub use scenarios::*;
pub use scratch::Scratch;
pub use sim::*;
pub use tree::*;
