//! The one shape every block of the model has, mirroring one RTL module each.
//!
//! An RTL module is registers, one combinational process that computes the module's outputs and
//! the registers' next values from the registers and the module's inputs, and one clocked process.
//! A model block is the same three things:
//!
//! - the state struct (the module's registers) and its reset value, [`Block::reset`];
//! - [`Block::comb`]: the combinational outputs of a cycle (the module's output ports and the events
//!   other blocks or the counters read), a pure function of the registers, the block's inputs
//!   ([`Block::In`], the module's input ports) and the configuration;
//! - [`Block::next`]: the clock edge, in place: the registers after the edge, from the registers
//!   before it, the same inputs and the outputs `comb` computed. Every right-hand side reads values
//!   from before the edge.
//!
//! [`crate::RateLimiter`] composes the blocks as `dcqcn_rl` wires the modules: every `comb` first,
//! from the registers of the cycle, then every `next`. So no block's `next` can see another
//! block's new value, and the order of the `next` calls does not matter.

use crate::{Config, Params};

/// A block of the model: one RTL module (see the module documentation).
pub trait Block: Copy {
    /// The block's input ports for one cycle (other blocks' registers and outputs, top-level
    /// ports). Configuration fields come from [`Config`] instead.
    type In<'a>;
    /// The block's combinational outputs and events of one cycle.
    type Out: Copy;

    /// The registers after reset (spec 4.0: a reset cycle loads these).
    fn reset(p: &Params) -> Self;

    /// The combinational outputs of this cycle.
    fn comb(&self, i: &Self::In<'_>, cfg: &Config, p: &Params) -> Self::Out;

    /// The clock edge: the registers after it, in place (not called in a reset cycle).
    fn next(&mut self, i: &Self::In<'_>, o: &Self::Out, cfg: &Config, p: &Params);

    /// `next` as a pure function (for tests and readers).
    fn after(&self, i: &Self::In<'_>, o: &Self::Out, cfg: &Config, p: &Params) -> Self {
        let mut n = *self;
        n.next(i, o, cfg, p);
        n
    }
}
