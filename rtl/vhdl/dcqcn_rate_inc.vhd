-- SPDX-License-Identifier: MIT
-- dcqcn_rate_inc: DCQCN rate-increase triggers, stage counters, phase and increase result (spec 4.5).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_pkg.all;
  -- pragma translate_off
  use work.dcqcn_tap_pkg.all;
  -- pragma translate_on

entity dcqcn_rate_inc is
  generic (
    LINE_RATE : std_logic_vector(31 downto 0) := DCQCN_LINE_RATE_C -- L, bytes/s
  );
  port (
    -- Clock and synchronous reset
    clk                 : in    std_logic;
    rst                 : in    std_logic;
    -- Events
    dec_fire            : in    std_logic;
    rc_dec              : in    unsigned(31 downto 0); -- the decrease's Rc and Rt before the
    rt_dec              : in    unsigned(31 downto 0); -- ceiling (dcqcn_rate_dec)
    bytes_in            : in    unsigned(6 downto 0);  -- bytes of the beat loaded this cycle (spec 5.3)
    -- Reaction-point state (this cycle's registers)
    active              : in    std_logic;
    rc                  : in    unsigned(31 downto 0);
    rt                  : in    unsigned(31 downto 0);
    -- Configuration
    rp_hold             : in    std_logic;             -- bypass or scheme bit 0: held in reset (spec 4.7, 4.9)
    cfg_timer_en        : in    std_logic;
    cfg_byte_en         : in    std_logic;
    cfg_inc_interval    : in    unsigned(31 downto 0); -- cycles
    cfg_byte_threshold  : in    unsigned(31 downto 0); -- bytes
    cfg_stage_threshold : in    unsigned(7 downto 0);  -- F
    cfg_rai             : in    unsigned(31 downto 0); -- bytes/s
    cfg_rhai            : in    unsigned(31 downto 0); -- bytes/s
    cfg_rmax            : in    unsigned(31 downto 0); -- bytes/s, 0 = no ceiling
    cfg_hai_mult        : in    std_logic;             -- '1': hyper step i x rhai
    -- Increase events and result
    timer_fire          : out   std_logic;
    byte_fire           : out   std_logic;
    inc_event           : out   std_logic;
    phase_fr            : out   std_logic;             -- fast recovery
    phase_ai            : out   std_logic;             -- additive increase
    phase_hai           : out   std_logic;             -- hyper increase
    rc_upd              : out   unsigned(31 downto 0); -- Rc and Rt a decrease (dec_fire) or an
    rt_upd              : out   unsigned(31 downto 0); -- increase writes, after the ceiling
    -- State
    t_stage             : out   unsigned(7 downto 0);
    b_stage             : out   unsigned(7 downto 0)
  );
end entity dcqcn_rate_inc;

architecture rtl of dcqcn_rate_inc is

  -- spec 2: illegal parameters are an elaboration error
  constant PARAMS_OK_C : boolean :=
    dcqcn_check_params("dcqcn_rate_inc", -1, DCQCN_CLK_FREQ_HZ_C, LINE_RATE, false, true);

  constant L_C : unsigned(31 downto 0) := unsigned(LINE_RATE);

  constant REG_INIT_C : RateIncRegType := (
    inc_timer => (others => '0'),
    byte_cnt  => (others => '0'),
    t_stage   => (others => '0'),
    b_stage   => (others => '0'));

  signal r   : RateIncRegType := REG_INIT_C;
  signal rin : RateIncRegType;

begin

  comb : process (all) is
    variable v        : RateIncRegType;
    variable t_fire   : std_logic;
    variable b_fire   : std_logic;
    variable inc_ev   : std_logic;
    variable byte_thr : unsigned(31 downto 0);
    variable restart  : std_logic;
    variable byte_sum : unsigned(32 downto 0);
    variable t_new    : unsigned(7 downto 0);
    variable b_new    : unsigned(7 downto 0);
    variable t_lt     : std_logic;
    variable t_gt     : std_logic;
    variable b_lt     : std_logic;
    variable b_gt     : std_logic;
    variable fr       : std_logic;
    variable hai      : std_logic;
    variable t_inc    : std_logic;
    variable b_inc    : std_logic;
    variable s_lo     : unsigned(7 downto 0);
    variable s_lo_inc : std_logic;
    variable s_old    : unsigned(7 downto 0);
    variable s_inc    : std_logic;
    variable hai_i    : unsigned(7 downto 0);
    variable hai_f    : unsigned(7 downto 0);
    variable hai_step : unsigned(39 downto 0);
    variable rt_add   : unsigned(39 downto 0);
    variable rt_sum   : unsigned(40 downto 0);
    variable cap_on   : std_logic;
    variable cap_l    : unsigned(31 downto 0);
    variable rt_sel   : unsigned(40 downto 0);
    variable rt_over  : std_logic;
    variable rt_upd_v : unsigned(31 downto 0);
    variable rc_sum   : unsigned(32 downto 0);
    variable rc_pre   : unsigned(31 downto 0);
    variable rc_next  : unsigned(31 downto 0);
  begin
    v := r;

    -- spec 4.0 expired(): one extra bit so interval 0 behaves as 1
    t_fire := active and cfg_timer_en and expired(r.inc_timer, cfg_inc_interval);

    -- spec 4.5: B = max(cfg_byte_threshold, 1)
    if (cfg_byte_threshold = 0) then
      byte_thr := to_unsigned(1, 32);
    else
      byte_thr := cfg_byte_threshold;
    end if;
    b_fire := active and cfg_byte_en and to_sl(r.byte_cnt >= byte_thr);

    -- spec 4.5: a decrease cancels a same-cycle increase
    inc_ev := (t_fire or b_fire) and not dec_fire;

    -- spec 4.2, 4.5, 4.7, 4.9: held at 0 while inactive or held; a rate cut restarts recovery
    restart := rp_hold or not active or dec_fire;

    if (restart = '1' or cfg_timer_en = '0' or t_fire = '1') then
      v.inc_timer := (others => '0');
    else
      v.inc_timer := r.inc_timer + 1;
    end if;

    -- spec 4.5: saturating add; a firing/restarting cycle's own bytes are not carried
    byte_sum := resize(r.byte_cnt, 33) + resize(bytes_in, 33);
    if (restart = '1' or cfg_byte_en = '0' or b_fire = '1') then
      v.byte_cnt := (others => '0');
    elsif (byte_sum(32) = '1') then
      v.byte_cnt := (others => '1');
    else
      v.byte_cnt := byte_sum(31 downto 0);
    end if;

    -- spec 4.5: stages advance only on a non-cancelled event of their own trigger (sat at 255)
    -- (an if, not to_sl: GHDL 2.0 synthesises to_sl's early return with an undefined input that
    -- is never selected, and the formal proof pairs the SV's and the twin's hyper product as one
    -- cell only when its factor, which reads t_inc and b_inc, is built alike; docs/formal.md)
    if (r.t_stage /= x"FF") then
      t_inc := inc_ev and t_fire;
    else
      t_inc := '0';
    end if;
    if (r.b_stage /= x"FF") then
      b_inc := inc_ev and b_fire;
    else
      b_inc := '0';
    end if;
    if (t_inc = '1') then
      t_new := r.t_stage + 1;
    else
      t_new := r.t_stage;
    end if;
    if (b_inc = '1') then
      b_new := r.b_stage + 1;
    else
      b_new := r.b_stage;
    end if;
    if (restart = '1') then
      v.t_stage := (others => '0');
      v.b_stage := (others => '0');
    else
      v.t_stage := t_new;
      v.b_stage := b_new;
    end if;

    -- spec 4.5: phase from the new stage values. With both triggers enabled,
    -- max(t, b) < F <=> t < F and b < F, and min(t, b) > F <=> t > F and b > F, so smax/smin are
    -- never formed; FAST_RECOVERY and HYPER cannot both hold, so HYPER needs no not-FR term.
    t_lt := to_sl(t_new < cfg_stage_threshold);
    t_gt := to_sl(t_new > cfg_stage_threshold);
    b_lt := to_sl(b_new < cfg_stage_threshold);
    b_gt := to_sl(b_new > cfg_stage_threshold);
    if (cfg_timer_en = '1' and cfg_byte_en = '1') then
      fr  := t_lt and b_lt;
      hai := t_gt and b_gt;
    elsif (cfg_byte_en = '1') then
      fr  := b_lt;
      hai := b_gt;
    else
      fr  := t_lt;
      hai := t_gt;
    end if;

    -- spec 4.5: hyper index i = smin - F (used in the hyper phase only, where smin > F).
    -- smin = s_old + s_inc: s_old is the stage (or min(t, b)) before this cycle's advance, s_inc
    -- its advance (min(t + dt, b + db) = min(t, b) + (t < b ? dt : t > b ? db : dt and db)).
    -- A stage advances only below 255, so smin <= 255 and, in the hyper phase, i is 1..255: 8
    -- bits, no wrap. The hyper step is one 32 x 8 product, rhai x i with cfg_hai_mult and
    -- rhai x 1 without; it does not read the phase (as in the SV; docs/formal.md).
    if (r.t_stage < r.b_stage) then
      s_lo := r.t_stage;
    else
      s_lo := r.b_stage;
    end if;
    if (r.t_stage < r.b_stage) then
      s_lo_inc := t_inc;
    elsif (r.t_stage > r.b_stage) then
      s_lo_inc := b_inc;
    else
      s_lo_inc := t_inc and b_inc;
    end if;
    if ((cfg_timer_en and cfg_byte_en) = '1') then
      s_old := s_lo;
      s_inc := s_lo_inc;
    elsif (cfg_byte_en = '1') then
      s_old := r.b_stage;
      s_inc := b_inc;
    else
      s_old := r.t_stage;
      s_inc := t_inc;
    end if;
    hai_i := s_old + ("0000000" & s_inc) - cfg_stage_threshold;
    if (cfg_hai_mult = '1') then
      hai_f := hai_i;
    else
      hai_f := to_unsigned(1, 8);
    end if;
    hai_step := cfg_rhai * hai_f;

    -- spec 4.5: 41-bit sum; one adder shared by AI and HAI
    if (hai = '1') then
      rt_add := hai_step;
    else
      rt_add := resize(cfg_rai, 40);
    end if;
    rt_sum := resize(rt, 41) + resize(rt_add, 41);

    -- spec 4.6: ceil(x) = min(x, min(cfg_rmax, L)) when cfg_rmax /= 0, x otherwise. cap_l is
    -- min(cfg_rmax, L), or L when cfg_rmax = 0: the increase's sum takes min(sum, cap_l), which
    -- is 4.5's ceil(min(sum, L)) in both cases; fast recovery's and the decrease's Rt, and Rc,
    -- take cap_l only when cfg_rmax /= 0. A cycle writes the decrease's Rt or the increase's,
    -- so one comparison serves both; the average reads the result (a decrease does not use it).
    cap_on := to_sl(cfg_rmax /= 0);
    if (cap_on = '1' and cfg_rmax < L_C) then
      cap_l := cfg_rmax;
    else
      cap_l := L_C;
    end if;
    if (dec_fire = '1') then
      rt_sel := resize(rt_dec, 41);
    elsif (fr = '1') then
      rt_sel := resize(rt, 41);
    else
      rt_sel := rt_sum;
    end if;
    if ((dec_fire or fr) = '1') then
      rt_over := cap_on and to_sl(rt_sel > resize(cap_l, 41));
    else
      rt_over := to_sl(rt_sel > resize(cap_l, 41));
    end if;
    if (rt_over = '1') then
      rt_upd_v := cap_l;
    else
      rt_upd_v := rt_sel(31 downto 0);
    end if;

    -- spec 4.5: average rounded toward the target so Rc reaches Rt exactly. A cycle writes the
    -- decrease's Rc or the increase's (4.6), so one ceiling serves both, after the choice.
    rc_sum := resize(rc, 33) + resize(rt_upd_v, 33) + resize(unsigned'(0 => to_sl(rc < rt_upd_v)), 33);
    if (dec_fire = '1') then
      rc_pre := rc_dec;
    else
      rc_pre := rc_sum(32 downto 1);
    end if;
    if (cap_on = '1' and rc_pre > cap_l) then
      rc_next := cap_l;
    else
      rc_next := rc_pre;
    end if;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    timer_fire <= t_fire;
    byte_fire  <= b_fire;
    inc_event  <= inc_ev;
    phase_fr   <= fr;
    phase_ai   <= not fr and not hai;
    phase_hai  <= hai;
    rt_upd     <= rt_upd_v;
    rc_upd     <= rc_next;
    t_stage    <= r.t_stage;
    b_stage    <= r.b_stage;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

  -- pragma translate_off
  -- simulation only: the state record for simulators without external names (dcqcn_tap_pkg)
  tap_rate_inc <= r;
  -- pragma translate_on

end architecture rtl;
