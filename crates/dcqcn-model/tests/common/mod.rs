//! Stimulus shared by the model's integration tests.

use dcqcn_model::{AxisIn, Inputs, DATA_WORDS};

/// A saturating source of full 8-byte beats, downstream always ready, the CNP input at `cnp`.
pub fn saturating(cnp: bool) -> Inputs {
    Inputs {
        cnp,
        s_axis: AxisIn {
            tdata: [0; DATA_WORDS],
            tkeep: 0xFF,
            tvalid: true,
            tlast: false,
        },
        m_axis_tready: true,
        ..Inputs::default()
    }
}
