// SPDX-License-Identifier: MIT
// dcqcn_regmap.svh: the AXI4-Lite register map of dcqcn_regs (spec 6.2): word addresses, word
// layouts and the register record.
//
// Included inside the body of dcqcn_regs (the declarations are the module's own; no include guard,
// so that another module could include it too). The names are the spec's word names: SV ADDR_<NAME>
// is Rust regmap::<NAME> (crates/dcqcn-model/src/regmap.rs). Each field position is written once,
// in its word's packed struct (first member = most significant bits); the write merge and the read
// mux both use these structs.

// spec 6.2: byte addresses; the decode compares addr[11:2] with ADDR_<NAME>[11:2] (spec 6.1)
// BEGIN GENERATED addresses: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
localparam logic [11:0] ADDR_CONFIG         = 12'h000;  // RW: alpha_g, dec_gain, stage_threshold, clamp_tgt
localparam logic [11:0] ADDR_RAI            = 12'h004;  // RW
localparam logic [11:0] ADDR_RHAI           = 12'h008;  // RW
localparam logic [11:0] ADDR_RMIN           = 12'h00C;  // RW
localparam logic [11:0] ADDR_INC_INTERVAL   = 12'h010;  // RW
localparam logic [11:0] ADDR_INTERVALS      = 12'h014;  // RW: dec_interval, alpha_interval
localparam logic [11:0] ADDR_RC             = 12'h018;  // RO
localparam logic [11:0] ADDR_RT             = 12'h01C;  // RO
localparam logic [11:0] ADDR_ALPHA_CNP      = 12'h020;  // mixed: alpha (RO), cnp_cnt_clear (W), cnp_cnt16 (RO)
localparam logic [11:0] ADDR_BYPASS         = 12'h024;  // RW
localparam logic [11:0] ADDR_EXT_CTRL       = 12'h100;  // mixed: timer_en (RW), byte_en (RW), cnt_clear (W)
localparam logic [11:0] ADDR_BYTE_THRESHOLD = 12'h104;  // RW
localparam logic [11:0] ADDR_CREDIT_CAP     = 12'h108;  // RW
localparam logic [11:0] ADDR_ID             = 12'h10C;  // RO: data_bytes, version, magic
localparam logic [11:0] ADDR_CREDIT_BYTES   = 12'h110;  // RO
localparam logic [11:0] ADDR_CREDIT_FRAC    = 12'h114;  // RO
localparam logic [11:0] ADDR_BPC            = 12'h118;  // RO
localparam logic [11:0] ADDR_CNT_CNP        = 12'h120;  // RO
localparam logic [11:0] ADDR_CNT_DEC        = 12'h124;  // RO
localparam logic [11:0] ADDR_CNT_INC_FR     = 12'h128;  // RO
localparam logic [11:0] ADDR_CNT_INC_AI     = 12'h12C;  // RO
localparam logic [11:0] ADDR_CNT_INC_HAI    = 12'h130;  // RO
localparam logic [11:0] ADDR_CNT_INC_TIMER  = 12'h134;  // RO
localparam logic [11:0] ADDR_CNT_INC_BYTE   = 12'h138;  // RO
localparam logic [11:0] ADDR_CNT_STALL      = 12'h13C;  // RO
localparam logic [11:0] ADDR_CNT_BYTES_LO   = 12'h140;  // RO
localparam logic [11:0] ADDR_CNT_BYTES_HI   = 12'h144;  // RO: bytes_hi
localparam logic [11:0] ADDR_STATUS         = 12'h148;  // RO: t_stage, b_stage, active, dec_pending, alpha_pending
localparam logic [11:0] ADDR_RMAX           = 12'h150;  // RW
localparam logic [11:0] ADDR_RATE_FIRST_CNP = 12'h154;  // RW
localparam logic [11:0] ADDR_RATE_RULES     = 12'h158;  // RW: alpha_init, min_dec_fac, hai_mult
localparam logic [11:0] ADDR_CONTROL        = 12'h15C;  // RW: scheme, gate_mask
localparam logic [11:0] ADDR_FW_RATE        = 12'h160;  // RW
localparam logic [11:0] ADDR_TRACE_CTRL     = 12'h170;  // mixed: trace_en (RW), trace_wrap (RW), trace_clear (W)
localparam logic [11:0] ADDR_TRACE_STATUS   = 12'h174;  // RO: trace_count, trace_wptr, trace_lost
localparam logic [11:0] ADDR_TRACE_COUNTS   = 12'h178;  // RO: trace_n_dec, trace_n_byte, trace_n_timer
localparam logic [11:0] ADDR_TRACE_TIME     = 12'h17C;  // RO
localparam logic [11:0] ADDR_TRACE_SEL      = 12'h180;  // RW
localparam logic [11:0] ADDR_TRACE_ENTRY    = 12'h184;  // RO: entry_type, entry_both, entry_valid
localparam logic [11:0] ADDR_TRACE_RC       = 12'h188;  // RO: entry_rc
localparam logic [11:0] ADDR_TRACE_STAMP    = 12'h18C;  // RO: entry_stamp
// END GENERATED addresses

/* Word layouts (spec 6.2). `reserved*` bits read 0 and ignore writes. */

// 0x000 config
typedef struct packed {
    logic [8:0]  reserved;         // [31:23]
    logic        clamp_tgt;        // [22]
    logic [7:0]  stage_threshold;  // [21:14] F
    logic [3:0]  dec_gain;         // [13:10]
    logic [9:0]  alpha_g;          // [9:0]   G = 1 - g, Q0.10
} config_t;

// 0x014 intervals
typedef struct packed {
    logic [15:0] alpha_interval;   // [31:16] cycles
    logic [15:0] dec_interval;     // [15:0]  cycles
} intervals_t;

// 0x020 alpha_cnp
typedef struct packed {
    logic [4:0]  reserved;         // [31:27]
    logic [15:0] cnp_cnt16;        // [26:11] RO, CNP edges mod 2^16
    logic        cnp_cnt_clear;    // [10]    W, reads 0: writing 1 clears cnp_cnt16 (SURF cnpCntRst)
    logic [9:0]  alpha;            // [9:0]   RO
} alpha_cnp_t;

// 0x024 bypass
typedef struct packed {
    logic [30:0] reserved;         // [31:1]
    logic        bypass;           // [0]
} bypass_t;

// 0x100 ext_ctrl
typedef struct packed {
    logic [22:0] reserved_hi;      // [31:9]
    logic        cnt_clear;        // [8]     W, reads 0: writing 1 clears the counters 0x120-0x144
    logic [5:0]  reserved_lo;      // [7:2]
    logic        byte_en;          // [1]
    logic        timer_en;         // [0]
} ext_ctrl_t;

// 0x10C id
typedef struct packed {
    logic [15:0] magic;            // [31:16] 0xDCC1
    logic [7:0]  version;          // [15:8]  1
    logic [7:0]  data_bytes;       // [7:0]   DATA_BYTES
} id_t;

// 0x114 credit_frac
typedef struct packed {
    logic [15:0] reserved;         // [31:16]
    logic [15:0] frac;             // [15:0]  credit[15:0], 1/65536 B
} credit_frac_t;

// 0x148 status
typedef struct packed {
    logic [12:0] reserved;         // [31:19]
    logic        alpha_pending;    // [18]
    logic        dec_pending;      // [17]
    logic        active;           // [16]
    logic [7:0]  b_stage;          // [15:8]
    logic [7:0]  t_stage;          // [7:0]
} status_t;

// 0x158 rate_rules
typedef struct packed {
    logic [2:0]  reserved_hi;      // [31:29]
    logic        hai_mult;         // [28]    1: hyper increase adds i x rhai
    logic        reserved_mid;     // [27]
    logic [10:0] min_dec_fac;      // [26:16] Q0.10, share of Rc a decrease keeps (1024+: all)
    logic [5:0]  reserved_lo;      // [15:10]
    logic [9:0]  alpha_init;       // [9:0]   Q0.10, alpha while inactive
} rate_rules_t;

// 0x15C control (spec 4.9)
typedef struct packed {
    logic [22:0] reserved_hi;      // [31:9]
    logic        gate_mask;        // [8]     1: no beat is accepted
    logic [5:0]  reserved_lo;      // [7:2]
    logic [1:0]  scheme;           // [1:0]   bit 0: firmware sets the rate; bit 1: not throttled
} control_t;

// 0x170 trace_ctrl (spec 4.10)
typedef struct packed {
    logic [22:0] reserved_hi;      // [31:9]
    logic        trace_clear;      // [8]     W, reads 0: writing 1 empties the window, clears 0x174-0x17C
    logic [5:0]  reserved_lo;      // [7:2]
    logic        trace_wrap;       // [1]     1: keep the last 64 events; 0: the first 64
    logic        trace_en;         // [0]     1: armed
} trace_ctrl_t;

// 0x174 trace_status
typedef struct packed {
    logic [14:0] reserved_hi;      // [31:17]
    logic        lost;             // [16]
    logic [1:0]  reserved_mid;     // [15:14]
    logic [5:0]  wptr;             // [13:8]
    logic        reserved_lo;      // [7]
    logic [6:0]  count;            // [6:0]
} trace_status_t;

// 0x178 trace_counts
typedef struct packed {
    logic [1:0]  reserved;         // [31:30]
    logic [9:0]  n_timer;          // [29:20]
    logic [9:0]  n_byte;           // [19:10]
    logic [9:0]  n_dec;            // [9:0]
} trace_counts_t;

// 0x180 trace_sel
typedef struct packed {
    logic [25:0] reserved;         // [31:6]
    logic [5:0]  trace_sel;        // [5:0]   k: 0x184-0x18C show the k-th oldest entry
} trace_sel_t;

// 0x184 trace_entry
typedef struct packed {
    logic [22:0] reserved_hi;      // [31:9]
    logic        valid;            // [8]     trace_sel < count
    logic [3:0]  reserved_lo;      // [7:4]
    logic        both;             // [3]
    logic [2:0]  kind;             // [2:0]   type
} trace_entry_t;

// One entry of trace_mem (68 bits, spec 4.10)
typedef struct packed {
    logic [31:0] stamp;            // [67:36] trace_time of the event's cycle
    logic [31:0] rc;               // [35:4]  Rc after the event
    logic        both;             // [3]     an increase with both triggers
    logic [2:0]  kind;             // [2:0]   type
} trace_ent_t;

/* The registers of dcqcn_regs (spec 7, regs): one record, updated once per clock */

// Statistics counters 0x120-0x144, all cleared together by cnt_clear
typedef struct packed {
    logic [31:0] cnt_cnp;
    logic [31:0] cnt_dec;
    logic [31:0] cnt_inc_fr;
    logic [31:0] cnt_inc_ai;
    logic [31:0] cnt_inc_hai;
    logic [31:0] cnt_inc_timer;
    logic [31:0] cnt_inc_byte;
    logic [31:0] cnt_stall;
    logic [63:0] cnt_bytes;
    logic [31:0] bytes_hi;         // cnt_bytes[63:32] latched by a read of cnt_bytes_lo
} stats_t;

// Event trace 0x174-0x17C (spec 4.10), all cleared together by trace_clear; its storage trace_mem
// is a separate array of dcqcn_regs (no reset: distributed RAM)
typedef struct packed {
    logic [6:0]  count;            // entries in the window (64 and above: full)
    logic [5:0]  wptr;             // where the next entry is written
    logic        lost;
    logic [31:0] time_;            // armed cycles since the clear, saturating (`time` is a keyword)
    logic [9:0]  n_dec;            // saturating at 1023
    logic [9:0]  n_byte;
    logic [9:0]  n_timer;
} trace_t;

// Writable words are held as read (reserved and write-only bits 0). `config` is a keyword of
// SystemVerilog (configurations), so that word's member is config_word.
typedef struct packed {
    config_t     config_word;
    logic [31:0] rai;              // bytes/s
    logic [31:0] rhai;             // bytes/s
    logic [31:0] rmin;             // bytes/s
    logic [31:0] inc_interval;     // cycles
    intervals_t  intervals;
    bypass_t     bypass;
    ext_ctrl_t   ext_ctrl;
    logic [31:0] byte_threshold;   // bytes
    logic [31:0] credit_cap;       // bytes
    logic [31:0] rmax;             // bytes/s, 0 = no ceiling
    logic [31:0] rate_first_cnp;   // bytes/s, 0 = off
    rate_rules_t rate_rules;
    control_t    control;
    logic [31:0] fw_rate;          // bytes/s, 0 = L
    trace_ctrl_t trace_ctrl;
    trace_sel_t  trace_sel;
    trace_t      trace;
    logic [15:0] cnp_cnt16;        // alpha_cnp[26:11]
    stats_t      stats;
    // AXI4-Lite responses (direct members: Icarus 11 aborts on `~` of a member of a nested struct)
    logic        bvalid;
    logic [1:0]  bresp;
    logic        rvalid;
    logic [31:0] rdata;
    logic [1:0]  rresp;
} regs_t;
