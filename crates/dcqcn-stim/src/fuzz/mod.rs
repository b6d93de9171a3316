//! Fuzz cases on the model's side: the proptest strategies and the [`Case`] they compose
//! ([`strategy`]), case number n of a campaign ([`case_at`]), and the saved form of a case with its
//! bounds ([`saved`]); the multi-QP block's cases and their saved form ([`mq`]). `dcqcn_cosim::fuzz`
//! runs them model-vs-RTL.

pub mod mq;
pub mod saved;
pub mod strategy;

pub use saved::{
    load_case, parse_case, read_bounded, save_case, SavedCase, MAX_CASE_BYTES, MAX_CASE_CYCLES,
    MAX_FRAME_BYTES, MAX_PERIODIC_VALUES, MAX_WINDOW_CYCLES, SAVED_CASE_FORMAT,
};
pub use strategy::{
    axil, case, case_at, case_tree, cnp, config, config_any, config_realistic, resets, rules,
    scheme, sink, stimulus, trace, traffic, Case, INJECTED_SHARE,
};
