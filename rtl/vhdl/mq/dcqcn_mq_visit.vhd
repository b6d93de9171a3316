-- SPDX-License-Identifier: MIT
-- dcqcn_mq_visit: the scan, the init round, the DCQCN visit function, the window access
-- completion and the wake check (spec-mq 4.3, 5.4, 5.8, 6.1, 6.3).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_mq_pkg.all;

entity dcqcn_mq_visit is
  generic (
    QPS      : positive := MQ_QPS_C;
    LINE_WIN : natural  := 8192 -- spec-mq 2: bytes per 1024-cycle window
  );
  port (
    clk             : in    std_logic;
    rst             : in    std_logic;
    cfg             : in    MqCfgType;
    -- bitmaps, S(t) (spec-mq 4.2)
    req_valid       : in    std_logic_vector(QPS - 1 downto 0);
    rate_ok         : in    std_logic_vector(QPS - 1 downto 0);
    ost_lt_hi       : in    std_logic_vector(QPS - 1 downto 0);
    ost_lt_lo       : in    std_logic_vector(QPS - 1 downto 0);
    lim8            : in    std_logic_vector(QPS - 1 downto 0);
    cnp_flag        : in    std_logic_vector(QPS - 1 downto 0);
    arb_mask        : in    std_logic_vector(QPS - 1 downto 0);
    -- the pending window accesses (spec-mq 6.1; registers of dcqcn_mq_regs)
    wpend           : in    std_logic;
    wq              : in    qp_t;
    wword           : in    unsigned(5 downto 0);
    wdata           : in    word32_t;
    wstrb           : in    std_logic_vector(3 downto 0);
    rpend           : in    std_logic;
    rq              : in    qp_t;
    rword           : in    unsigned(5 downto 0);
    -- the entries of QP scan_q (the visit's read copies, spec-mq 4.8)
    rate_rd         : in    std_logic_vector(RATE_W_C - 1 downto 0);
    cc_rate_rd      : in    std_logic_vector(CC_RATE_W_C - 1 downto 0);
    alpha_rd        : in    std_logic_vector(ALPHA_W_C - 1 downto 0);
    cnp_merge_rd    : in    std_logic_vector(CNP_MERGE_W_C - 1 downto 0);
    byte_counter_rd : in    std_logic_vector(BYTE_COUNTER_W_C - 1 downto 0);
    t_bc_rd         : in    std_logic_vector(T_BC_W_C - 1 downto 0);
    cc_byte_cnt_rd  : in    std_logic_vector(CC_BYTE_CNT_W_C - 1 downto 0);
    grant_cnt_rd    : in    std_logic_vector(GRANT_CNT_W_C - 1 downto 0);
    done_cnt_rd     : in    std_logic_vector(DONE_CNT_W_C - 1 downto 0);
    sent_rd         : in    std_logic_vector(SENT_W_C - 1 downto 0);
    req_rd          : in    std_logic_vector(REQ_W_C - 1 downto 0);
    -- scan_q': the read address of the visit's copies (spec-mq 4.8)
    next_scan       : out   qp_t;
    -- the record memories' write port (spec-mq 5.2; the wv stream of 8.2)
    vw_we           : out   std_logic;
    vw_rec          : out   VisitRecType;
    -- the visit of this cycle: QP, init visit, qp_clear visit, normal visit (a qp_clear visit is
    -- a normal visit too; spec-mq 4.3, 5.8)
    v_qp            : out   qp_t;
    v_init          : out   std_logic;
    v_clear         : out   std_logic;
    v_normal        : out   std_logic;
    -- bitmap bits of QP v (a normal visit, spec-mq 4.3, 5.4, 6.3)
    wake            : out   std_logic;
    lim_clr         : out   std_logic;
    arb_we          : out   std_logic; -- a window write of arb_mask (or a qp_clear)
    arb_bit         : out   std_logic;
    -- window access completion (spec-mq 6.1)
    w_done          : out   std_logic;
    w_err           : out   std_logic; -- an injected pending write with QP >= QPS
    r_done          : out   std_logic;
    r_err           : out   std_logic;
    r_word          : out   word32_t;
    -- rate events of a normal visit (counters and DFX, spec-mq 5.4, 5.9)
    ev_dec          : out   std_logic;
    ev_inc          : out   std_logic;
    ev_tf           : out   std_logic;
    ev_bf           : out   std_logic;
    ev_fr           : out   std_logic;
    ev_ai           : out   std_logic;
    ev_hai          : out   std_logic;
    ev_rc           : out   rate_t;    -- the final rc' of the visit
    -- state
    st              : out   VisitRegType
  );
end entity dcqcn_mq_visit;

architecture rtl of dcqcn_mq_visit is

  constant QMAX_C : qp_t                  := to_unsigned(QPS - 1, 12);
  constant Q_C    : unsigned(12 downto 0) := to_unsigned(QPS, 13); -- spec-mq 5.1: the visit increment
  constant LW_C   : rate_t                := to_unsigned(LINE_WIN, 24);
  constant AW_C   : positive              := mq_aw(QPS);           -- spec-mq 2

  constant REG_INIT_C : VisitRegType := (
    now    => (others => '0'),
    scan_q => (others => '0'),
    init   => '1');

  signal r   : VisitRegType := REG_INIT_C;
  signal rin : VisitRegType;

  -- the record as the memories hold it (spec-mq 5.2)
  function to_rec (
    rate         : std_logic_vector(RATE_W_C - 1 downto 0);
    cc_rate      : std_logic_vector(CC_RATE_W_C - 1 downto 0);
    alpha        : std_logic_vector(ALPHA_W_C - 1 downto 0);
    cnp_merge    : std_logic_vector(CNP_MERGE_W_C - 1 downto 0);
    byte_counter : std_logic_vector(BYTE_COUNTER_W_C - 1 downto 0);
    t_bc         : std_logic_vector(T_BC_W_C - 1 downto 0)
  )
    return VisitRecType is
    variable x : VisitRecType;
  begin
    x.rc          := unsigned(rate(23 downto 0));
    x.rt          := unsigned(rate(47 downto 24));
    x.cc_rate     := unsigned(cc_rate);
    x.alpha       := unsigned(alpha(9 downto 0));
    x.alpha_el    := unsigned(alpha(25 downto 10));
    x.merge_el    := unsigned(cnp_merge(15 downto 0));
    x.dec_pending := cnp_merge(16);
    x.cnp_el      := unsigned(cnp_merge(40 downto 17));
    x.byte_cnt    := unsigned(byte_counter(31 downto 0));
    x.sent_seen   := unsigned(byte_counter(63 downto 32));
    x.t_stage     := unsigned(t_bc(7 downto 0));
    x.b_stage     := unsigned(t_bc(15 downto 8));
    x.active      := t_bc(16);
    x.inc_el      := unsigned(t_bc(40 downto 17));
    return x;
  end function to_rec;

begin

  comb : process (all) is
    variable v        : VisitRegType;
    variable vq       : qp_t;
    variable in_range : std_logic;
    variable nscan    : qp_t;
    variable visit    : std_logic; -- a visit of a QP < QPS outside reset
    variable normal   : std_logic;
    variable wclr     : std_logic;
    variable clear    : std_logic;
    variable whit     : std_logic; -- a window write (not a qp_clear) completing at this visit
    variable o        : VisitRecType;
    variable n        : VisitRecType;
    variable init_rec : VisitRecType;
    variable hw       : std_logic;
    variable rmax     : rate_t;
    variable rmin     : rate_t;
    variable cnp      : std_logic;
    variable lim      : std_logic;
    variable reqv     : std_logic;
    variable sent     : unsigned(31 downto 0);
    variable delta    : unsigned(31 downto 0);
    variable c1       : unsigned(23 downto 0);
    variable pend     : std_logic;
    variable m1       : unsigned(15 downto 0);
    variable dec      : std_logic;
    variable prod_d   : unsigned(33 downto 0);
    variable d        : rate_t;
    variable rc_dec   : rate_t;
    variable rt_dec   : rate_t;
    variable keep_p   : unsigned(20 downto 0);
    variable keep     : unsigned(9 downto 0);
    variable a1       : unsigned(15 downto 0);
    variable a_fire   : std_logic;
    variable t_en     : std_logic;
    variable b_en     : std_logic;
    variable i1       : unsigned(23 downto 0);
    variable b1       : unsigned(31 downto 0);
    variable tf       : std_logic;
    variable bf       : std_logic;
    variable inc      : std_logic;
    variable t_new    : unsigned(7 downto 0);
    variable b_new    : unsigned(7 downto 0);
    variable smax     : unsigned(7 downto 0);
    variable smin     : unsigned(7 downto 0);
    variable fr       : std_logic;
    variable hai      : std_logic;
    variable rt_sum   : unsigned(24 downto 0);
    variable rt_inc   : rate_t;
    variable rc_sum   : unsigned(24 downto 0);
    variable rc_inc   : rate_t;
    variable mw       : word32_t;  -- the written word, strobed lanes over the visit's result
    variable ra       : rate_t;
    variable credit   : signed(31 downto 0);
    variable stamp    : unsigned(31 downto 0);
    variable e        : unsigned(31 downto 0);
    variable refill   : unsigned(55 downto 0);
    variable wsum     : signed(57 downto 0);
    variable gcnt     : unsigned(7 downto 0);
    variable dcnt     : unsigned(7 downto 0);
    variable req_b    : unsigned(15 downto 0);
    variable rw       : word32_t;
    variable rword_i  : natural range 0 to 63;
  begin
    v := r;

    -- spec-mq 4.3: one visit per cycle outside reset; the scan never stalls
    vq       := r.scan_q;
    in_range := qp_lt(r.scan_q, QPS);
    -- in a reset cycle scan_q's reset value 0, so that the read address is a function of the
    -- inputs there (spec-mq 4.8)
    if (rst = '1' or r.scan_q >= QMAX_C) then
      nscan := (others => '0');
    else
      nscan := r.scan_q + 1;
    end if;
    v.scan_q := nscan;
    v.init   := r.init and to_sl(r.scan_q /= QMAX_C);
    v.now    := r.now + 1;

    visit  := not rst and in_range;
    normal := visit and not r.init;

    -- spec-mq 4.5, 5.8: the pending write is a qp_clear (qp_ctrl, bit 1 in strobed lane 0)
    wclr  := wpend and to_sl(wword = WIN_CTRL_C) and wstrb(0) and wdata(1);
    clear := normal and wpend and wclr and to_sl(wq = vq);
    whit  := normal and wpend and not wclr and to_sl(wq = vq);

    -- spec-mq 5.1: derived from S(t)
    hw := cfg.dcqcn_hw_en;
    if (cfg.max_rate = 0 or cfg.max_rate > LW_C) then
      rmax := LW_C;
    else
      rmax := cfg.max_rate;
    end if;
    if (cfg.rate_min = 0) then
      rmin := to_unsigned(1, 24);
    else
      rmin := cfg.rate_min;
    end if;
    rmin := min_u(rmin, rmax);

    -- the record of v in S(t)
    o    := to_rec(rate_rd, cc_rate_rd, alpha_rd, cnp_merge_rd, byte_counter_rd, t_bc_rd);
    -- the bitmaps are indexed by the AW low bits of v, as the memories are (spec-mq 4.8)
    cnp  := bit_at(cnp_flag, vq(AW_C - 1 downto 0));
    lim  := bit_at(lim8, vq(AW_C - 1 downto 0));
    reqv := bit_at(req_valid, vq(AW_C - 1 downto 0));
    sent := unsigned(sent_rd);

    -- spec-mq 5.4 step 1: byte delta and CNP timer (also with hw = 0)
    delta := sent - o.sent_seen;
    c1    := sat_add(o.cnp_el, Q_C);

    -- step 2: decrease with merging
    pend   := o.dec_pending or cnp;
    m1     := sat_add(o.merge_el, Q_C);
    dec    := hw and pend and to_sl(m1 >= cfg.cnp_merge_period);
    prod_d := o.rc * o.alpha;
    prod_d := shift_right(prod_d, to_integer(cfg.alpha_rate_shift) + 10);
    d      := prod_d(23 downto 0);
    rc_dec := o.rc - d;
    if (rc_dec < rmin) then
      rc_dec := rmin;
    end if;
    rc_dec := min_u(rc_dec, rmax);
    if (cfg.clamp_tgt = '1' or o.t_stage /= 0 or o.b_stage /= 0) then
      rt_dec := min_u(o.rc, rmax);
    else
      rt_dec := min_u(o.rt, rmax);
    end if;

    -- step 3: alpha (truncated; the rise keep + G never exceeds 1023)
    keep_p := (to_unsigned(1024, 11) - resize(cfg.upd_alpha_g, 11)) * o.alpha;
    keep   := keep_p(19 downto 10);
    a1     := sat_add(o.alpha_el, Q_C);
    a_fire := hw and o.active and not dec and not cnp and to_sl(a1 >= cfg.alpha_timer_th);

    -- step 4: increase triggers (a threshold of 0 disables its trigger)
    t_en := to_sl(cfg.nocnp_timer_th /= 0);
    b_en := to_sl(cfg.byte_cnt_th /= 0);
    i1   := sat_add(o.inc_el, Q_C);
    b1   := sat_add(o.byte_cnt, delta);
    tf   := o.active and t_en and to_sl(i1 >= cfg.nocnp_timer_th);
    bf   := o.active and b_en and to_sl(b1 >= cfg.byte_cnt_th);
    inc  := hw and (tf or bf) and not dec;

    -- step 5: stages and phase (docs/spec.md 4.5)
    t_new := o.t_stage;
    if ((inc and tf) = '1') then
      t_new := sat_add(o.t_stage, "1");
    end if;
    b_new := o.b_stage;
    if ((inc and bf) = '1') then
      b_new := sat_add(o.b_stage, "1");
    end if;
    if (t_en = '1' and b_en = '1') then
      if (t_new > b_new) then
        smax := t_new;
        smin := b_new;
      else
        smax := b_new;
        smin := t_new;
      end if;
    elsif (b_en = '1') then
      smax := b_new;
      smin := b_new;
    else
      smax := t_new;
      smin := t_new;
    end if;
    fr  := to_sl(smax < cfg.stage_threshold);
    hai := not fr and to_sl(smin > cfg.stage_threshold);

    -- step 6: increase result (25-bit sums; the average rounded toward the target)
    if (fr = '1') then
      rt_sum := resize(o.rt, 25);
    elsif (hai = '1') then
      rt_sum := resize(o.rt, 25) + resize(cfg.rate_hai, 25);
    else
      rt_sum := resize(o.rt, 25) + resize(cfg.rate_ai, 25);
    end if;
    if (rt_sum > resize(rmax, 25)) then
      rt_inc := rmax;
    else
      rt_inc := rt_sum(23 downto 0);
    end if;
    rc_sum := resize(o.rc, 25) + resize(rt_inc, 25) + resize(unsigned'(0 => to_sl(o.rc < rt_inc)), 25);
    rc_inc := min_u(rc_sum(24 downto 1), rmax);

    -- step 7 (and steps 1-6's fields): the new record
    n           := o;
    n.sent_seen := sent;
    if (cnp = '1') then
      n.cnp_el := (others => '0');
    else
      n.cnp_el := c1;
    end if;
    if (hw = '1') then
      if (dec = '1') then
        n.rc := rc_dec;
        n.rt := rt_dec;
      elsif (inc = '1') then
        n.rc := rc_inc;
        n.rt := rt_inc;
      else
        n.rc := min_u(o.rc, rmax);
        n.rt := min_u(o.rt, rmax);
      end if;
      n.active := o.active or dec;
      if (dec = '1') then
        n.merge_el := (others => '0');
      else
        n.merge_el := m1;
      end if;
      n.dec_pending := pend and not dec;
      if (dec = '1') then
        n.alpha := keep + cfg.upd_alpha_g;
      elsif (a_fire = '1') then
        n.alpha := keep;
      end if;
      if ((dec or cnp or a_fire or not o.active) = '1') then
        n.alpha_el := (others => '0');
      else
        n.alpha_el := a1;
      end if;
      if ((not o.active or dec or not t_en or tf) = '1') then
        n.inc_el := (others => '0');
      else
        n.inc_el := i1;
      end if;
      if ((not o.active or dec or not b_en or bf) = '1') then
        n.byte_cnt := (others => '0');
      else
        n.byte_cnt := b1;
      end if;
      if ((not o.active or dec) = '1') then
        n.t_stage := (others => '0');
        n.b_stage := (others => '0');
      else
        n.t_stage := t_new;
        n.b_stage := b_new;
      end if;
    end if;

    -- step 8.1: a window write completing at this visit replaces the bytes it writes
    -- (spec-mq 6.1, 6.3; read-only bits ignore the write)
    if (whit = '1') then
      if (wword = WIN_CNP_MERGE_C) then
        mw            := lane_merge(x"000" & "000" & n.dec_pending & std_logic_vector(n.merge_el),
                                    wdata, wstrb);
        n.merge_el    := unsigned(mw(15 downto 0));
        n.dec_pending := mw(16);
      end if;
      if (wword = WIN_CNP_TIMER_C) then
        mw       := lane_merge(x"00" & std_logic_vector(n.cnp_el), wdata, wstrb);
        n.cnp_el := unsigned(mw(23 downto 0));
      end if;
      if (wword = WIN_RATE_C) then
        mw   := lane_merge(x"00" & std_logic_vector(n.rc), wdata, wstrb);
        n.rc := unsigned(mw(23 downto 0));
      end if;
      if (wword = WIN_TARGET_C) then
        mw   := lane_merge(x"00" & std_logic_vector(n.rt), wdata, wstrb);
        n.rt := unsigned(mw(23 downto 0));
      end if;
      if (wword = WIN_ALPHA_C) then
        mw         := lane_merge(std_logic_vector(n.alpha_el) & "000000" & std_logic_vector(n.alpha),
                                 wdata, wstrb);
        n.alpha    := unsigned(mw(9 downto 0));
        n.alpha_el := unsigned(mw(31 downto 16));
      end if;
      if (wword = WIN_BYTE_CNT_C) then
        n.byte_cnt := lane_merge(n.byte_cnt, wdata, wstrb);
      end if;
      if (wword = WIN_SENT_SEEN_C) then
        n.sent_seen := lane_merge(n.sent_seen, wdata, wstrb);
      end if;
      if (wword = WIN_T_BC_C) then
        mw        := lane_merge(x"000" & "000" & n.active & std_logic_vector(n.b_stage) &
                                std_logic_vector(n.t_stage), wdata, wstrb);
        n.t_stage := unsigned(mw(7 downto 0));
        n.b_stage := unsigned(mw(15 downto 8));
        n.active  := mw(16);
      end if;
      if (wword = WIN_INC_TIMER_C) then
        mw       := lane_merge(x"00" & std_logic_vector(n.inc_el), wdata, wstrb);
        n.inc_el := unsigned(mw(23 downto 0));
      end if;
      if (wword = WIN_CC_RATE_C) then
        mw        := lane_merge(x"00" & std_logic_vector(n.cc_rate), wdata, wstrb);
        n.cc_rate := unsigned(mw(23 downto 0));
      end if;
    end if;

    -- step 8.2: the applied rate
    if (hw = '1') then
      n.cc_rate := n.rc;
    end if;

    -- spec-mq 5.2, 5.8: the init record (sent_seen = 0 in the init round, sent at a qp_clear)
    init_rec :=
    (
      rc          => rmax,
      rt          => rmax,
      cc_rate     => rmax,
      alpha       => cfg.alpha_init,
      alpha_el    => (others => '0'),
      merge_el    => (others => '1'),
      dec_pending => '0',
      cnp_el      => (others => '0'),
      byte_cnt    => (others => '0'),
      sent_seen   => (others => '0'),
      t_stage     => (others => '0'),
      b_stage     => (others => '0'),
      active      => '0',
      inc_el      => (others => '0')
    );
    if (clear = '1') then
      init_rec.sent_seen := sent;
      n                  := init_rec;
    elsif (r.init = '1') then
      n := init_rec;
    end if;

    -- spec-mq 4.3 step 4: the wake check, at the applied rate this visit writes
    ra     := min_u(n.cc_rate, LW_C);
    credit := signed(cc_byte_cnt_rd(31 downto 0));
    stamp  := unsigned(cc_byte_cnt_rd(63 downto 32));
    e      := r.now - stamp;
    refill := ra * e;
    wsum   := resize(credit, 58) + signed(resize(refill, 58));

    -- spec-mq 6.1, 6.3: the word a window read completing at this visit returns (S(t))
    gcnt  := unsigned(grant_cnt_rd);
    dcnt  := unsigned(done_cnt_rd);
    req_b := unsigned(req_rd);
    if (reqv = '0') then
      req_b := (others => '0');
    end if;
    rword_i := to_integer(rword);
    rw      := (others => '0');
    if (rword_i = WIN_CNP_MERGE_C) then
      rw(15 downto 0) := std_logic_vector(o.merge_el);
      rw(16)          := o.dec_pending;
    end if;
    if (rword_i = WIN_CNP_TIMER_C) then
      rw(23 downto 0) := std_logic_vector(o.cnp_el);
    end if;
    if (rword_i = WIN_RATE_C) then
      rw(23 downto 0) := std_logic_vector(o.rc);
    end if;
    if (rword_i = WIN_TARGET_C) then
      rw(23 downto 0) := std_logic_vector(o.rt);
    end if;
    if (rword_i = WIN_ALPHA_C) then
      rw(9 downto 0)   := std_logic_vector(o.alpha);
      rw(31 downto 16) := std_logic_vector(o.alpha_el);
    end if;
    if (rword_i = WIN_BYTE_CNT_C) then
      rw := std_logic_vector(o.byte_cnt);
    end if;
    if (rword_i = WIN_SENT_SEEN_C) then
      rw := std_logic_vector(o.sent_seen);
    end if;
    if (rword_i = WIN_T_BC_C) then
      rw(7 downto 0)  := std_logic_vector(o.t_stage);
      rw(15 downto 8) := std_logic_vector(o.b_stage);
      rw(16)          := o.active;
    end if;
    if (rword_i = WIN_INC_TIMER_C) then
      rw(23 downto 0) := std_logic_vector(o.inc_el);
    end if;
    if (rword_i = WIN_CC_RATE_C) then
      rw(23 downto 0) := std_logic_vector(o.cc_rate);
    end if;
    if (rword_i = WIN_CREDIT_C) then
      rw := cc_byte_cnt_rd(31 downto 0);
    end if;
    if (rword_i = WIN_STAMP_C) then
      rw := cc_byte_cnt_rd(63 downto 32);
    end if;
    if (rword_i = WIN_OST_C) then
      rw(7 downto 0)   := std_logic_vector(gcnt);
      rw(15 downto 8)  := std_logic_vector(dcnt);
      rw(23 downto 16) := std_logic_vector(gcnt - dcnt);
    end if;
    if (rword_i = WIN_SENT_C) then
      rw := sent_rd;
    end if;
    if (rword_i = WIN_REQ_C) then
      rw(15 downto 0) := std_logic_vector(req_b);
      rw(16)          := reqv;
    end if;
    if (rword_i = WIN_CTRL_C) then
      rw(0)  := bit_at(arb_mask, vq(AW_C - 1 downto 0));
      rw(8)  := bit_at(rate_ok, vq(AW_C - 1 downto 0));
      rw(9)  := lim;
      rw(10) := cnp;
      rw(11) := bit_at(ost_lt_hi, vq(AW_C - 1 downto 0));
      rw(12) := bit_at(ost_lt_lo, vq(AW_C - 1 downto 0));
    end if;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    next_scan <= nscan;
    vw_we     <= visit;
    vw_rec    <= n;
    v_qp      <= vq;
    v_init    <= visit and r.init;
    v_clear   <= clear;
    v_normal  <= normal;

    -- spec-mq 6.3, 5.8: lane 0 of a qp_ctrl write (with or without qp_clear) writes arb_mask
    arb_we  <= normal and wpend and to_sl(wq = vq) and to_sl(wword = WIN_CTRL_C) and wstrb(0);
    arb_bit <= wdata(0);

    wake    <= normal and not clear and to_sl(wsum > 0);
    lim_clr <= normal and not cnp and lim and to_sl(c1 >= cfg.cnp_timer_thrd);

    -- spec-mq 6.1: completion at the next normal visit of the QP (w_done, r_done); QP >= QPS
    -- (only from an injected state) completes at once with DECERR (w_err, r_err)
    w_done <= normal and wpend and to_sl(wq = vq);
    w_err  <= wpend and not qp_lt(wq, QPS);
    r_done <= normal and rpend and to_sl(rq = vq);
    r_err  <= rpend and not qp_lt(rq, QPS);
    r_word <= rw;

    ev_dec <= normal and not clear and dec;
    ev_inc <= normal and not clear and inc;
    ev_tf  <= normal and not clear and inc and tf; -- an increase event with tf (spec-mq 5.4)
    ev_bf  <= normal and not clear and inc and bf;
    ev_fr  <= fr;
    ev_ai  <= not fr and not hai;
    ev_hai <= hai;
    ev_rc  <= n.rc;

    st <= r;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

end architecture rtl;
