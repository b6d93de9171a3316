-- SPDX-License-Identifier: MIT
-- dcqcn_mq_regs: AXI4-Lite register file with the per-QP windows, the counters and the DFX
-- window (spec-mq 5.9, 6).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_mq_pkg.all;

entity dcqcn_mq_regs is
  generic (
    QPS         : positive                      := MQ_QPS_C;
    CLK_FREQ_HZ : std_logic_vector(31 downto 0) := MQ_CLK_FREQ_HZ_C; -- reset values (spec-mq 2)
    LINE_WIN    : natural                       := 8192              -- the line_win word
  );
  port (
    clk             : in    std_logic;
    rst             : in    std_logic;
    -- AXI4-Lite slave: write (spec-mq 6.1: 21 address bits, addr[1:0] ignored)
    s_axil_awaddr   : in    std_logic_vector(20 downto 0);
    s_axil_awvalid  : in    std_logic;
    s_axil_awready  : out   std_logic;
    s_axil_wdata    : in    std_logic_vector(31 downto 0);
    s_axil_wstrb    : in    std_logic_vector(3 downto 0);
    s_axil_wvalid   : in    std_logic;
    s_axil_wready   : out   std_logic;
    s_axil_bresp    : out   std_logic_vector(1 downto 0);
    s_axil_bvalid   : out   std_logic;
    s_axil_bready   : in    std_logic;
    -- AXI4-Lite slave: read
    s_axil_araddr   : in    std_logic_vector(20 downto 0);
    s_axil_arvalid  : in    std_logic;
    s_axil_arready  : out   std_logic;
    s_axil_rdata    : out   std_logic_vector(31 downto 0);
    s_axil_rresp    : out   std_logic_vector(1 downto 0);
    s_axil_rvalid   : out   std_logic;
    s_axil_rready   : in    std_logic;
    -- read-only state
    init            : in    std_logic;
    now             : in    unsigned(31 downto 0);
    scan_q          : in    qp_t;
    pcredit         : in    signed(31 downto 0);
    -- window access completion at the visit (dcqcn_mq_visit, spec-mq 6.1)
    win_wr_done     : in    std_logic;
    win_wr_err      : in    std_logic;
    win_rd_done     : in    std_logic;
    win_rd_err      : in    std_logic;
    win_rdata       : in    word32_t;
    -- events counted this cycle (spec-mq 6.2) and the visit's rate events (5.4, 5.9)
    ev_cnp          : in    std_logic;
    ev_dec          : in    std_logic;
    ev_inc          : in    std_logic;
    ev_tf           : in    std_logic;
    ev_bf           : in    std_logic;
    ev_fr           : in    std_logic;
    ev_ai           : in    std_logic;
    ev_hai          : in    std_logic;
    ev_rc           : in    rate_t;
    ev_grant        : in    std_logic;
    ev_grant_bytes  : in    unsigned(15 downto 0);
    ev_req          : in    std_logic;
    ev_req_drop     : in    std_logic;
    ev_rpt          : in    std_logic;
    ev_rpt_spurious : in    std_logic;
    ev_bad_qp       : in    unsigned(1 downto 0); -- 0..3 inputs with QP >= QPS
    ev_init_drop    : in    unsigned(1 downto 0); -- 0..2 inputs dropped in the init round
    -- configuration
    cfg             : out   MqCfgType;
    -- the pending window accesses; wclr: the pending write is a qp_clear (spec-mq 4.5)
    wpend           : out   std_logic;
    wq              : out   qp_t;
    wword           : out   unsigned(5 downto 0);
    wdata           : out   word32_t;
    wstrb           : out   std_logic_vector(3 downto 0);
    wclr            : out   std_logic;
    -- a qp_clear accepted this cycle and its QP (spec-mq 4.5 clear_next)
    aclr            : out   std_logic;
    aclr_q          : out   qp_t;
    rpend           : out   std_logic;
    rq              : out   qp_t;
    rword           : out   unsigned(5 downto 0);
    -- the DFX write of this cycle (the wd stream)
    dfx_rec         : out   std_logic;
    dfx_rec_wptr    : out   unsigned(5 downto 0);
    dfx_rec_entry   : out   dfx_entry_t;
    -- state
    st              : out   MqRegsRegType
  );
end entity dcqcn_mq_regs;

architecture rtl of dcqcn_mq_regs is

  constant Q_C  : unsigned(12 downto 0) := to_unsigned(QPS, 13);
  constant LW_C : rate_t                := to_unsigned(LINE_WIN, 24);

  -- spec-mq 6.2: id = magic 0xDC4D, version 1
  constant ID_WORD_C : word32_t := x"DC4D" & x"01" & x"00";

  -- spec-mq 6.2: global word indices (addr[8:2]; addr[11:9] /= 0 is unmapped)
  constant G_ID_C            : natural := 16#000# / 4;
  constant G_PARAMS_C        : natural := 16#004# / 4;
  constant G_LINE_WIN_C      : natural := 16#008# / 4;
  constant G_STATUS_C        : natural := 16#00C# / 4;
  constant G_ENABLES_C       : natural := 16#010# / 4;
  constant G_CNP_MERGE_C     : natural := 16#014# / 4;
  constant G_NOCNP_C         : natural := 16#018# / 4;
  constant G_BYTE_CNT_TH_C   : natural := 16#01C# / 4;
  constant G_MAX_RATE_C      : natural := 16#020# / 4;
  constant G_ALPHA_TIMER_C   : natural := 16#024# / 4;
  constant G_ALPHA_CFG_C     : natural := 16#028# / 4;
  constant G_RATE_AI_C       : natural := 16#02C# / 4;
  constant G_RATE_HAI_C      : natural := 16#030# / 4;
  constant G_RATE_MIN_C      : natural := 16#034# / 4;
  constant G_INC_CFG_C       : natural := 16#038# / 4;
  constant G_CNP_TIMER_C     : natural := 16#03C# / 4;
  constant G_OST_LIMITS_C    : natural := 16#040# / 4;
  constant G_CREDIT_CAP_C    : natural := 16#044# / 4;
  constant G_PORT_CREDIT_C   : natural := 16#048# / 4;
  constant G_NOW_C           : natural := 16#04C# / 4;
  constant G_CNT_CTRL_C      : natural := 16#100# / 4;
  constant G_CNT_CNP_C       : natural := 16#104# / 4;
  constant G_CNT_DEC_C       : natural := 16#108# / 4;
  constant G_CNT_INC_FR_C    : natural := 16#10C# / 4;
  constant G_CNT_INC_AI_C    : natural := 16#110# / 4;
  constant G_CNT_INC_HAI_C   : natural := 16#114# / 4;
  constant G_CNT_INC_TIMER_C : natural := 16#118# / 4;
  constant G_CNT_INC_BYTE_C  : natural := 16#11C# / 4;
  constant G_CNT_GRANT_C     : natural := 16#120# / 4;
  constant G_CNT_GRANT_LO_C  : natural := 16#124# / 4;
  constant G_CNT_GRANT_HI_C  : natural := 16#128# / 4;
  constant G_CNT_REQ_C       : natural := 16#12C# / 4;
  constant G_CNT_REQ_DROP_C  : natural := 16#130# / 4;
  constant G_CNT_RPT_C       : natural := 16#134# / 4;
  constant G_CNT_RPT_SPUR_C  : natural := 16#138# / 4;
  constant G_CNT_BAD_QP_C    : natural := 16#13C# / 4;
  constant G_CNT_INIT_DROP_C : natural := 16#140# / 4;
  constant G_DFX_CTRL_C      : natural := 16#170# / 4;
  constant G_DFX_STATUS_C    : natural := 16#174# / 4;
  constant G_DFX_COUNTS_C    : natural := 16#178# / 4;
  constant G_DFX_TIME_C      : natural := 16#17C# / 4;
  constant G_DFX_SEL_C       : natural := 16#180# / 4;
  constant G_DFX_ENTRY_C     : natural := 16#184# / 4;
  constant G_DFX_RC_C        : natural := 16#188# / 4;
  constant G_DFX_STAMP_C     : natural := 16#18C# / 4;
  constant G_DFX_QP_C        : natural := 16#190# / 4;

  constant READ_WORDS_C : natural := 128;

  type Word32ArrayType is array (natural range <>) of word32_t;

  -- spec-mq 6.2: the global words that can be read, and those that can be written
  function global_map (writable : boolean) return std_logic_vector is
    variable m : std_logic_vector(0 to READ_WORDS_C - 1) := (others => '0');
  begin
    for w in G_ENABLES_C to G_CREDIT_CAP_C loop
      m(w) := '1';
    end loop;
    m(G_CNT_CTRL_C) := '1';
    m(G_DFX_CTRL_C) := '1';
    m(G_DFX_SEL_C)  := '1';
    m(G_DFX_QP_C)   := '1';
    if (not writable) then
      for w in G_ID_C to G_STATUS_C loop
        m(w) := '1';
      end loop;
      m(G_PORT_CREDIT_C) := '1';
      m(G_NOW_C)         := '1';
      for w in G_CNT_CNP_C to G_CNT_INIT_DROP_C loop
        m(w) := '1';
      end loop;
      for w in G_DFX_STATUS_C to G_DFX_STAMP_C loop
        m(w) := '1';
      end loop;
    end if;
    return m;
  end function global_map;

  constant READ_MAP_C  : std_logic_vector(0 to READ_WORDS_C - 1) := global_map(false);
  constant WRITE_MAP_C : std_logic_vector(0 to READ_WORDS_C - 1) := global_map(true);

  -- spec-mq 6.2 reset values
  constant CFG_INIT_C : MqCfgType := (
    dcqcn_hw_en         => '1',
    hw_rate_throttle_en => '1',
    tx_wqe_ost_limit_en => '1',
    speed_limiter_en    => '1',
    cnp_merge_period    => mq_merge_reset(CLK_FREQ_HZ),
    nocnp_timer_th      => mq_nocnp_reset(CLK_FREQ_HZ),
    byte_cnt_th         => (others => '0'),
    max_rate            => (others => '0'),
    alpha_timer_th      => mq_alpha_reset(CLK_FREQ_HZ),
    upd_alpha_g         => to_unsigned(4, 10),
    alpha_rate_shift    => to_unsigned(1, 4),
    alpha_init          => to_unsigned(1023, 10),
    rate_ai             => mq_per_window(CLK_FREQ_HZ, 6_144),
    rate_hai            => mq_per_window(CLK_FREQ_HZ, 12_288),
    rate_min            => mq_per_window(CLK_FREQ_HZ, 10_240),
    stage_threshold     => to_unsigned(5, 8),
    clamp_tgt           => '0',
    cnp_timer_thrd      => mq_cnp_timer_reset(CLK_FREQ_HZ),
    ost_limit           => to_unsigned(16, 8),
    ost_limit_cnp       => to_unsigned(8, 8),
    credit_cap          => to_unsigned(65_536, 21),
    dfx_en              => '0',
    dfx_wrap            => '0',
    dfx_sel             => (others => '0'),
    dfx_qp              => (others => '0'));

  constant CNT_INIT_C : MqCntType := (
    cnt_cnp               => (others => '0'),
    cnt_dec               => (others => '0'),
    cnt_inc_fr            => (others => '0'),
    cnt_inc_ai            => (others => '0'),
    cnt_inc_hai           => (others => '0'),
    cnt_inc_timer         => (others => '0'),
    cnt_inc_byte          => (others => '0'),
    cnt_grant             => (others => '0'),
    cnt_grant_bytes       => (others => '0'),
    cnt_grant_bytes_latch => (others => '0'),
    cnt_req               => (others => '0'),
    cnt_req_drop          => (others => '0'),
    cnt_rpt               => (others => '0'),
    cnt_rpt_spurious      => (others => '0'),
    cnt_bad_qp            => (others => '0'),
    cnt_init_drop         => (others => '0'));

  constant DFX_INIT_C : MqDfxType := (
    dfx_count   => (others => '0'),
    dfx_wptr    => (others => '0'),
    dfx_lost    => '0',
    dfx_n_dec   => (others => '0'),
    dfx_n_byte  => (others => '0'),
    dfx_n_timer => (others => '0'),
    dfx_time    => (others => '0'));

  constant REG_INIT_C : MqRegsRegType := (
    wpend  => '0',
    wq     => (others => '0'),
    wword  => (others => '0'),
    wdata  => (others => '0'),
    wstrb  => (others => '0'),
    rpend  => '0',
    rq     => (others => '0'),
    rword  => (others => '0'),
    bvalid => '0',
    bresp  => RESP_OKAY,
    rvalid => '0',
    rdata  => (others => '0'),
    rresp  => RESP_OKAY,
    cfg    => CFG_INIT_C,
    cnt    => CNT_INIT_C,
    dfx    => DFX_INIT_C);

  -- spec-mq 5.9: saturating increment of a DFX count
  function sat_inc (x : unsigned) return unsigned is
  begin
    if (x = (x'range => '1')) then
      return x;
    end if;
    return x + 1;
  end function sat_inc;

  -- the words of the configuration registers (spec-mq 6.2)
  function cfg_word (c : MqCfgType; w : natural) return word32_t is
    variable x : word32_t := (others => '0');
  begin
    if (w = G_ENABLES_C) then
      x(3 downto 0) := c.speed_limiter_en & c.tx_wqe_ost_limit_en & c.hw_rate_throttle_en & c.dcqcn_hw_en;
    elsif (w = G_CNP_MERGE_C) then
      x(15 downto 0) := std_logic_vector(c.cnp_merge_period);
    elsif (w = G_NOCNP_C) then
      x(23 downto 0) := std_logic_vector(c.nocnp_timer_th);
    elsif (w = G_BYTE_CNT_TH_C) then
      x := std_logic_vector(c.byte_cnt_th);
    elsif (w = G_MAX_RATE_C) then
      x(23 downto 0) := std_logic_vector(c.max_rate);
    elsif (w = G_ALPHA_TIMER_C) then
      x(15 downto 0) := std_logic_vector(c.alpha_timer_th);
    elsif (w = G_ALPHA_CFG_C) then
      x(9 downto 0)   := std_logic_vector(c.upd_alpha_g);
      x(19 downto 16) := std_logic_vector(c.alpha_rate_shift);
      x(29 downto 20) := std_logic_vector(c.alpha_init);
    elsif (w = G_RATE_AI_C) then
      x(23 downto 0) := std_logic_vector(c.rate_ai);
    elsif (w = G_RATE_HAI_C) then
      x(23 downto 0) := std_logic_vector(c.rate_hai);
    elsif (w = G_RATE_MIN_C) then
      x(23 downto 0) := std_logic_vector(c.rate_min);
    elsif (w = G_INC_CFG_C) then
      x(7 downto 0) := std_logic_vector(c.stage_threshold);
      x(8)          := c.clamp_tgt;
    elsif (w = G_CNP_TIMER_C) then
      x(23 downto 0) := std_logic_vector(c.cnp_timer_thrd);
    elsif (w = G_OST_LIMITS_C) then
      x(7 downto 0)  := std_logic_vector(c.ost_limit);
      x(15 downto 8) := std_logic_vector(c.ost_limit_cnp);
    elsif (w = G_CREDIT_CAP_C) then
      x(20 downto 0) := std_logic_vector(c.credit_cap);
    elsif (w = G_DFX_CTRL_C) then
      x(1 downto 0) := c.dfx_wrap & c.dfx_en;
    elsif (w = G_DFX_SEL_C) then
      x(5 downto 0) := std_logic_vector(c.dfx_sel);
    elsif (w = G_DFX_QP_C) then
      x(11 downto 0) := std_logic_vector(c.dfx_qp);
    end if;
    return x;
  end function cfg_word;

  signal r   : MqRegsRegType := REG_INIT_C;
  signal rin : MqRegsRegType;

  -- spec-mq 5.9: the DFX storage, one write port at dfx_wptr and one asynchronous read port at
  -- dfx_phys, no reset and no initial value (distributed RAM, as trace_mem of dcqcn_rl)
  signal dfx_mem : DfxMemType;

  attribute RAM_STYLE : string;
  attribute RAM_STYLE of dfx_mem : signal is "distributed";

  signal dfx_we    : std_logic;
  signal dfx_wdata : dfx_entry_t;
  signal dfx_phys  : unsigned(5 downto 0);
  signal dfx_rd    : dfx_entry_t;

begin

  comb : process (all) is
    variable v         : MqRegsRegType;
    variable wr_en     : std_logic;
    variable rd_en     : std_logic;
    variable wr_win    : std_logic;
    variable rd_win    : std_logic;
    variable wr_global : std_logic; -- addr[20:12] = 0 and addr[11:9] = 0: a word of the table
    variable rd_global : std_logic;
    variable wr_word   : natural range 0 to READ_WORDS_C - 1;
    variable rd_word   : natural range 0 to READ_WORDS_C - 1;
    variable w_qp      : qp_t;
    variable w_wword   : unsigned(5 downto 0);
    variable r_qp      : qp_t;
    variable r_wword   : unsigned(5 downto 0);
    variable w_ok      : std_logic; -- a writable global word
    variable m         : word32_t;
    variable rtab      : Word32ArrayType(0 to READ_WORDS_C - 1);
    variable cnt_clear : std_logic;
    variable dfx_clear : std_logic;
    variable ev        : std_logic;
    variable full      : std_logic;
    variable rec       : std_logic;
    variable kind      : std_logic_vector(2 downto 0);
    variable both      : std_logic;
    variable sel_valid : std_logic;
    variable sel_rd    : dfx_entry_t;
  begin
    v := r;

    -- spec-mq 6.1: one access per channel, one pending access each; readies 0 in reset
    wr_en := not rst and s_axil_awvalid and s_axil_wvalid and not r.bvalid and not r.wpend;
    rd_en := not rst and s_axil_arvalid and not r.rvalid and not r.rpend;

    -- spec-mq 6.1: two regions, addr[20]
    wr_win    := s_axil_awaddr(20);
    rd_win    := s_axil_araddr(20);
    wr_global := not s_axil_awaddr(20) and to_sl(unsigned(s_axil_awaddr(19 downto 9)) = 0);
    rd_global := not s_axil_araddr(20) and to_sl(unsigned(s_axil_araddr(19 downto 9)) = 0);
    wr_word   := to_integer(unsigned(s_axil_awaddr(8 downto 2)));
    rd_word   := to_integer(unsigned(s_axil_araddr(8 downto 2)));
    w_qp      := unsigned(s_axil_awaddr(19 downto 8));
    w_wword   := unsigned(s_axil_awaddr(7 downto 2));
    r_qp      := unsigned(s_axil_araddr(19 downto 8));
    r_wword   := unsigned(s_axil_araddr(7 downto 2));
    w_ok      := wr_global and WRITE_MAP_C(wr_word);

    -- spec-mq 6.2: write-only actions, when their byte lane is strobed
    cnt_clear := wr_en and w_ok and to_sl(wr_word = G_CNT_CTRL_C) and s_axil_wstrb(0) and s_axil_wdata(0);
    dfx_clear := wr_en and w_ok and to_sl(wr_word = G_DFX_CTRL_C) and s_axil_wstrb(1) and s_axil_wdata(8);

    -- spec-mq 6.1, 6.2: global writes (strobes on the current word, then the fields)
    if ((wr_en and w_ok) = '1') then
      m := lane_merge(cfg_word(r.cfg, wr_word), s_axil_wdata, s_axil_wstrb);
      if (wr_word = G_ENABLES_C) then
        v.cfg.dcqcn_hw_en         := m(0);
        v.cfg.hw_rate_throttle_en := m(1);
        v.cfg.tx_wqe_ost_limit_en := m(2);
        v.cfg.speed_limiter_en    := m(3);
      end if;
      if (wr_word = G_CNP_MERGE_C) then
        v.cfg.cnp_merge_period := unsigned(m(15 downto 0));
      end if;
      if (wr_word = G_NOCNP_C) then
        v.cfg.nocnp_timer_th := unsigned(m(23 downto 0));
      end if;
      if (wr_word = G_BYTE_CNT_TH_C) then
        v.cfg.byte_cnt_th := unsigned(m);
      end if;
      if (wr_word = G_MAX_RATE_C) then
        v.cfg.max_rate := unsigned(m(23 downto 0));
      end if;
      if (wr_word = G_ALPHA_TIMER_C) then
        v.cfg.alpha_timer_th := unsigned(m(15 downto 0));
      end if;
      if (wr_word = G_ALPHA_CFG_C) then
        v.cfg.upd_alpha_g      := unsigned(m(9 downto 0));
        v.cfg.alpha_rate_shift := unsigned(m(19 downto 16));
        v.cfg.alpha_init       := unsigned(m(29 downto 20));
      end if;
      if (wr_word = G_RATE_AI_C) then
        v.cfg.rate_ai := unsigned(m(23 downto 0));
      end if;
      if (wr_word = G_RATE_HAI_C) then
        v.cfg.rate_hai := unsigned(m(23 downto 0));
      end if;
      if (wr_word = G_RATE_MIN_C) then
        v.cfg.rate_min := unsigned(m(23 downto 0));
      end if;
      if (wr_word = G_INC_CFG_C) then
        v.cfg.stage_threshold := unsigned(m(7 downto 0));
        v.cfg.clamp_tgt       := m(8);
      end if;
      if (wr_word = G_CNP_TIMER_C) then
        v.cfg.cnp_timer_thrd := unsigned(m(23 downto 0));
      end if;
      if (wr_word = G_OST_LIMITS_C) then
        v.cfg.ost_limit     := unsigned(m(7 downto 0));
        v.cfg.ost_limit_cnp := unsigned(m(15 downto 8));
      end if;
      if (wr_word = G_CREDIT_CAP_C) then
        v.cfg.credit_cap := unsigned(m(20 downto 0));
      end if;
      if (wr_word = G_DFX_CTRL_C) then
        v.cfg.dfx_en   := m(0);
        v.cfg.dfx_wrap := m(1);
      end if;
      if (wr_word = G_DFX_SEL_C) then
        v.cfg.dfx_sel := unsigned(m(5 downto 0));
      end if;
      if (wr_word = G_DFX_QP_C) then
        v.cfg.dfx_qp := unsigned(m(11 downto 0));
      end if;
    end if;

    -- spec-mq 6.1: the write response. A global word answers in the next cycle; a window word
    -- with QP >= QPS, unmapped or read-only at once with DECERR; any other window write waits
    -- for its QP's visit
    v.bvalid := r.bvalid and not s_axil_bready;
    -- spec-mq 4.5: a qp_clear accepted this cycle, pending in the next
    aclr     <= wr_en and wr_win and qp_lt(w_qp, QPS) and to_sl(w_wword = WIN_CTRL_C) and
                s_axil_wstrb(0) and s_axil_wdata(1);
    aclr_q   <= w_qp;
    if (wr_en = '1') then
      if (wr_win = '1' and qp_lt(w_qp, QPS) = '1' and win_writable(w_wword) = '1') then
        v.wpend := '1';
        v.wq    := w_qp;
        v.wword := w_wword;
        v.wdata := s_axil_wdata;
        v.wstrb := s_axil_wstrb;
      else
        v.bvalid := '1';
        if (w_ok = '1') then
          v.bresp := RESP_OKAY;
        else
          v.bresp := RESP_DECERR;
        end if;
      end if;
    end if;
    if ((win_wr_done or win_wr_err) = '1') then
      v.wpend  := '0';
      v.bvalid := '1';
      if (win_wr_done = '1') then
        v.bresp := RESP_OKAY;
      else
        v.bresp := RESP_DECERR;
      end if;
    end if;

    -- spec-mq 5.9: the selected entry (dfx_sel = k, the k-th oldest) and whether it exists
    sel_valid := to_sl(resize(r.cfg.dfx_sel, 7) < r.dfx.dfx_count);
    if (sel_valid = '1') then
      sel_rd := dfx_rd;
    else
      sel_rd := (others => '0');
    end if;

    -- spec-mq 6.2: the readable global words (S(t)); a table indexed by addr[8:2], not a case
    -- (rtl/vhdl/README.md: GHDL 2.0's Verilog writer drops a case's default)
    rtab := (others => (others => '0'));
    for w in G_ENABLES_C to G_CREDIT_CAP_C loop
      rtab(w) := cfg_word(r.cfg, w);
    end loop;
    rtab(G_DFX_CTRL_C)                 := cfg_word(r.cfg, G_DFX_CTRL_C);
    rtab(G_DFX_SEL_C)                  := cfg_word(r.cfg, G_DFX_SEL_C);
    rtab(G_DFX_QP_C)                   := cfg_word(r.cfg, G_DFX_QP_C);
    rtab(G_ID_C)                       := ID_WORD_C;
    rtab(G_PARAMS_C)                   := std_logic_vector(resize(Q_C, 32));
    rtab(G_LINE_WIN_C)                 := std_logic_vector(resize(LW_C, 32));
    rtab(G_STATUS_C)(2 downto 0)       := r.rpend & r.wpend & init;
    rtab(G_PORT_CREDIT_C)              := std_logic_vector(pcredit);
    rtab(G_NOW_C)                      := std_logic_vector(now);
    rtab(G_CNT_CNP_C)                  := std_logic_vector(r.cnt.cnt_cnp);
    rtab(G_CNT_DEC_C)                  := std_logic_vector(r.cnt.cnt_dec);
    rtab(G_CNT_INC_FR_C)               := std_logic_vector(r.cnt.cnt_inc_fr);
    rtab(G_CNT_INC_AI_C)               := std_logic_vector(r.cnt.cnt_inc_ai);
    rtab(G_CNT_INC_HAI_C)              := std_logic_vector(r.cnt.cnt_inc_hai);
    rtab(G_CNT_INC_TIMER_C)            := std_logic_vector(r.cnt.cnt_inc_timer);
    rtab(G_CNT_INC_BYTE_C)             := std_logic_vector(r.cnt.cnt_inc_byte);
    rtab(G_CNT_GRANT_C)                := std_logic_vector(r.cnt.cnt_grant);
    rtab(G_CNT_GRANT_LO_C)             := std_logic_vector(r.cnt.cnt_grant_bytes(31 downto 0));
    rtab(G_CNT_GRANT_HI_C)             := std_logic_vector(r.cnt.cnt_grant_bytes_latch);
    rtab(G_CNT_REQ_C)                  := std_logic_vector(r.cnt.cnt_req);
    rtab(G_CNT_REQ_DROP_C)             := std_logic_vector(r.cnt.cnt_req_drop);
    rtab(G_CNT_RPT_C)                  := std_logic_vector(r.cnt.cnt_rpt);
    rtab(G_CNT_RPT_SPUR_C)             := std_logic_vector(r.cnt.cnt_rpt_spurious);
    rtab(G_CNT_BAD_QP_C)               := std_logic_vector(r.cnt.cnt_bad_qp);
    rtab(G_CNT_INIT_DROP_C)            := std_logic_vector(r.cnt.cnt_init_drop);
    rtab(G_DFX_STATUS_C)(6 downto 0)   := std_logic_vector(r.dfx.dfx_count);
    rtab(G_DFX_STATUS_C)(13 downto 8)  := std_logic_vector(r.dfx.dfx_wptr);
    rtab(G_DFX_STATUS_C)(16)           := r.dfx.dfx_lost;
    rtab(G_DFX_COUNTS_C)(9 downto 0)   := std_logic_vector(r.dfx.dfx_n_dec);
    rtab(G_DFX_COUNTS_C)(19 downto 10) := std_logic_vector(r.dfx.dfx_n_byte);
    rtab(G_DFX_COUNTS_C)(29 downto 20) := std_logic_vector(r.dfx.dfx_n_timer);
    rtab(G_DFX_TIME_C)                 := std_logic_vector(r.dfx.dfx_time);
    rtab(G_DFX_ENTRY_C)(3 downto 0)    := sel_rd(3 downto 0);
    rtab(G_DFX_ENTRY_C)(8)             := sel_valid;
    rtab(G_DFX_RC_C)(23 downto 0)      := sel_rd(27 downto 4);
    rtab(G_DFX_STAMP_C)                := sel_rd(59 downto 28);

    -- spec-mq 6.1: the read response, as the write's
    v.rvalid := r.rvalid and not s_axil_rready;
    if (rd_en = '1') then
      if (rd_win = '1' and qp_lt(r_qp, QPS) = '1' and win_mapped(r_wword) = '1') then
        v.rpend := '1';
        v.rq    := r_qp;
        v.rword := r_wword;
      else
        v.rvalid := '1';
        if ((rd_global and READ_MAP_C(rd_word)) = '1') then
          v.rdata := rtab(rd_word);
          v.rresp := RESP_OKAY;
        else
          v.rdata := (others => '0');
          v.rresp := RESP_DECERR;
        end if;
      end if;
    end if;
    if ((win_rd_done or win_rd_err) = '1') then
      v.rpend  := '0';
      v.rvalid := '1';
      if (win_rd_done = '1') then
        v.rdata := win_rdata;
        v.rresp := RESP_OKAY;
      else
        v.rdata := (others => '0');
        v.rresp := RESP_DECERR;
      end if;
    end if;

    -- spec-mq 6.2: counters wrap; a read of cnt_grant_bytes_lo latches the high word; a
    -- cnt_clear in cycle t wins over an increment and over the latch
    v.cnt.cnt_cnp       := r.cnt.cnt_cnp + unsigned'(0 => ev_cnp);
    v.cnt.cnt_dec       := r.cnt.cnt_dec + unsigned'(0 => ev_dec);
    v.cnt.cnt_inc_fr    := r.cnt.cnt_inc_fr + unsigned'(0 => ev_inc and ev_fr);
    v.cnt.cnt_inc_ai    := r.cnt.cnt_inc_ai + unsigned'(0 => ev_inc and ev_ai);
    v.cnt.cnt_inc_hai   := r.cnt.cnt_inc_hai + unsigned'(0 => ev_inc and ev_hai);
    v.cnt.cnt_inc_timer := r.cnt.cnt_inc_timer + unsigned'(0 => ev_inc and ev_tf);
    v.cnt.cnt_inc_byte  := r.cnt.cnt_inc_byte + unsigned'(0 => ev_inc and ev_bf);
    v.cnt.cnt_grant     := r.cnt.cnt_grant + unsigned'(0 => ev_grant);
    if (ev_grant = '1') then
      v.cnt.cnt_grant_bytes := r.cnt.cnt_grant_bytes + ev_grant_bytes;
    end if;
    v.cnt.cnt_req          := r.cnt.cnt_req + unsigned'(0 => ev_req);
    v.cnt.cnt_req_drop     := r.cnt.cnt_req_drop + unsigned'(0 => ev_req_drop);
    v.cnt.cnt_rpt          := r.cnt.cnt_rpt + unsigned'(0 => ev_rpt);
    v.cnt.cnt_rpt_spurious := r.cnt.cnt_rpt_spurious + unsigned'(0 => ev_rpt_spurious);
    v.cnt.cnt_bad_qp       := r.cnt.cnt_bad_qp + ev_bad_qp;
    v.cnt.cnt_init_drop    := r.cnt.cnt_init_drop + ev_init_drop;
    if ((rd_en and rd_global and to_sl(rd_word = G_CNT_GRANT_LO_C)) = '1') then
      v.cnt.cnt_grant_bytes_latch := r.cnt.cnt_grant_bytes(63 downto 32);
    end if;
    if (cnt_clear = '1') then
      v.cnt := CNT_INIT_C;
    end if;

    -- spec-mq 5.9 (docs/spec.md 4.10): the DFX window records the rate events of one QP on the
    -- configuration of the cycle (r); a clear wins. The entry: type 0b000 for a decrease; for an
    -- increase bit 2 the timer trigger, bits [1:0] the phase (0b01 fast recovery, 0b10 hyper,
    -- 0b11 additive); both = the two triggers
    ev   := r.cfg.dfx_en and (ev_dec or ev_inc) and to_sl(scan_q = r.cfg.dfx_qp);
    full := r.dfx.dfx_count(6);
    rec  := not rst and ev and not dfx_clear and (not full or r.cfg.dfx_wrap);
    kind := "000";
    both := ev_tf and ev_bf; -- ev_tf, ev_bf: increase events only (spec-mq 5.4)
    if (ev_dec = '0') then
      kind := ev_tf & (ev_ai or ev_hai) & (ev_fr or ev_ai);
    end if;
    if (dfx_clear = '1') then
      v.dfx := DFX_INIT_C;
    elsif (r.cfg.dfx_en = '1') then
      if (rec = '1') then
        v.dfx.dfx_wptr := r.dfx.dfx_wptr + 1;
        if (full = '1') then
          v.dfx.dfx_count := to_unsigned(64, 7);
        else
          v.dfx.dfx_count := r.dfx.dfx_count + 1;
        end if;
      end if;
      v.dfx.dfx_lost := r.dfx.dfx_lost or (ev and full);
      if ((ev and ev_dec) = '1') then
        v.dfx.dfx_n_dec := sat_inc(r.dfx.dfx_n_dec);
      end if;
      if ((ev and ev_inc and ev_bf) = '1') then
        v.dfx.dfx_n_byte := sat_inc(r.dfx.dfx_n_byte);
      end if;
      if ((ev and ev_inc and ev_tf) = '1') then
        v.dfx.dfx_n_timer := sat_inc(r.dfx.dfx_n_timer);
      end if;
      v.dfx.dfx_time := sat_inc(r.dfx.dfx_time);
    end if;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    dfx_we    <= rec;
    dfx_wdata <= std_logic_vector(r.dfx.dfx_time) & std_logic_vector(ev_rc) & both & kind;

    s_axil_awready <= wr_en;
    s_axil_wready  <= wr_en;
    s_axil_arready <= rd_en;
    s_axil_bvalid  <= r.bvalid;
    s_axil_bresp   <= r.bresp;
    s_axil_rvalid  <= r.rvalid;
    s_axil_rdata   <= r.rdata;
    s_axil_rresp   <= r.rresp;

    cfg   <= r.cfg;
    wpend <= r.wpend;
    wq    <= r.wq;
    wword <= r.wword;
    wdata <= r.wdata;
    wstrb <= r.wstrb;
    wclr  <= to_sl(r.wword = WIN_CTRL_C) and r.wstrb(0) and r.wdata(1);
    rpend <= r.rpend;
    rq    <= r.rq;
    rword <= r.rword;
    st    <= r;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

  -- spec-mq 5.9: the storage; read at phys = full ? (dfx_wptr + k) mod 64 : k
  dfx_phys <= r.dfx.dfx_wptr + r.cfg.dfx_sel when r.dfx.dfx_count(6) = '1' else
              r.cfg.dfx_sel;
  dfx_rd   <= dfx_mem(to_integer(dfx_phys));

  mem : process (clk) is
  begin
    if rising_edge(clk) then
      if (dfx_we = '1') then
        dfx_mem(to_integer(r.dfx.dfx_wptr)) <= dfx_wdata;
      end if;
    end if;
  end process mem;

  dfx_rec       <= dfx_we;
  dfx_rec_wptr  <= r.dfx.dfx_wptr;
  dfx_rec_entry <= dfx_wdata;

end architecture rtl;
