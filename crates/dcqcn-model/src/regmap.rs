//! Register addresses (spec 6.2). Decode uses addr[11:2].

pub const CONFIG: u16 = 0x000;
pub const RAI: u16 = 0x004;
pub const RHAI: u16 = 0x008;
pub const RMIN: u16 = 0x00C;
pub const INC_INTERVAL: u16 = 0x010;
pub const INTERVALS: u16 = 0x014;
pub const RC: u16 = 0x018;
pub const RT: u16 = 0x01C;
pub const ALPHA_CNP: u16 = 0x020;
pub const BYPASS: u16 = 0x024;
pub const EXT_CTRL: u16 = 0x100;
pub const BYTE_THRESHOLD: u16 = 0x104;
pub const CREDIT_CAP: u16 = 0x108;
pub const ID: u16 = 0x10C;
pub const CREDIT_BYTES: u16 = 0x110;
pub const CREDIT_FRAC: u16 = 0x114;
pub const BPC: u16 = 0x118;
pub const CNT_CNP: u16 = 0x120;
pub const CNT_DEC: u16 = 0x124;
pub const CNT_INC_FR: u16 = 0x128;
pub const CNT_INC_AI: u16 = 0x12C;
pub const CNT_INC_HAI: u16 = 0x130;
pub const CNT_INC_TIMER: u16 = 0x134;
pub const CNT_INC_BYTE: u16 = 0x138;
pub const CNT_STALL: u16 = 0x13C;
pub const CNT_BYTES_LO: u16 = 0x140;
pub const CNT_BYTES_HI: u16 = 0x144;
pub const STATUS: u16 = 0x148;

/// Every mapped word, with its name and whether it accepts writes.
pub const MAP: &[(u16, &str, bool)] = &[
    (CONFIG, "config", true),
    (RAI, "rai", true),
    (RHAI, "rhai", true),
    (RMIN, "rmin", true),
    (INC_INTERVAL, "inc_interval", true),
    (INTERVALS, "intervals", true),
    (RC, "rc", false),
    (RT, "rt", false),
    (ALPHA_CNP, "alpha_cnp", true),
    (BYPASS, "bypass", true),
    (EXT_CTRL, "ext_ctrl", true),
    (BYTE_THRESHOLD, "byte_threshold", true),
    (CREDIT_CAP, "credit_cap", true),
    (ID, "id", false),
    (CREDIT_BYTES, "credit_bytes", false),
    (CREDIT_FRAC, "credit_frac", false),
    (BPC, "bpc", false),
    (CNT_CNP, "cnt_cnp", false),
    (CNT_DEC, "cnt_dec", false),
    (CNT_INC_FR, "cnt_inc_fr", false),
    (CNT_INC_AI, "cnt_inc_ai", false),
    (CNT_INC_HAI, "cnt_inc_hai", false),
    (CNT_INC_TIMER, "cnt_inc_timer", false),
    (CNT_INC_BYTE, "cnt_inc_byte", false),
    (CNT_STALL, "cnt_stall", false),
    (CNT_BYTES_LO, "cnt_bytes_lo", false),
    (CNT_BYTES_HI, "cnt_bytes_hi", false),
    (STATUS, "status", false),
];

/// AXI response codes.
pub const RESP_OKAY: u8 = 0b00;
pub const RESP_DECERR: u8 = 0b11;

/// The mapped word at `addr` (decoded on bits 11:2), if any.
pub fn lookup(addr: u16) -> Option<&'static (u16, &'static str, bool)> {
    let word = addr & 0xFFC;
    MAP.iter().find(|(a, _, _)| *a == word)
}
