//! The names and parameters of the RTL variants that crates/dcqcn-cosim/build.rs verilates: the
//! clock and line-rate sets ([`Rates`]) and the HDL ([`Hdl`]). Plain data: a case or a scenario
//! names its variant here without the Verilated models being built.

use dcqcn_model::Params;

/// The clock and line-rate sets built as variants (crates/dcqcn-cosim/build.rs): the default
/// (10 GbE at 156.25 MHz, every beat width) and, at 8-byte beats, the others, each a fuzz dimension.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Rates {
    /// 10 GbE, L = 1,250,000,000 B/s, at 156.25 MHz (variants `w8`, `w32`, `w64`).
    #[default]
    #[serde(rename = "10g")]
    TenG,
    /// 1 GbE, L = 125,000,000 B/s, at 125 MHz (`w8-1g`).
    #[serde(rename = "1g")]
    OneG,
    /// 25 GbE, L = 3,125,000,000 B/s (above 2^31), at 390.625 MHz (`w8-25g`).
    #[serde(rename = "25g")]
    TwentyFiveG,
    /// L = 2^32 - 1 B/s, the largest the 32-bit rate registers hold, at 250 MHz (`w8-lmax`).
    #[serde(rename = "lmax")]
    LMax,
}

impl Rates {
    pub const ALL: [Rates; 4] = [Rates::TenG, Rates::OneG, Rates::TwentyFiveG, Rates::LMax];

    pub fn name(self) -> &'static str {
        match self {
            Rates::TenG => "10g",
            Rates::OneG => "1g",
            Rates::TwentyFiveG => "25g",
            Rates::LMax => "lmax",
        }
    }

    pub fn from_name(name: &str) -> Option<Rates> {
        Self::ALL.into_iter().find(|r| r.name() == name)
    }

    /// (CLK_FREQ_HZ, LINE_RATE).
    pub fn clk_and_line_rate(self) -> (u32, u32) {
        match self {
            Rates::TenG => (156_250_000, 1_250_000_000),
            Rates::OneG => (125_000_000, 125_000_000),
            Rates::TwentyFiveG => (390_625_000, 3_125_000_000),
            Rates::LMax => (250_000_000, u32::MAX),
        }
    }

    pub fn params(self, data_bytes: u32) -> Result<Params, dcqcn_model::ParamError> {
        let (clk, l) = self.clk_and_line_rate();
        Params::new(data_bytes, clk, l)
    }

    /// Whether a variant of these rates is built at `data_bytes` (the default at every width, the
    /// others at 8 bytes).
    pub fn built_at(self, data_bytes: u32) -> bool {
        self == Rates::TenG || data_bytes == 8
    }

    fn suffix(self) -> &'static str {
        match self {
            Rates::TenG => "",
            Rates::OneG => "-1g",
            Rates::TwentyFiveG => "-25g",
            Rates::LMax => "-lmax",
        }
    }

    /// Whether this is the default set (a saved case without the field has it).
    pub fn is_default(&self) -> bool {
        *self == Rates::TenG
    }
}

/// The feature configurations built as variants (spec 2; crates/dcqcn-cosim/variants.toml): every
/// feature (the generics' defaults, at every width and rate set) and the base (no rate rules,
/// control schemes or trace; at 8-byte beats and 10 GbE, variants `w8-base`, `vhdl-w8-base`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Build {
    #[default]
    Full,
    Base,
}

impl Build {
    pub const ALL: [Build; 2] = [Build::Full, Build::Base];

    pub fn name(self) -> &'static str {
        match self {
            Build::Full => "full",
            Build::Base => "base",
        }
    }

    pub fn features(self) -> dcqcn_model::Features {
        match self {
            Build::Full => dcqcn_model::Features::FULL,
            Build::Base => dcqcn_model::Features::BASE,
        }
    }

    /// The configuration of the variant called `name` (the suffix [`Hdl::build_variant`] gives it;
    /// a name without one, a mutant's included, is the full configuration).
    pub fn of_variant(name: &str) -> Build {
        Build::ALL
            .into_iter()
            .find(|b| !b.suffix().is_empty() && name.ends_with(b.suffix()))
            .unwrap_or(Build::Full)
    }

    /// Whether a variant of this configuration is built at `data_bytes` (the full one at every
    /// width, the others at 8 bytes).
    pub fn built_at(self, data_bytes: u32) -> bool {
        self == Build::Full || data_bytes == 8
    }

    fn suffix(self) -> &'static str {
        match self {
            Build::Full => "",
            Build::Base => "-base",
        }
    }
}

/// Which description of the block a run verilates: the SystemVerilog (rtl/*.sv) or the VHDL twin
/// (rtl/vhdl/, through `ghdl --synth`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Hdl {
    #[default]
    Sv,
    Vhdl,
}

impl Hdl {
    /// The variant of this HDL for a beat width: `w8`, `w32`, `w64`; `vhdl-w8`, `vhdl-w32`, ...
    pub fn width_variant(self, data_bytes: u32) -> String {
        self.rates_variant(data_bytes, Rates::TenG)
    }

    /// The variant of this HDL and feature configuration for a beat width (10 GbE): `w8`,
    /// `w8-base`, `vhdl-w8-base`, ...
    pub fn build_variant(self, data_bytes: u32, build: Build) -> String {
        format!("{}{}", self.width_variant(data_bytes), build.suffix())
    }

    /// The variant of this HDL for a beat width and rate set: `w8`, `w8-25g`, `vhdl-w8-1g`, ...
    pub fn rates_variant(self, data_bytes: u32, rates: Rates) -> String {
        match self {
            Hdl::Sv => format!("w{data_bytes}{}", rates.suffix()),
            Hdl::Vhdl => format!("vhdl-w{data_bytes}{}", rates.suffix()),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Hdl::Sv => "sv",
            Hdl::Vhdl => "vhdl",
        }
    }
}

/// The SystemVerilog variant for a beat width: `w8`, `w32`, `w64`.
pub fn width_variant(data_bytes: u32) -> String {
    Hdl::Sv.width_variant(data_bytes)
}
