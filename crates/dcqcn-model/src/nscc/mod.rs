//! Ultra Ethernet NSCC (Network-Signaled Congestion Control, the UET sender's window-based
//! congestion control), issue 30: the second algorithm for the multi-QP engine (spec-mq 4.9).
//!
//! `reference` is an independent floating-point rendering of the UE 1.0 pseudocode (sections
//! 3.6.12-3.6.13), written from restated facts, not from the block: the fixed-point per-flow
//! engine is checked against it.

pub mod reference;
