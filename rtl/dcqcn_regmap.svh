// SPDX-License-Identifier: MIT
// dcqcn_regmap.svh: the AXI4-Lite register map of dcqcn_regs (spec 6.2): word addresses, word
// layouts and the register record.
//
// Included inside the body of dcqcn_regs (the declarations are the module's own; no include guard,
// so that another module could include it too). The names are the spec's word names: SV ADDR_<NAME>
// is Rust regmap::<NAME> (crates/dcqcn-model/src/regmap.rs). The addresses, the word structs and
// the held words of regs_t are generated from regmap/dcqcn_regs.rdl (`make regmap`; the regions
// between the GENERATED markers); the write merge and the read mux both use these structs.

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

/* Word layouts (spec 6.2): one packed struct per word that is not a single 32-bit field, first
   member = most significant bits; rsvd_<msb>_<lsb> bits read 0 and ignore writes */
// BEGIN GENERATED words: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
// 0x000 config: Configuration
typedef struct packed {
    logic [8:0]  rsvd_31_23;      // [31:23] reserved: reads 0, ignores writes
    logic        clamp_tgt;       // [22]    RW
    logic [7:0]  stage_threshold; // [21:14] RW
    logic [3:0]  dec_gain;        // [13:10] RW
    logic [9:0]  alpha_g;         // [9:0]   RW
} config_t;

// 0x014 intervals: Decrease and alpha intervals
typedef struct packed {
    logic [15:0] alpha_interval;  // [31:16] RW
    logic [15:0] dec_interval;    // [15:0]  RW
} intervals_t;

// 0x020 alpha_cnp: Alpha and CNP count
typedef struct packed {
    logic [4:0]  rsvd_31_27;      // [31:27] reserved: reads 0, ignores writes
    logic [15:0] cnp_cnt16;       // [26:11] RO
    logic        cnp_cnt_clear;   // [10]    W, reads 0
    logic [9:0]  alpha;           // [9:0]   RO
} alpha_cnp_t;

// 0x024 bypass: Bypass
typedef struct packed {
    logic [30:0] rsvd_31_1;       // [31:1]  reserved: reads 0, ignores writes
    logic        bypass;          // [0]     RW
} bypass_t;

// 0x100 ext_ctrl: Extension control
typedef struct packed {
    logic [22:0] rsvd_31_9;       // [31:9]  reserved: reads 0, ignores writes
    logic        cnt_clear;       // [8]     W, reads 0
    logic [5:0]  rsvd_7_2;        // [7:2]   reserved: reads 0, ignores writes
    logic        byte_en;         // [1]     RW
    logic        timer_en;        // [0]     RW
} ext_ctrl_t;

// 0x10C id: Identification
typedef struct packed {
    logic [15:0] magic;           // [31:16] RO
    logic [7:0]  version;         // [15:8]  RO
    logic [7:0]  data_bytes;      // [7:0]   RO
} id_t;

// 0x114 credit_frac: Credit, fraction
typedef struct packed {
    logic [15:0] rsvd_31_16;      // [31:16] reserved: reads 0, ignores writes
    logic [15:0] credit_frac;     // [15:0]  RO
} credit_frac_t;

// 0x148 status: Status
typedef struct packed {
    logic [12:0] rsvd_31_19;      // [31:19] reserved: reads 0, ignores writes
    logic        alpha_pending;   // [18]    RO
    logic        dec_pending;     // [17]    RO
    logic        active;          // [16]    RO
    logic [7:0]  b_stage;         // [15:8]  RO
    logic [7:0]  t_stage;         // [7:0]   RO
} status_t;

// 0x158 rate_rules: Rate rules
typedef struct packed {
    logic [2:0]  rsvd_31_29;      // [31:29] reserved: reads 0, ignores writes
    logic        hai_mult;        // [28]    RW
    logic        rsvd_27_27;      // [27]    reserved: reads 0, ignores writes
    logic [10:0] min_dec_fac;     // [26:16] RW
    logic [5:0]  rsvd_15_10;      // [15:10] reserved: reads 0, ignores writes
    logic [9:0]  alpha_init;      // [9:0]   RW
} rate_rules_t;

// 0x15C control: Control scheme
typedef struct packed {
    logic [22:0] rsvd_31_9;       // [31:9]  reserved: reads 0, ignores writes
    logic        gate_mask;       // [8]     RW
    logic [5:0]  rsvd_7_2;        // [7:2]   reserved: reads 0, ignores writes
    logic [1:0]  scheme;          // [1:0]   RW
} control_t;

// 0x170 trace_ctrl: Trace control
typedef struct packed {
    logic [22:0] rsvd_31_9;       // [31:9]  reserved: reads 0, ignores writes
    logic        trace_clear;     // [8]     W, reads 0
    logic [5:0]  rsvd_7_2;        // [7:2]   reserved: reads 0, ignores writes
    logic        trace_wrap;      // [1]     RW
    logic        trace_en;        // [0]     RW
} trace_ctrl_t;

// 0x174 trace_status: Trace status
typedef struct packed {
    logic [14:0] rsvd_31_17;      // [31:17] reserved: reads 0, ignores writes
    logic        trace_lost;      // [16]    RO
    logic [1:0]  rsvd_15_14;      // [15:14] reserved: reads 0, ignores writes
    logic [5:0]  trace_wptr;      // [13:8]  RO
    logic        rsvd_7_7;        // [7]     reserved: reads 0, ignores writes
    logic [6:0]  trace_count;     // [6:0]   RO
} trace_status_t;

// 0x178 trace_counts: Trace event counts
typedef struct packed {
    logic [1:0]  rsvd_31_30;      // [31:30] reserved: reads 0, ignores writes
    logic [9:0]  trace_n_timer;   // [29:20] RO
    logic [9:0]  trace_n_byte;    // [19:10] RO
    logic [9:0]  trace_n_dec;     // [9:0]   RO
} trace_counts_t;

// 0x180 trace_sel: Trace entry select
typedef struct packed {
    logic [25:0] rsvd_31_6;       // [31:6]  reserved: reads 0, ignores writes
    logic [5:0]  trace_sel;       // [5:0]   RW
} trace_sel_t;

// 0x184 trace_entry: Trace entry type
typedef struct packed {
    logic [22:0] rsvd_31_9;       // [31:9]  reserved: reads 0, ignores writes
    logic        entry_valid;     // [8]     RO
    logic [3:0]  rsvd_7_4;        // [7:4]   reserved: reads 0, ignores writes
    logic        entry_both;      // [3]     RO
    logic [2:0]  entry_type;      // [2:0]   RO
} trace_entry_t;
// END GENERATED words

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
    // the held words (those with a read/write field)
    // BEGIN GENERATED held: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
    config_t     config_word;     // 0x000
    logic [31:0] rai;             // 0x004
    logic [31:0] rhai;            // 0x008
    logic [31:0] rmin;            // 0x00C
    logic [31:0] inc_interval;    // 0x010
    intervals_t  intervals;       // 0x014
    bypass_t     bypass;          // 0x024
    ext_ctrl_t   ext_ctrl;        // 0x100
    logic [31:0] byte_threshold;  // 0x104
    logic [31:0] credit_cap;      // 0x108
    logic [31:0] rmax;            // 0x150
    logic [31:0] rate_first_cnp;  // 0x154
    rate_rules_t rate_rules;      // 0x158
    control_t    control;         // 0x15C
    logic [31:0] fw_rate;         // 0x160
    trace_ctrl_t trace_ctrl;      // 0x170
    trace_sel_t  trace_sel;       // 0x180
    // END GENERATED held
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
