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
pub mod report;
pub mod rng;
pub mod units;

/// Characters of a user's value that an error message repeats; the rest is elided.
pub const CLIP_CHARS: usize = 64;

/// `s` as an error message quotes it: at most [`CLIP_CHARS`] characters, then how much was left
/// out (a 10 MB value in a file must not come back whole on stderr).
pub fn clip(s: &str) -> String {
    clip_to(s, CLIP_CHARS)
}

/// `s` cut after `max` characters, saying how long it was.
pub fn clip_to(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}... ({} bytes in all)", &s[..cut], s.len()),
    }
}

/// A parser's message (TOML, JSON) as shown: such messages quote the bad value whole.
pub fn clip_message(s: &str) -> String {
    clip_to(s, 300)
}

#[cfg(test)]
mod tests {
    #[test]
    fn clip_keeps_short_values_and_cuts_long_ones() {
        assert_eq!(super::clip("1/256"), "1/256");
        let long = "9".repeat(10_000_000);
        let c = super::clip(&long);
        assert!(c.starts_with(&"9".repeat(64)) && c.ends_with("... (10000000 bytes in all)"));
        assert!(c.len() < 100, "{c}");
        let wide = "é".repeat(100);
        assert_eq!(
            super::clip(&wide).chars().take_while(|&c| c == 'é').count(),
            64
        );
    }
}
