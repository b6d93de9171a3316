//! The upstream SURF line: SURF's `RoCEv2Dcqcn` block, kept apart from our block.
//!
//! - [`model`]: the bit-exact, cycle-accurate model of the upstream block at its wrapper's ports
//!   (always built; the network simulation's `surf` profile steps it);
//! - [`ghdl`] (feature `ghdl`, on by default): the user's SURF checkout checked, built and run by
//!   GHDL through our bridge, the scenarios, the recorded vector sets and the lockstep against
//!   [`model`];
//! - [`golden`] (feature `ghdl`): the recorded sets of golden/surf/ replayed on [`model`] and
//!   verified (`dcqcn golden verify golden/surf`);
//! - [`verbs`] (feature `ghdl`): the work of `dcqcn surf record|scenarios` and
//!   `dcqcn cosim --rtl surf` (the command line's types stay in dcqcn-cli).
//!
//! It depends on `dcqcn-model` (the port types) and, for everything but the model, on
//! `dcqcn-cosim` (the golden format and the lockstep's report rows); nothing depends back.

pub mod model;

#[cfg(feature = "ghdl")]
pub mod ghdl;
#[cfg(feature = "ghdl")]
pub mod golden;
#[cfg(feature = "ghdl")]
pub mod verbs;
