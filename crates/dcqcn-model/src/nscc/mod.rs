//! Ultra Ethernet NSCC (Network-Signaled Congestion Control, the UET sender's window-based
//! congestion control), issue 30: the second algorithm for the multi-QP engine (spec-mq 4.9).
//!
//! - `fixed`: the block's per-flow arithmetic in fixed point, bit for bit as docs/spec-nscc.md
//!   writes it (the ACK process's execution of one event, the init record, the send test, the
//!   registers and their derivation for a network).
//! - `reference`: an independent floating-point rendering of the UE 1.0 pseudocode (sections
//!   3.6.12-3.6.13), written from restated facts, not from the block; `tests/nscc_tracking.rs`
//!   holds `fixed` to it (spec-nscc 11).

pub mod fixed;
pub mod reference;
pub mod regmap;
