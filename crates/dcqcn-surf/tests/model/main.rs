//! The upstream (SURF `RoCEv2Dcqcn`) model at its ports: every rate-side number of
//! ../shared/reference/surf-rocev2dcqcn-facts.md (sections 1-3, 5, 6), driven through the pins
//! (`cnp`, `rst`, AXI4-Lite writes and reads) and observed through the AXI4-Lite reads and the
//! probe (the register values during each cycle). Cycle numbers follow the facts: "cnp at cycle c"
//! is the pin high in the c-th stepped cycle; "Rc at cycle x" is the value during cycle x (the probe
//! after step x - 1).
//!
//! Tests named `defect_*` are the reproducers of docs/surf-upstream.md: each runs the same stimulus
//! on our block's model and shows the difference.

mod arithmetic;
mod bench;
mod cnp;
mod defects;
mod frames;
mod regmap;
