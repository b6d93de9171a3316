// SPDX-License-Identifier: MIT
// dcqcn_checks.svh: the elaboration checks of the parameters (spec 2), one macro per parameter.
//
// Used inside a module body, one line per parameter the module has:
//
//     `DCQCN_CHECK_DATA_BYTES(dcqcn_rl)
//     `DCQCN_CHECK_CLK_FREQ_HZ(dcqcn_rl)
//     `DCQCN_CHECK_LINE_RATE(dcqcn_rl)
//     `DCQCN_CHECK_FEATURES(dcqcn_rl)
//
// An illegal value stops the elaboration with "<module>: <PARAMETER> <value> out of range <range>".
// Only macros here (no declarations), so the include guard is safe in every module.

`ifndef DCQCN_CHECKS_SVH
`define DCQCN_CHECKS_SVH

// DCQCN_CHECK(label, bad, "message with one %0d", value): fails when `bad` holds.
`ifdef __ICARUS__
// Icarus 11 has no elaboration-time $fatal; fail at time 0 instead
`define DCQCN_CHECK(label, bad, msg, value) \
    initial begin : label \
        if (bad) begin \
            $fatal(1, msg, value); \
        end \
    end
`else
// spec 2: illegal parameters are an elaboration error (a generate-time $fatal)
`define DCQCN_CHECK(label, bad, msg, value) \
    if (bad) begin : label \
        $fatal(1, msg, value); \
    end
`endif

// spec 2: the legal range of each parameter; `mod` is the module name that the message starts with
`define DCQCN_CHECK_DATA_BYTES(mod) \
    `DCQCN_CHECK(g_bad_data_bytes, DATA_BYTES < 1 || DATA_BYTES > 64, \
                 `"mod: DATA_BYTES %0d out of range 1..64`", DATA_BYTES)
`define DCQCN_CHECK_CLK_FREQ_HZ(mod) \
    `DCQCN_CHECK(g_bad_clk_freq, CLK_FREQ_HZ < 32'd65_537, \
                 `"mod: CLK_FREQ_HZ %0d out of range 65537..4294967295`", CLK_FREQ_HZ)
`define DCQCN_CHECK_LINE_RATE(mod) \
    `DCQCN_CHECK(g_bad_line_rate, LINE_RATE == 32'd0, \
                 `"mod: LINE_RATE %0d out of range 1..4294967295`", LINE_RATE)
// the three feature parameters (spec 2)
`define DCQCN_CHECK_FEATURES(mod) \
    `DCQCN_CHECK(g_bad_rate_rules, RATE_RULES != 0 && RATE_RULES != 1, \
                 `"mod: RATE_RULES %0d out of range 0 or 1`", RATE_RULES) \
    `DCQCN_CHECK(g_bad_control, CONTROL != 0 && CONTROL != 1, \
                 `"mod: CONTROL %0d out of range 0 or 1`", CONTROL) \
    `DCQCN_CHECK(g_bad_trace_depth, TRACE_DEPTH != 0 && TRACE_DEPTH != 64, \
                 `"mod: TRACE_DEPTH %0d out of range 0 or 64`", TRACE_DEPTH)

`endif
