-- SPDX-License-Identifier: MIT
-- dcqcn_regs: AXI4-Lite register file, configuration, statistics counters and read mux (spec 6).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_pkg.all;
  -- pragma translate_off
  use work.dcqcn_tap_pkg.all;
  -- pragma translate_on

entity dcqcn_regs is
  generic (
    DATA_BYTES  : natural                       := DCQCN_DATA_BYTES_C;  -- reported in the ID register
    CLK_FREQ_HZ : std_logic_vector(31 downto 0) := DCQCN_CLK_FREQ_HZ_C; -- f, Hz; interval reset values
    RATE_RULES  : boolean                       := true;                -- spec 2: the rate rules
    CONTROL     : boolean                       := true;                -- spec 2: the control schemes
    TRACE_DEPTH : natural                       := TRACE_DEPTH_C        -- spec 2: the event trace (0, 64)
  );
  port (
    -- Clock and synchronous reset
    clk                 : in    std_logic;
    rst                 : in    std_logic;
    -- AXI4-Lite slave: write address, write data, write response (spec 6.1: addr[1:0] ignored)
    s_axil_awaddr       : in    std_logic_vector(11 downto 0);
    s_axil_awvalid      : in    std_logic;
    s_axil_awready      : out   std_logic;
    s_axil_wdata        : in    std_logic_vector(31 downto 0);
    s_axil_wstrb        : in    std_logic_vector(3 downto 0);
    s_axil_wvalid       : in    std_logic;
    s_axil_wready       : out   std_logic;
    s_axil_bresp        : out   std_logic_vector(1 downto 0);
    s_axil_bvalid       : out   std_logic;
    s_axil_bready       : in    std_logic;
    -- AXI4-Lite slave: read address, read data
    s_axil_araddr       : in    std_logic_vector(11 downto 0);
    s_axil_arvalid      : in    std_logic;
    s_axil_arready      : out   std_logic;
    s_axil_rdata        : out   std_logic_vector(31 downto 0);
    s_axil_rresp        : out   std_logic_vector(1 downto 0);
    s_axil_rvalid       : out   std_logic;
    s_axil_rready       : in    std_logic;
    -- Read-only state of the reaction point and credit gate
    rc                  : in    unsigned(31 downto 0);
    rt                  : in    unsigned(31 downto 0);
    active              : in    std_logic;
    alpha               : in    unsigned(9 downto 0);
    alpha_pending       : in    std_logic;
    dec_pending         : in    std_logic;
    t_stage             : in    unsigned(7 downto 0);
    b_stage             : in    unsigned(7 downto 0);
    bpc                 : in    unsigned(31 downto 0);
    credit              : in    unsigned(47 downto 0);
    -- Events counted this cycle (spec 6.2)
    cnp_edge            : in    std_logic;
    dec_fire            : in    std_logic;
    inc_event           : in    std_logic;
    phase_fr            : in    std_logic;
    phase_ai            : in    std_logic;
    phase_hai           : in    std_logic;
    timer_fire          : in    std_logic;
    byte_fire           : in    std_logic;
    stall               : in    std_logic;
    bytes_in            : in    unsigned(6 downto 0);
    -- Rc after this cycle's edge when it has a rate event (the trace entry's rate, spec 4.10;
    -- any value in other cycles, which record nothing)
    rc_next             : in    unsigned(31 downto 0);
    -- Configuration registers (spec 6.2)
    cfg_alpha_g         : out   unsigned(9 downto 0);
    cfg_dec_gain        : out   unsigned(3 downto 0);
    cfg_stage_threshold : out   unsigned(7 downto 0);
    cfg_clamp_tgt       : out   std_logic;
    cfg_rai             : out   unsigned(31 downto 0);
    cfg_rhai            : out   unsigned(31 downto 0);
    cfg_rmin            : out   unsigned(31 downto 0);
    cfg_inc_interval    : out   unsigned(31 downto 0);
    cfg_dec_interval    : out   unsigned(15 downto 0);
    cfg_alpha_interval  : out   unsigned(15 downto 0);
    cfg_bypass          : out   std_logic;
    cfg_timer_en        : out   std_logic;
    cfg_byte_en         : out   std_logic;
    cfg_byte_threshold  : out   unsigned(31 downto 0);
    cfg_credit_cap      : out   unsigned(31 downto 0);
    cfg_rmax            : out   unsigned(31 downto 0);
    cfg_rate_first_cnp  : out   unsigned(31 downto 0);
    cfg_alpha_init      : out   unsigned(9 downto 0);
    cfg_min_dec_fac     : out   unsigned(10 downto 0);
    cfg_hai_mult        : out   std_logic;
    cfg_scheme          : out   unsigned(1 downto 0);
    cfg_gate_mask       : out   std_logic;
    cfg_fw_rate         : out   unsigned(31 downto 0)
  );
end entity dcqcn_regs;

architecture rtl of dcqcn_regs is

  -- spec 2: illegal parameters are an elaboration error (checked before anything uses them)
  constant PARAMS_OK_C : boolean :=
    dcqcn_check_params("dcqcn_regs", DATA_BYTES, CLK_FREQ_HZ, DCQCN_LINE_RATE_C, true, false);
  constant TRACE_OK_C  : boolean := dcqcn_check_trace_depth("dcqcn_regs", TRACE_DEPTH);

  -- spec 2: the features built (the register map's `feature` of a word names one of these)
  constant FEAT_RATE_RULES_C : boolean := RATE_RULES;
  constant FEAT_CONTROL_C    : boolean := CONTROL;
  constant FEAT_TRACE_C      : boolean := TRACE_DEPTH /= 0;

  -- spec 6.2: ID = 0xDCC1, version 1, DATA_BYTES
  constant ID_WORD_C : word32_t := dcqcn_id_word(DATA_BYTES);

  -- spec 6.2 reset values
  constant CFG_INIT_C : CfgType := (
    -- BEGIN GENERATED reset: `make gen` from the snapshot! list and regmap/dcqcn_regs.rdl; do not edit
    alpha_g         => to_unsigned(1020, 10),
    dec_gain        => to_unsigned(1, 4),
    stage_threshold => to_unsigned(5, 8),
    clamp_tgt       => '0',
    rai             => to_unsigned(6_000_000, 32),
    rhai            => to_unsigned(12_000_000, 32),
    rmin            => to_unsigned(10_000_000, 32),
    inc_interval    => dcqcn_rate_inc_reset(CLK_FREQ_HZ),
    dec_interval    => dcqcn_rate_dec_reset(CLK_FREQ_HZ),
    alpha_interval  => dcqcn_alpha_reset(CLK_FREQ_HZ),
    bypass          => '0',
    timer_en        => '1',
    byte_en         => '0',
    byte_threshold  => to_unsigned(10_000_000, 32),
    credit_cap      => to_unsigned(1_048_576, 32),
    rmax            => (others => '0'),
    rate_first_cnp  => (others => '0'),
    alpha_init      => to_unsigned(1023, 10),
    min_dec_fac     => (others => '0'),
    hai_mult        => '0',
    scheme          => (others => '0'),
    gate_mask       => '0',
    fw_rate         => (others => '0'));
  -- END GENERATED reset

  constant TRACE_CFG_INIT_C : TraceCfgType := (
    -- BEGIN GENERATED trace-reset: `make gen` from the snapshot! list and regmap/dcqcn_regs.rdl; do not edit
    trace_en   => '0',
    trace_wrap => '0',
    trace_sel  => (others => '0'));
  -- END GENERATED trace-reset

  constant CNT_INIT_C : CntType := (
    cnp_cnt16     => (others => '0'),
    cnt_cnp       => (others => '0'),
    cnt_dec       => (others => '0'),
    cnt_inc_fr    => (others => '0'),
    cnt_inc_ai    => (others => '0'),
    cnt_inc_hai   => (others => '0'),
    cnt_inc_timer => (others => '0'),
    cnt_inc_byte  => (others => '0'),
    cnt_stall     => (others => '0'),
    cnt_bytes     => (others => '0'),
    bytes_hi      => (others => '0'));

  constant TRACE_INIT_C : TraceType := (
    count   => (others => '0'),
    wptr    => (others => '0'),
    lost    => '0',
    time    => (others => '0'),
    n_dec   => (others => '0'),
    n_byte  => (others => '0'),
    n_timer => (others => '0'));

  constant REG_INIT_C : RegsRegType := (
    bvalid    => '0',
    bresp     => RESP_OKAY,
    rvalid    => '0',
    rdata     => (others => '0'),
    rresp     => RESP_OKAY,
    cfg       => CFG_INIT_C,
    cnt       => CNT_INIT_C,
    trace_cfg => TRACE_CFG_INIT_C,
    trace     => TRACE_INIT_C);

  -- spec 6.2: every word of the register map lies in 0x000-0x1FF, word indices 0-127: the read
  -- mux is a table indexed by addr[8:2] (unmapped entries 0), addr[11:9] /= 0 is unmapped. A
  -- table, not a case statement: GHDL 2.0 writes a `case` with `when others` as a Verilog `case`
  -- without its default (a latch for Yosys), and Yosys maps the indexed table to a tree of
  -- multiplexers on the index bits, as the SV's table (its read_tree; README.md, Synthesis).
  constant READ_BITS_C  : natural := 7;
  constant READ_WORDS_C : natural := 2 ** READ_BITS_C;

  type Word32ArrayType is array (natural range <>) of word32_t;

  -- spec 6.2: the words that can be read (OKAY); every other address reads 0 with DECERR
  constant READ_ADDRS_C : integer_vector := (
    -- BEGIN GENERATED read-addrs: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
    ADDR_CONFIG,
    ADDR_RAI,
    ADDR_RHAI,
    ADDR_RMIN,
    ADDR_INC_INTERVAL,
    ADDR_INTERVALS,
    ADDR_RC,
    ADDR_RT,
    ADDR_ALPHA_CNP,
    ADDR_BYPASS,
    ADDR_EXT_CTRL,
    ADDR_BYTE_THRESHOLD,
    ADDR_CREDIT_CAP,
    ADDR_ID,
    ADDR_CREDIT_BYTES,
    ADDR_CREDIT_FRAC,
    ADDR_BPC,
    ADDR_CNT_CNP,
    ADDR_CNT_DEC,
    ADDR_CNT_INC_FR,
    ADDR_CNT_INC_AI,
    ADDR_CNT_INC_HAI,
    ADDR_CNT_INC_TIMER,
    ADDR_CNT_INC_BYTE,
    ADDR_CNT_STALL,
    ADDR_CNT_BYTES_LO,
    ADDR_CNT_BYTES_HI,
    ADDR_STATUS,
    ADDR_RMAX,
    ADDR_RATE_FIRST_CNP,
    ADDR_RATE_RULES,
    ADDR_CONTROL,
    ADDR_FW_RATE,
    ADDR_TRACE_CTRL,
    ADDR_TRACE_STATUS,
    ADDR_TRACE_COUNTS,
    ADDR_TRACE_TIME,
    ADDR_TRACE_SEL,
    ADDR_TRACE_ENTRY,
    ADDR_TRACE_RC,
    ADDR_TRACE_STAMP);
  -- END GENERATED read-addrs

  -- '1' at the word index of each byte address in addrs
  function word_map (addrs : integer_vector) return std_logic_vector is
    variable m : std_logic_vector(0 to READ_WORDS_C - 1) := (others => '0');
  begin
    for i in addrs'range loop
      m(addrs(i) / 4) := '1';
    end loop;
    return m;
  end function word_map;

  constant READ_MAP_C : std_logic_vector(0 to READ_WORDS_C - 1) := word_map(READ_ADDRS_C);

  -- BEGIN GENERATED built: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
  -- spec 2: '1' when the word at word index `word` is built: a feature's words only when the
  -- feature is (FEAT_<feature>_C, from the generics); an absent word answers as an unmapped one
  function word_built (word : word_index_t) return std_logic is
    variable b : std_logic;
  begin
    b := '1';
    if (word = word_index(ADDR_RMAX) or
        word = word_index(ADDR_RATE_FIRST_CNP) or
        word = word_index(ADDR_RATE_RULES)) then
      b := to_sl(FEAT_RATE_RULES_C);
    end if;
    if (word = word_index(ADDR_CONTROL) or
        word = word_index(ADDR_FW_RATE)) then
      b := to_sl(FEAT_CONTROL_C);
    end if;
    if (word = word_index(ADDR_TRACE_CTRL) or
        word = word_index(ADDR_TRACE_STATUS) or
        word = word_index(ADDR_TRACE_COUNTS) or
        word = word_index(ADDR_TRACE_TIME) or
        word = word_index(ADDR_TRACE_SEL) or
        word = word_index(ADDR_TRACE_ENTRY) or
        word = word_index(ADDR_TRACE_RC) or
        word = word_index(ADDR_TRACE_STAMP)) then
      b := to_sl(FEAT_TRACE_C);
    end if;
    return b;
  end function word_built;

  -- END GENERATED built

  -- spec 4.10: saturating increment of a trace count
  function sat_inc (x : unsigned) return unsigned is
  begin
    if (x = (x'range => '1')) then
      return x;
    end if;
    return x + 1;
  end function sat_inc;

  signal r   : RegsRegType := REG_INIT_C;
  signal rin : RegsRegType;

  -- spec 4.10: the trace storage, one write port at r.trace.wptr and one asynchronous read port at
  -- trace_phys, no reset and no initial value (distributed RAM, not flip-flops)
  signal trace_mem   : TraceMemType;
  signal trace_we    : std_logic;
  signal trace_wdata : trace_entry_t;
  signal trace_phys  : unsigned(5 downto 0);
  signal trace_rd    : trace_entry_t;

begin

  comb : process (all) is
    variable v       : RegsRegType;
    variable wr_en   : std_logic;
    variable wr_ok   : std_logic; -- a write to a built word
    variable rd_en   : std_logic;
    variable wr_word : word_index_t;
    variable rd_word : word_index_t;
    variable wresp   : std_logic_vector(1 downto 0);
    variable rtab    : Word32ArrayType(0 to READ_WORDS_C - 1);
    variable rword   : word32_t;
    variable rmapped : std_logic;
    -- BEGIN GENERATED action-vars: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
    variable cnp_cnt_clear : std_logic;
    variable cnt_clear     : std_logic;
    variable trace_clear   : std_logic;
    -- END GENERATED action-vars
    variable trace_ev     : std_logic;
    variable trace_full   : std_logic;
    variable trace_rec    : std_logic;
    variable trace_kind   : std_logic_vector(2 downto 0);
    variable trace_both   : std_logic;
    variable sel_valid    : std_logic;
    variable trace_sel_rd : trace_entry_t;
  begin
    v := r;

    -- spec 6.1: one transaction per channel; handshakes are 0 in a reset cycle (spec 4.0)
    wr_en   := not rst and s_axil_awvalid and s_axil_wvalid and not r.bvalid;
    rd_en   := not rst and s_axil_arvalid and not r.rvalid;
    wr_word := word_index(s_axil_awaddr);
    rd_word := word_index(s_axil_araddr);
    -- spec 2: a word of an absent feature answers as an unmapped one
    wr_ok   := wr_en and word_built(wr_word);

    -- spec 6.2: write-only action bits act only when their byte lane is strobed
    -- BEGIN GENERATED actions: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
    cnp_cnt_clear := wr_ok and to_sl(wr_word = word_index(ADDR_ALPHA_CNP)) and s_axil_wstrb(1) and
                     s_axil_wdata(10);
    cnt_clear     := wr_ok and to_sl(wr_word = word_index(ADDR_EXT_CTRL)) and s_axil_wstrb(1) and
                     s_axil_wdata(8);
    trace_clear   := wr_ok and to_sl(wr_word = word_index(ADDR_TRACE_CTRL)) and s_axil_wstrb(1) and
                     s_axil_wdata(8);
    -- END GENERATED actions

    -- spec 6.2: OKAY for writable words (RO bits ignore the write), DECERR otherwise, no effect.
    -- The writable words are mutually exclusive: one `if` each (no case, see READ_WORDS_C).
    wresp := RESP_DECERR;
    if (wr_ok = '1') then
      -- spec 6.1: strobes apply to the current word value, then the fields are extracted
      -- BEGIN GENERATED write: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
      if (wr_word = word_index(ADDR_CONFIG)) then
        wresp                 := RESP_OKAY;
        v.cfg.alpha_g         := unsigned(lane_merge(word_config(r.cfg), s_axil_wdata, s_axil_wstrb)(9 downto 0));
        v.cfg.dec_gain        := unsigned(lane_merge(word_config(r.cfg), s_axil_wdata, s_axil_wstrb)(13 downto 10));
        v.cfg.stage_threshold := unsigned(lane_merge(word_config(r.cfg), s_axil_wdata, s_axil_wstrb)(21 downto 14));
        v.cfg.clamp_tgt       := lane_merge(word_config(r.cfg), s_axil_wdata, s_axil_wstrb)(22);
      end if;
      if (wr_word = word_index(ADDR_RAI)) then
        wresp     := RESP_OKAY;
        v.cfg.rai := lane_merge(r.cfg.rai, s_axil_wdata, s_axil_wstrb);
      end if;
      if (wr_word = word_index(ADDR_RHAI)) then
        wresp      := RESP_OKAY;
        v.cfg.rhai := lane_merge(r.cfg.rhai, s_axil_wdata, s_axil_wstrb);
      end if;
      if (wr_word = word_index(ADDR_RMIN)) then
        wresp      := RESP_OKAY;
        v.cfg.rmin := lane_merge(r.cfg.rmin, s_axil_wdata, s_axil_wstrb);
      end if;
      if (wr_word = word_index(ADDR_INC_INTERVAL)) then
        wresp              := RESP_OKAY;
        v.cfg.inc_interval := lane_merge(r.cfg.inc_interval, s_axil_wdata, s_axil_wstrb);
      end if;
      if (wr_word = word_index(ADDR_INTERVALS)) then
        wresp                := RESP_OKAY;
        v.cfg.dec_interval   := unsigned(lane_merge(word_intervals(r.cfg), s_axil_wdata, s_axil_wstrb)(15 downto 0));
        v.cfg.alpha_interval := unsigned(lane_merge(word_intervals(r.cfg), s_axil_wdata, s_axil_wstrb)(31 downto 16));
      end if;
      if (wr_word = word_index(ADDR_ALPHA_CNP)) then
        -- no register: its action bits act (above)
        wresp := RESP_OKAY;
      end if;
      if (wr_word = word_index(ADDR_BYPASS)) then
        wresp        := RESP_OKAY;
        v.cfg.bypass := lane_merge(word_bypass(r.cfg), s_axil_wdata, s_axil_wstrb)(0);
      end if;
      if (wr_word = word_index(ADDR_EXT_CTRL)) then
        wresp          := RESP_OKAY;
        v.cfg.timer_en := lane_merge(word_ext_ctrl(r.cfg), s_axil_wdata, s_axil_wstrb)(0);
        v.cfg.byte_en  := lane_merge(word_ext_ctrl(r.cfg), s_axil_wdata, s_axil_wstrb)(1);
      end if;
      if (wr_word = word_index(ADDR_BYTE_THRESHOLD)) then
        wresp                := RESP_OKAY;
        v.cfg.byte_threshold := lane_merge(r.cfg.byte_threshold, s_axil_wdata, s_axil_wstrb);
      end if;
      if (wr_word = word_index(ADDR_CREDIT_CAP)) then
        wresp            := RESP_OKAY;
        v.cfg.credit_cap := lane_merge(r.cfg.credit_cap, s_axil_wdata, s_axil_wstrb);
      end if;
      if (wr_word = word_index(ADDR_RMAX)) then
        wresp      := RESP_OKAY;
        v.cfg.rmax := lane_merge(r.cfg.rmax, s_axil_wdata, s_axil_wstrb);
      end if;
      if (wr_word = word_index(ADDR_RATE_FIRST_CNP)) then
        wresp                := RESP_OKAY;
        v.cfg.rate_first_cnp := lane_merge(r.cfg.rate_first_cnp, s_axil_wdata, s_axil_wstrb);
      end if;
      if (wr_word = word_index(ADDR_RATE_RULES)) then
        wresp             := RESP_OKAY;
        v.cfg.alpha_init  := unsigned(lane_merge(word_rate_rules(r.cfg), s_axil_wdata, s_axil_wstrb)(9 downto 0));
        v.cfg.min_dec_fac := unsigned(lane_merge(word_rate_rules(r.cfg), s_axil_wdata, s_axil_wstrb)(26 downto 16));
        v.cfg.hai_mult    := lane_merge(word_rate_rules(r.cfg), s_axil_wdata, s_axil_wstrb)(28);
      end if;
      if (wr_word = word_index(ADDR_CONTROL)) then
        wresp           := RESP_OKAY;
        v.cfg.scheme    := unsigned(lane_merge(word_control(r.cfg), s_axil_wdata, s_axil_wstrb)(1 downto 0));
        v.cfg.gate_mask := lane_merge(word_control(r.cfg), s_axil_wdata, s_axil_wstrb)(8);
      end if;
      if (wr_word = word_index(ADDR_FW_RATE)) then
        wresp         := RESP_OKAY;
        v.cfg.fw_rate := lane_merge(r.cfg.fw_rate, s_axil_wdata, s_axil_wstrb);
      end if;
      if (wr_word = word_index(ADDR_TRACE_CTRL)) then
        wresp                  := RESP_OKAY;
        v.trace_cfg.trace_en   := lane_merge(word_trace_ctrl(r.trace_cfg), s_axil_wdata, s_axil_wstrb)(0);
        v.trace_cfg.trace_wrap := lane_merge(word_trace_ctrl(r.trace_cfg), s_axil_wdata, s_axil_wstrb)(1);
      end if;
      if (wr_word = word_index(ADDR_TRACE_SEL)) then
        wresp                 := RESP_OKAY;
        v.trace_cfg.trace_sel := unsigned(lane_merge(word_trace_sel(r.trace_cfg), s_axil_wdata,
                                                     s_axil_wstrb)(5 downto 0));
      end if;
    -- END GENERATED write
    end if;
    -- spec 2: an absent feature's configuration stays at its reset value
    -- BEGIN GENERATED tie-off: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
    if (not FEAT_RATE_RULES_C) then
      v.cfg.rmax           := CFG_INIT_C.rmax;
      v.cfg.rate_first_cnp := CFG_INIT_C.rate_first_cnp;
      v.cfg.alpha_init     := CFG_INIT_C.alpha_init;
      v.cfg.min_dec_fac    := CFG_INIT_C.min_dec_fac;
      v.cfg.hai_mult       := CFG_INIT_C.hai_mult;
    end if;
    if (not FEAT_CONTROL_C) then
      v.cfg.scheme    := CFG_INIT_C.scheme;
      v.cfg.gate_mask := CFG_INIT_C.gate_mask;
      v.cfg.fw_rate   := CFG_INIT_C.fw_rate;
    end if;
    if (not FEAT_TRACE_C) then
      v.trace_cfg.trace_en   := TRACE_CFG_INIT_C.trace_en;
      v.trace_cfg.trace_wrap := TRACE_CFG_INIT_C.trace_wrap;
      v.trace_cfg.trace_sel  := TRACE_CFG_INIT_C.trace_sel;
    end if;
    -- END GENERATED tie-off

    -- spec 6.1: write response
    v.bvalid := wr_en or (r.bvalid and not s_axil_bready);
    if (wr_en = '1') then
      v.bresp := wresp;
    end if;

    -- spec 6.1: read response; a same-cycle write is seen from the next read on. The read mux
    -- is evaluated in a read cycle only, as in the SV (the same logic: its result is used only
    -- there)
    v.rvalid := rd_en or (r.rvalid and not s_axil_rready);

    -- spec 4.10: the selected entry (trace_sel = k, the k-th oldest) and whether it exists
    sel_valid := to_sl(resize(r.trace_cfg.trace_sel, 7) < r.trace.count);
    if (sel_valid = '1') then
      trace_sel_rd := trace_rd;
    else
      trace_sel_rd := (others => '0');
    end if;

    if (rd_en = '1') then
      -- spec 6.2: the readable words; unmapped reads return 0 with DECERR
      rtab                          := (others => (others => '0'));
      -- the held words
      -- BEGIN GENERATED read: `make regmap` from regmap/dcqcn_regs.rdl; do not edit
      rtab(ADDR_CONFIG / 4)         := word_config(r.cfg);
      rtab(ADDR_RAI / 4)            := std_logic_vector(r.cfg.rai);
      rtab(ADDR_RHAI / 4)           := std_logic_vector(r.cfg.rhai);
      rtab(ADDR_RMIN / 4)           := std_logic_vector(r.cfg.rmin);
      rtab(ADDR_INC_INTERVAL / 4)   := std_logic_vector(r.cfg.inc_interval);
      rtab(ADDR_INTERVALS / 4)      := word_intervals(r.cfg);
      rtab(ADDR_BYPASS / 4)         := word_bypass(r.cfg);
      rtab(ADDR_EXT_CTRL / 4)       := word_ext_ctrl(r.cfg);
      rtab(ADDR_BYTE_THRESHOLD / 4) := std_logic_vector(r.cfg.byte_threshold);
      rtab(ADDR_CREDIT_CAP / 4)     := std_logic_vector(r.cfg.credit_cap);
      rtab(ADDR_RMAX / 4)           := std_logic_vector(r.cfg.rmax);
      rtab(ADDR_RATE_FIRST_CNP / 4) := std_logic_vector(r.cfg.rate_first_cnp);
      rtab(ADDR_RATE_RULES / 4)     := word_rate_rules(r.cfg);
      rtab(ADDR_CONTROL / 4)        := word_control(r.cfg);
      rtab(ADDR_FW_RATE / 4)        := std_logic_vector(r.cfg.fw_rate);
      rtab(ADDR_TRACE_CTRL / 4)     := word_trace_ctrl(r.trace_cfg);
      rtab(ADDR_TRACE_SEL / 4)      := word_trace_sel(r.trace_cfg);
      -- END GENERATED read
      -- the read-only words
      rtab(ADDR_RC / 4)             := std_logic_vector(rc);
      rtab(ADDR_RT / 4)             := std_logic_vector(rt);
      rtab(ADDR_ALPHA_CNP / 4)      := to_word(AlphaCnpWordType'(
        alpha     => alpha,
        cnp_cnt16 => r.cnt.cnp_cnt16));
      rtab(ADDR_ID / 4)             := ID_WORD_C;
      rtab(ADDR_CREDIT_BYTES / 4)   := std_logic_vector(credit(47 downto 16));
      rtab(ADDR_CREDIT_FRAC / 4)    := x"0000" & std_logic_vector(credit(15 downto 0));
      rtab(ADDR_BPC / 4)            := std_logic_vector(bpc);
      rtab(ADDR_CNT_CNP / 4)        := std_logic_vector(r.cnt.cnt_cnp);
      rtab(ADDR_CNT_DEC / 4)        := std_logic_vector(r.cnt.cnt_dec);
      rtab(ADDR_CNT_INC_FR / 4)     := std_logic_vector(r.cnt.cnt_inc_fr);
      rtab(ADDR_CNT_INC_AI / 4)     := std_logic_vector(r.cnt.cnt_inc_ai);
      rtab(ADDR_CNT_INC_HAI / 4)    := std_logic_vector(r.cnt.cnt_inc_hai);
      rtab(ADDR_CNT_INC_TIMER / 4)  := std_logic_vector(r.cnt.cnt_inc_timer);
      rtab(ADDR_CNT_INC_BYTE / 4)   := std_logic_vector(r.cnt.cnt_inc_byte);
      rtab(ADDR_CNT_STALL / 4)      := std_logic_vector(r.cnt.cnt_stall);
      rtab(ADDR_CNT_BYTES_LO / 4)   := std_logic_vector(r.cnt.cnt_bytes(31 downto 0));
      rtab(ADDR_CNT_BYTES_HI / 4)   := std_logic_vector(r.cnt.bytes_hi);
      rtab(ADDR_STATUS / 4)         := to_word(StatusWordType'(
        t_stage       => t_stage,
        b_stage       => b_stage,
        active        => active,
        dec_pending   => dec_pending,
        alpha_pending => alpha_pending));
      rtab(ADDR_TRACE_STATUS / 4)   := to_word(TraceStatusWordType'(
        trace_count => r.trace.count,
        trace_wptr  => r.trace.wptr,
        trace_lost  => r.trace.lost));
      rtab(ADDR_TRACE_COUNTS / 4)   := to_word(TraceCountsWordType'(
        trace_n_dec   => r.trace.n_dec,
        trace_n_byte  => r.trace.n_byte,
        trace_n_timer => r.trace.n_timer));
      rtab(ADDR_TRACE_TIME / 4)     := std_logic_vector(r.trace.time);
      rtab(ADDR_TRACE_ENTRY / 4)    := to_word(TraceEntryWordType'(
        entry_type  => unsigned(trace_sel_rd(2 downto 0)),
        entry_both  => trace_sel_rd(3),
        entry_valid => sel_valid));
      rtab(ADDR_TRACE_RC / 4)       := trace_sel_rd(35 downto 4);
      rtab(ADDR_TRACE_STAMP / 4)    := trace_sel_rd(67 downto 36);

      if (rd_word(rd_word'high downto READ_BITS_C) = 0) then
        rword   := rtab(to_integer(rd_word(READ_BITS_C - 1 downto 0)));
        rmapped := READ_MAP_C(to_integer(rd_word(READ_BITS_C - 1 downto 0))) and word_built(rd_word);
      else
        rword   := (others => '0');
        rmapped := '0';
      end if;

      v.rdata := rword;
      if (rmapped = '0') then
        -- spec 2: a word of an absent feature reads as an unmapped one
        v.rdata := (others => '0');
      end if;
      if (rmapped = '1') then
        v.rresp := RESP_OKAY;
      else
        v.rresp := RESP_DECERR;
      end if;
    end if;
    -- Counters: wrap; a clear in cycle t wins, the counter is 0 at t+1 (spec 6.2)
    if (cnp_cnt_clear = '1') then
      v.cnt.cnp_cnt16 := (others => '0');
    elsif (cnp_edge = '1') then
      v.cnt.cnp_cnt16 := r.cnt.cnp_cnt16 + 1;
    end if;

    if (cnp_edge = '1') then
      v.cnt.cnt_cnp := r.cnt.cnt_cnp + 1;
    end if;
    if (dec_fire = '1') then
      v.cnt.cnt_dec := r.cnt.cnt_dec + 1;
    end if;
    if (inc_event = '1' and phase_fr = '1') then
      v.cnt.cnt_inc_fr := r.cnt.cnt_inc_fr + 1;
    end if;
    if (inc_event = '1' and phase_ai = '1') then
      v.cnt.cnt_inc_ai := r.cnt.cnt_inc_ai + 1;
    end if;
    if (inc_event = '1' and phase_hai = '1') then
      v.cnt.cnt_inc_hai := r.cnt.cnt_inc_hai + 1;
    end if;
    if (inc_event = '1' and timer_fire = '1') then
      v.cnt.cnt_inc_timer := r.cnt.cnt_inc_timer + 1;
    end if;
    if (inc_event = '1' and byte_fire = '1') then
      v.cnt.cnt_inc_byte := r.cnt.cnt_inc_byte + 1;
    end if;
    if (stall = '1') then
      v.cnt.cnt_stall := r.cnt.cnt_stall + 1;
    end if;
    v.cnt.cnt_bytes := r.cnt.cnt_bytes + bytes_in;
    -- spec 6.2: a read of 0x140 latches the upper half for a later read of 0x144
    if (rd_en = '1' and rd_word = word_index(ADDR_CNT_BYTES_LO)) then
      v.cnt.bytes_hi := r.cnt.cnt_bytes(63 downto 32);
    end if;

    if (cnt_clear = '1') then
      -- the counters 0x120-0x144 (cnp_cnt16 has its own clear); wins over the bytes_hi latch
      v.cnt.cnt_cnp       := (others => '0');
      v.cnt.cnt_dec       := (others => '0');
      v.cnt.cnt_inc_fr    := (others => '0');
      v.cnt.cnt_inc_ai    := (others => '0');
      v.cnt.cnt_inc_hai   := (others => '0');
      v.cnt.cnt_inc_timer := (others => '0');
      v.cnt.cnt_inc_byte  := (others => '0');
      v.cnt.cnt_stall     := (others => '0');
      v.cnt.cnt_bytes     := (others => '0');
      v.cnt.bytes_hi      := (others => '0');
    end if;

    -- spec 4.10: the event trace, on the configuration of the cycle (r); a clear wins. The entry:
    -- type 0b000 for a decrease; for an increase bit 2 timer_fire, bits [1:0] the phase (0b01
    -- fast recovery, 0b10 hyper, 0b11 additive), both = timer_fire and byte_fire
    trace_ev   := to_sl(FEAT_TRACE_C) and r.trace_cfg.trace_en and (dec_fire or inc_event);
    trace_full := r.trace.count(6);
    trace_rec  := not rst and trace_ev and not trace_clear and (not trace_full or r.trace_cfg.trace_wrap);
    trace_kind := "000";
    trace_both := '0';
    if (dec_fire = '0') then
      trace_kind := timer_fire & (phase_ai or phase_hai) & (phase_fr or phase_ai);
      trace_both := timer_fire and byte_fire;
    end if;
    if (trace_clear = '1' or not FEAT_TRACE_C) then
      v.trace := TRACE_INIT_C;
    elsif (r.trace_cfg.trace_en = '1') then
      if (trace_rec = '1') then
        v.trace.wptr := r.trace.wptr + 1;
        if (trace_full = '1') then
          v.trace.count := to_unsigned(TRACE_DEPTH_C, 7);
        else
          v.trace.count := r.trace.count + 1;
        end if;
      end if;
      v.trace.lost := r.trace.lost or (trace_ev and trace_full);
      if (trace_ev = '1' and dec_fire = '1') then
        v.trace.n_dec := sat_inc(r.trace.n_dec);
      end if;
      if (trace_ev = '1' and inc_event = '1' and byte_fire = '1') then
        v.trace.n_byte := sat_inc(r.trace.n_byte);
      end if;
      if (trace_ev = '1' and inc_event = '1' and timer_fire = '1') then
        v.trace.n_timer := sat_inc(r.trace.n_timer);
      end if;
      v.trace.time := sat_inc(r.trace.time);
    end if;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    -- the storage's write port (no write in a reset cycle)
    trace_we    <= trace_rec;
    trace_wdata <= std_logic_vector(r.trace.time) & std_logic_vector(rc_next) & trace_both &
                   trace_kind;

    s_axil_awready <= wr_en;
    s_axil_wready  <= wr_en;
    s_axil_arready <= rd_en;
    s_axil_bvalid  <= r.bvalid;
    s_axil_bresp   <= r.bresp;
    s_axil_rvalid  <= r.rvalid;
    s_axil_rdata   <= r.rdata;
    s_axil_rresp   <= r.rresp;

    cfg_alpha_g         <= r.cfg.alpha_g;
    cfg_dec_gain        <= r.cfg.dec_gain;
    cfg_stage_threshold <= r.cfg.stage_threshold;
    cfg_clamp_tgt       <= r.cfg.clamp_tgt;
    cfg_rai             <= r.cfg.rai;
    cfg_rhai            <= r.cfg.rhai;
    cfg_rmin            <= r.cfg.rmin;
    cfg_inc_interval    <= r.cfg.inc_interval;
    cfg_dec_interval    <= r.cfg.dec_interval;
    cfg_alpha_interval  <= r.cfg.alpha_interval;
    cfg_bypass          <= r.cfg.bypass;
    cfg_timer_en        <= r.cfg.timer_en;
    cfg_byte_en         <= r.cfg.byte_en;
    cfg_byte_threshold  <= r.cfg.byte_threshold;
    cfg_credit_cap      <= r.cfg.credit_cap;
    -- spec 2: an absent feature's configuration is its reset value (a constant for the synthesis)
    if (FEAT_RATE_RULES_C) then
      cfg_rmax           <= r.cfg.rmax;
      cfg_rate_first_cnp <= r.cfg.rate_first_cnp;
      cfg_alpha_init     <= r.cfg.alpha_init;
      cfg_min_dec_fac    <= r.cfg.min_dec_fac;
      cfg_hai_mult       <= r.cfg.hai_mult;
    else
      cfg_rmax           <= CFG_INIT_C.rmax;
      cfg_rate_first_cnp <= CFG_INIT_C.rate_first_cnp;
      cfg_alpha_init     <= CFG_INIT_C.alpha_init;
      cfg_min_dec_fac    <= CFG_INIT_C.min_dec_fac;
      cfg_hai_mult       <= CFG_INIT_C.hai_mult;
    end if;
    if (FEAT_CONTROL_C) then
      cfg_scheme    <= r.cfg.scheme;
      cfg_gate_mask <= r.cfg.gate_mask;
      cfg_fw_rate   <= r.cfg.fw_rate;
    else
      cfg_scheme    <= CFG_INIT_C.scheme;
      cfg_gate_mask <= CFG_INIT_C.gate_mask;
      cfg_fw_rate   <= CFG_INIT_C.fw_rate;
    end if;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

  -- spec 4.10: the trace storage; read at phys = full ? (trace_wptr + k) mod 64 : k
  trace_phys <= r.trace.wptr + r.trace_cfg.trace_sel when r.trace.count(6) = '1' else
                r.trace_cfg.trace_sel;
  trace_rd   <= trace_mem(to_integer(trace_phys));

  mem : process (clk) is
  begin
    if rising_edge(clk) then
      if (trace_we = '1') then
        trace_mem(to_integer(r.trace.wptr)) <= trace_wdata;
      end if;
    end if;
  end process mem;

  -- pragma translate_off
  -- simulation only: the state record for simulators without external names (dcqcn_tap_pkg)
  tap_regs      <= r;
  tap_trace_mem <= trace_mem;
  -- pragma translate_on

end architecture rtl;
