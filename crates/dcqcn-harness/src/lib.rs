//! What surrounds the DCQCN model in a run, shared by the lockstep (`dcqcn-cosim`), the network
//! simulation (`dcqcn-net`) and the `dcqcn` command.
//!
//! - [`units`]: human units (`6MB/s`, `2ms`, `1MiB`, `1/256`) to register values, exactly;
//! - [`config_file`]: register configuration files (TOML) with file, line and field in every error;
//! - [`rng`]: the seeded random stream every stimulus and the network switch draw from;
//! - [`emulated_switch`]: the paper's emulated switch (sliding-window byte monitor and CNP pulse).
//!
//! The model itself (`dcqcn-model`) reads no files, parses no user text and draws no random
//! numbers; everything of that kind lives here.

pub mod config_file;
pub mod emulated_switch;
pub mod rng;
pub mod units;
