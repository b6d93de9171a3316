-- SPDX-License-Identifier: MIT
-- nscc_mq_ack_exec: the ACK process's execution of one feedback event on one flow's memories
-- (docs/spec-nscc.md 5, 6.1-6.4), combinational. VHDL-2008 twin of rtl/nscc/nscc_mq_ack_exec.sv;
-- the bit-exact model is crates/dcqcn-model/src/nscc/fixed.rs (`execute`).
--
-- Every intermediate is formed as wide as the spec states and then saturated or clamped as it
-- says; the only modular quantities are now, gbytes and abytes.

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.nscc_mq_pkg.all;

entity nscc_mq_ack_exec is
  generic (
    LINE_WIN : natural := 8192 -- spec-mq 2: bytes per 1024-cycle window
  );
  port (
    -- the flow's memories as read, its gbytes and old bit, the time (spec-nscc 4.1, 6.4)
    flow_rd      : in    NsccFlowType;
    gbytes       : in    unsigned(31 downto 0);
    old          : in    std_logic;
    now          : in    unsigned(31 downto 0);
    cc_en        : in    std_logic;
    -- the event (spec-nscc 3)
    ev_kind      : in    unsigned(1 downto 0);
    ev_bytes     : in    unsigned(23 downto 0);
    ev_ecn       : in    std_logic;
    ev_rtt_valid : in    std_logic;
    ev_rtt       : in    unsigned(23 downto 0);
    ev_pend      : in    unsigned(6 downto 0);
    ev_rc        : in    std_logic;
    -- configuration (spec-nscc 8.1; max_wnd and init_cwnd are the init record's, 7)
    cfg          : in    NsccRegsType;
    -- the memories written, and what the event did
    flow_wd      : out   NsccFlowType;
    outcome      : out   NsccOutType
  );
end entity nscc_mq_ack_exec;

architecture rtl of nscc_mq_ack_exec is

  constant LW3_C : unsigned(25 downto 0) := to_unsigned(3 * LINE_WIN, 26); -- 3 * LINE_WIN

  -- spec-nscc 6.1: the age of a stamp, AGE_MAX when old or older
  function age (stamp : unsigned(31 downto 0); t : unsigned(31 downto 0); is_old : std_logic)
    return unsigned is
    variable a : unsigned(31 downto 0);
  begin
    a := t - stamp;
    if (is_old = '1' or a > resize(AGE_MAX_C, 32)) then
      return AGE_MAX_C;
    end if;
    return a(25 downto 0);
  end function age;

  -- sat_32 of a 33-bit sum
  function sat32 (x : unsigned(32 downto 0)) return unsigned is
  begin
    if (x(32) = '1') then
      return x"FFFF_FFFF";
    end if;
    return x(31 downto 0);
  end function sat32;

  -- spec-nscc 6.3: C' = max(C - n * 256, floor), with C - n * 256 < 0 read as 0
  function floor_sub (c : unsigned(31 downto 0); sub_q8 : unsigned(31 downto 0); floor_q8 : unsigned(31 downto 0))
    return unsigned is
    variable diff : unsigned(32 downto 0);
  begin
    diff := ('0' & c) - ('0' & sub_q8);
    if (diff(32) = '1' or diff(31 downto 0) < floor_q8) then
      return floor_q8;
    end if;
    return diff(31 downto 0);
  end function floor_sub;

begin

  comb : process (all) is
    variable f : NsccFlowType;                  -- as read
    variable s : NsccFlowType;                  -- as written
    variable o : NsccOutType;
    -- spec-nscc 6.1
    variable mtu     : unsigned(15 downto 0);
    variable mtu_q8  : unsigned(31 downto 0);
    variable maxw    : unsigned(23 downto 0);
    variable gamma   : unsigned(8 downto 0);
    variable age_adj : unsigned(25 downto 0);
    variable age_dec : unsigned(25 downto 0);
    variable age_qa  : unsigned(25 downto 0);
    variable set_adj : std_logic;
    variable set_dec : std_logic;
    variable set_qa  : std_logic;
    -- steps 1-2
    variable n32      : unsigned(31 downto 0);
    variable infl     : unsigned(31 downto 0);
    variable sum_ign  : unsigned(32 downto 0);
    variable sum_rcv  : unsigned(32 downto 0);
    variable sum_ach  : unsigned(32 downto 0);
    variable rlim     : std_logic;
    variable dec_prod : unsigned(30 downto 0);  -- pend * n; dec = bits 30 .. 7
    variable dec      : unsigned(23 downto 0);
    variable infl_q8  : signed(41 downto 0);
    variable pen      : signed(41 downto 0);
    -- steps 4-5
    variable mw_prod   : unsigned(49 downto 0); -- 3 * LINE_WIN * rtt; >> 11
    variable delay     : unsigned(23 downto 0);
    variable delay_avg : unsigned(23 downto 0);
    variable avg_diff  : signed(33 downto 0);
    variable avg_half  : signed(33 downto 0);
    variable avg_step  : signed(33 downto 0);
    variable avg_new   : signed(33 downto 0);
    variable run_avg   : std_logic;
    -- step 6
    variable qa_run    : std_logic;
    variable qa_loss   : std_logic;
    variable qa_ecn    : std_logic;
    variable qa_ign    : std_logic;
    variable qa_fire   : std_logic;
    variable ach_gate  : unsigned(46 downto 0);
    variable qa_limit  : unsigned(24 downto 0);
    variable ach_floor : unsigned(31 downto 0);
    -- step 7
    variable fi_inc    : unsigned(44 downto 0);
    variable fs_prod   : unsigned(47 downto 0);
    variable fs_cwnd   : unsigned(40 downto 0);
    variable tgt_delay : unsigned(23 downto 0);
    variable p_prod    : unsigned(55 downto 0);
    variable p         : unsigned(23 downto 0);
    variable p_inc     : unsigned(48 downto 0);
    variable tgt_q8    : unsigned(31 downto 0);
    variable md_d      : unsigned(31 downto 0);
    variable rc_avg    : RecipType;
    variable md_prod   : unsigned(48 downto 0);
    variable md_shift  : unsigned(48 downto 0);
    variable frac      : unsigned(16 downto 0);
    variable red_prod  : unsigned(25 downto 0);
    variable red       : unsigned(15 downto 0);
    variable cr_prod   : unsigned(47 downto 0);
    variable md_cwnd   : unsigned(31 downto 0);
    variable fast      : std_logic;
    -- step 8
    variable react      : std_logic;
    variable adj_period : std_logic;
    variable adj_x      : unsigned(23 downto 0);
    variable rc_x       : RecipType;
    variable q_prod     : unsigned(56 downto 0);
    variable q_shift    : unsigned(56 downto 0);
    variable q          : unsigned(31 downto 0);
    variable c8         : unsigned(33 downto 0);
  begin
    f       := flow_rd;
    s       := f;
    o       :=
    (
      penalty    => '0',
      restored   => '0',
      rtt_valid  => '0',
      qa_fired   => '0',
      qa_ignored => '0',
      rcase      => CASE_NONE_C,
      md_applied => '0',
      adjusted   => '0',
      eta_added  => '0'
    );
    set_adj := '0';
    set_dec := '0';
    set_qa  := '0';

    mtu := cfg.mtu;
    if (cfg.mtu = 0) then
      mtu := to_unsigned(1, 16);
    end if;
    mtu_q8 := x"00" & mtu & x"00";
    gamma  := cfg.gamma;
    if (cfg.gamma > 256) then
      gamma := to_unsigned(256, 9);
    end if;
    age_adj    := age(f.t_adj, now, old);
    age_dec    := age(f.t_dec, now, old);
    age_qa     := age(f.t_qa, now, old);
    n32        := resize(ev_bytes, 32);
    adj_period := '0';
    if (age_adj >= resize(cfg.adjust_period, 26)) then
      adj_period := '1';
    end if;

    -- step 1 (every kind): abytes; the counters below are the ACK's
    s.abytes := f.abytes + n32;
    infl     := gbytes - s.abytes;
    sum_ign  := ('0' & f.ignored) + ('0' & n32);
    sum_rcv  := ('0' & f.received) + ('0' & n32);
    sum_ach  := ('0' & f.achieved) + ('0' & n32);

    -- step 2: the receiver's penalty (42-bit signed; the result is below C < 2^32)
    rlim := '0';
    if (ev_pend /= 0) then
      rlim := '1';
    end if;
    dec_prod := resize(ev_pend * ev_bytes, 31);
    dec      := dec_prod(30 downto 7);
    infl_q8  := shift_left(resize(signed(infl), 42), 8);
    pen      := signed(resize(f.cwnd, 42));
    if (infl_q8 < pen) then
      pen := infl_q8;
    end if;
    pen := pen - signed(resize(dec & x"00", 42));

    -- step 4: base RTT (ACK and both NACKs with a sample)
    mw_prod := resize(LW3_C * ev_rtt, 50);
    delay   := (others => '0');

    -- step 5: the delay average's sample (ACK: the delay; trimmed NACK: cfg_base_rtt)
    delay_avg := (others => '0');
    if (ev_kind = KIND_TRIM_C) then
      delay_avg := cfg.base_rtt;
      if (cfg.base_rtt = 0) then
        delay_avg := to_unsigned(1, 24);
      end if;
    end if;
    run_avg := '0';

    -- step 6 controls
    qa_run  := '0';
    qa_loss := '0';
    if (ev_kind = KIND_TRIM_C) then
      qa_loss := '1';
    end if;
    qa_ecn  := qa_loss or ev_ecn;
    qa_ign  := '0';
    qa_fire := '0';

    if (cc_en = '1') then
      case ev_kind is

        when KIND_ACK_C =>
          s.ignored  := sat32(sum_ign);
          s.received := sat32(sum_rcv);
          s.achieved := sat32(sum_ach);
          if (rlim = '1') then
            -- spec-nscc 6.2 step 2
            if (f.saved = 0) then
              s.saved := f.cwnd;
            end if;
            if (pen < signed(resize(mtu_q8, 42))) then
              s.cwnd := mtu_q8;
            else
              s.cwnd := unsigned(pen(31 downto 0));
            end if;
            o.penalty := '1';
          elsif (ev_rc = '1' and f.saved /= 0) then
            s.cwnd     := f.saved;
            s.saved    := (others => '0');
            o.restored := '1';
          end if;
          -- step 3: an invalid sample ends here
          if (ev_rtt_valid = '1') then
            o.rtt_valid := '1';
            qa_run      := cfg.qa_en;
            run_avg     := '1';
          end if;

        when KIND_TRIM_C =>
          s.ignored    := sat32(sum_ign);
          s.trigger_qa := '1';
          qa_run       := cfg.qa_en;
          run_avg      := '1';

        when KIND_NACK_C =>
          null;

        when others =>
          -- KIND_LOSS_C
          s.cwnd    := floor_sub(f.cwnd, ev_bytes & x"00", mtu_q8);
          s.ignored := sat32(sum_ign);

      end case;

      -- step 4 for an ACK, a trimmed or another NACK with a sample
      if (ev_rtt_valid = '1' and ev_kind /= KIND_LOSS_C and ev_rtt < f.base_rtt) then
        s.base_rtt := ev_rtt;
        if (mw_prod(49 downto 35) /= 0) then
          s.max_wnd := x"FF_FFFF";
        else
          s.max_wnd := mw_prod(34 downto 11);
        end if;
      end if;
      -- >= 0 after step 4 (used by an ACK with a sample)
      delay := ev_rtt - s.base_rtt;
      if (ev_kind = KIND_ACK_C) then
        delay_avg := delay;
      end if;
    end if;

    -- step 5: rounded half up (34-bit signed)
    avg_diff := signed(resize(delay_avg & x"00", 34)) - signed(resize(f.avg, 34));
    -- h = 2^(w - 1), 0 when w = 0
    avg_half := shift_right(shift_left(to_signed(1, 34), to_integer(cfg.ewma_shift)), 1);
    avg_step := shift_right(avg_diff + avg_half, to_integer(cfg.ewma_shift));
    -- between avg and the sample: 32 bits
    avg_new  := signed(resize(f.avg, 34)) + avg_step;
    if (run_avg = '1') then
      s.avg := unsigned(avg_new(31 downto 0));
    end if;

    -- step 6: quick adapt (ACK: achieved1 and the delay; trimmed NACK: achieved, a loss)
    maxw := s.max_wnd;
    if (resize(mtu, 24) > s.max_wnd) then
      maxw := resize(mtu, 24);
    end if;
    qa_limit  := ('0' & s.base_rtt) + ('0' & cfg.target);
    ach_gate  := shift_left(resize(s.achieved, 47), to_integer(cfg.qa_gate));
    ach_floor := s.achieved;
    if (s.achieved < resize(mtu, 32)) then
      ach_floor := resize(mtu, 32);
    end if;
    if (qa_run = '1') then
      if (s.ignored < s.to_ignore and qa_ecn = '1') then
        qa_ign := '1';
      elsif (s.qa_armed = '0' or age_qa >= ('0' & qa_limit)) then
        if (s.qa_armed = '1' and ach_gate < resize(maxw, 47) and
            (s.trigger_qa = '1' or qa_loss = '1' or (cfg.qa_delay /= 0 and delay > cfg.qa_delay))) then
          qa_fire := '1';
        end if;
        if (qa_fire = '1') then
          -- achieved < maxw < 2^24 here: the Q24.8 window fits 32 bits
          s.cwnd := ach_floor(23 downto 0) & x"00";
          if (infl(31) = '1') then
            s.to_ignore := (others => '0');
          else
            s.to_ignore := infl;
          end if;
          s.ignored    := (others => '0');
          s.trigger_qa := '0';
        end if;
        s.achieved := (others => '0');
        s.qa_armed := '1';
        set_qa     := '1';
      end if;
      if (qa_ign = '1' or qa_fire = '1') then
        s.inc      := (others => '0');
        s.received := (others => '0');
      end if;
    end if;
    if (ev_kind = KIND_ACK_C) then
      o.qa_fired   := qa_fire;
      o.qa_ignored := qa_ign;
    end if;
    -- spec-nscc 6.3: a trimmed NACK that quick adapt neither ignored nor fired
    if (cc_en = '1' and ev_kind = KIND_TRIM_C and qa_ign = '0' and qa_fire = '0') then
      s.cwnd := floor_sub(s.cwnd, ev_bytes & x"00", mtu_q8);
    end if;

    -- step 7: the reaction (an ACK with a sample that quick adapt let through)
    fi_inc    := resize(s.inc, 45) + resize(cfg.fi * ev_bytes, 45);
    fs_prod   := ev_bytes * cfg.fi_scale;
    fs_cwnd   := resize(s.cwnd, 41) + ('0' & fs_prod(47 downto 8));
    -- used when delay < target
    tgt_delay := cfg.target - delay;
    p_prod    := cfg.alpha * tgt_delay;
    if (p_prod(55 downto 40) /= 0) then
      p := x"FF_FFFF";
    else
      p := p_prod(39 downto 16);
    end if;
    p_inc    := resize(s.inc, 49) + resize(p * ev_bytes, 49);
    tgt_q8   := cfg.target & x"00";
    -- used when avg5 > tgt * 256
    md_d     := s.avg - tgt_q8;
    rc_avg   := recip_of(resize(s.avg, 40));
    md_prod  := resize(md_d * rc_avg.recip, 49);
    md_shift := shift_right(md_prod, to_integer(rc_avg.e));
    if (md_shift > 65536) then
      frac := to_unsigned(65536, 17);
    else
      frac := md_shift(16 downto 0);
    end if;
    red_prod := gamma * frac;
    if (red_prod(25 downto 8) > 32768) then
      red := to_unsigned(32768, 16);
    else
      red := red_prod(23 downto 8);
    end if;
    cr_prod := s.cwnd * red;
    -- red <= 1/2: no underflow
    md_cwnd := s.cwnd - cr_prod(47 downto 16);
    react   := '0';
    if (cc_en = '1' and ev_kind = KIND_ACK_C and o.rtt_valid = '1' and qa_ign = '0' and qa_fire = '0') then
      react := '1';
    end if;
    if (react = '1') then
      if (ev_ecn = '0' and rlim = '1') then
        o.rcase := CASE_RLIM_C;
      elsif (ev_ecn = '0' and delay >= cfg.target) then
        if (fi_inc(44 downto 40) /= 0) then
          s.inc := x"FF_FFFF_FFFF";
        else
          s.inc := fi_inc(39 downto 0);
        end if;
        o.rcase := CASE_FAIR_C;
      elsif (ev_ecn = '0') then
        fast := '0';
        if (delay < resize(cfg.fi_delay, 24)) then
          s.fi_count := sat32(('0' & s.fi_count) + ('0' & n32));
          if ((s.fi_count & x"00") > resize(s.cwnd, 40) or s.increase = '1') then
            if (fs_cwnd > resize(maxw & x"00", 41)) then
              s.cwnd := maxw & x"00";
            else
              s.cwnd := fs_cwnd(31 downto 0);
            end if;
            s.increase := '1';
            fast       := '1';
            o.rcase    := CASE_FAST_C;
          end if;
        else
          s.fi_count := (others => '0');
        end if;
        if (fast = '0') then
          s.increase := '0';
          if (p_inc(48 downto 40) /= 0) then
            s.inc := x"FF_FFFF_FFFF";
          else
            s.inc := p_inc(39 downto 0);
          end if;
          o.rcase := CASE_PROP_C;
        end if;
      elsif (delay >= cfg.target) then
        s.increase := '0';
        s.fi_count := (others => '0');
        o.rcase    := CASE_MD_C;
        if (s.avg > tgt_q8 and age_dec > resize(s.base_rtt, 26)) then
          if (md_cwnd < mtu_q8) then
            s.cwnd := mtu_q8;
          else
            s.cwnd := md_cwnd;
          end if;
          set_dec      := '1';
          o.md_applied := '1';
        end if;
      else
        o.rcase := CASE_HOLD_C;
      end if;
    end if;

    -- step 8: the adjustment (X: the window after step 7 in whole bytes, at least 1)
    adj_x := s.cwnd(31 downto 8);
    if (s.cwnd(31 downto 8) = 0) then
      adj_x := to_unsigned(1, 24);
    end if;
    rc_x    := recip_of(resize(adj_x, 40));
    q_prod  := s.inc * rc_x.recip;
    q_shift := shift_right(q_prod, 8 + to_integer(rc_x.e));
    if (q_shift(56 downto 32) /= 0) then
      q := x"FFFF_FFFF";
    else
      q := q_shift(31 downto 0);
    end if;
    c8 := resize(s.cwnd, 34) + resize(q, 34);
    if (adj_period = '1') then
      c8 := c8 + resize(cfg.eta, 34);
    end if;
    if (react = '1' and (adj_period = '1' or s.received > resize(cfg.adjust_bytes, 32))) then
      if (c8 > resize(maxw & x"00", 34)) then
        s.cwnd := maxw & x"00";
      else
        s.cwnd := c8(31 downto 0);
      end if;
      s.inc       := (others => '0');
      s.received  := (others => '0');
      set_adj     := adj_period;
      o.adjusted  := '1';
      o.eta_added := adj_period;
    end if;

    -- step 9: stamps set by a rule read now; every other one is clamped to AGE_MAX
    s.t_adj := now - resize(age_adj, 32);
    s.t_dec := now - resize(age_dec, 32);
    s.t_qa  := now - resize(age_qa, 32);
    if (set_adj = '1') then
      s.t_adj := now;
    end if;
    if (set_dec = '1') then
      s.t_dec := now;
    end if;
    if (set_qa = '1') then
      s.t_qa := now;
    end if;

    flow_wd <= s;
    outcome <= o;
  end process comb;

end architecture rtl;
