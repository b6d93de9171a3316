-- SPDX-License-Identifier: MIT
-- dcqcn_rate_dec: DCQCN rate-decrease cooldown timer and decrease result (spec 4.4).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_pkg.all;
  -- pragma translate_off
  use work.dcqcn_tap_pkg.all;
  -- pragma translate_on

entity dcqcn_rate_dec is
  generic (
    LINE_RATE : std_logic_vector(31 downto 0) := DCQCN_LINE_RATE_C -- L, bytes/s
  );
  port (
    -- Clock and synchronous reset
    clk                : in    std_logic;
    rst                : in    std_logic;
    -- Events
    cnp_event          : in    std_logic;
    -- Reaction-point state (this cycle's registers)
    rc                 : in    unsigned(31 downto 0);
    rt                 : in    unsigned(31 downto 0);
    alpha              : in    unsigned(9 downto 0);
    t_stage            : in    unsigned(7 downto 0);
    b_stage            : in    unsigned(7 downto 0);
    active             : in    std_logic;             -- '0': this decrease is the first (spec 4.4)
    -- Configuration
    rp_hold            : in    std_logic;             -- bypass or scheme bit 0: held in reset (spec 4.7, 4.9)
    cfg_dec_interval   : in    unsigned(15 downto 0); -- cycles
    cfg_dec_gain       : in    unsigned(3 downto 0);
    cfg_rmin           : in    unsigned(31 downto 0); -- bytes/s
    cfg_clamp_tgt      : in    std_logic;
    cfg_rate_first_cnp : in    unsigned(31 downto 0); -- bytes/s, 0 = off
    cfg_min_dec_fac    : in    unsigned(10 downto 0); -- Q0.10, 1024 and above: no cut
    -- Decrease event and result (before the ceiling of spec 4.6, which dcqcn_rate_inc applies)
    dec_fire           : out   std_logic;
    rc_dec             : out   unsigned(31 downto 0);
    rt_dec             : out   unsigned(31 downto 0);
    -- State
    dec_pending        : out   std_logic
  );
end entity dcqcn_rate_dec;

architecture rtl of dcqcn_rate_dec is

  -- spec 2: illegal parameters are an elaboration error
  constant PARAMS_OK_C : boolean :=
    dcqcn_check_params("dcqcn_rate_dec", -1, DCQCN_CLK_FREQ_HZ_C, LINE_RATE, false, true);

  constant L_C : unsigned(31 downto 0) := unsigned(LINE_RATE);

  constant REG_INIT_C : RateDecRegType := (
    dec_timer   => (others => '1'),
    dec_pending => '0');

  signal r   : RateDecRegType := REG_INIT_C;
  signal rin : RateDecRegType;

begin

  comb : process (all) is
    variable v           : RateDecRegType;
    variable dec_trig    : std_logic;
    variable fire        : std_logic;
    variable dec_prod_lo : unsigned(26 downto 0);
    variable dec_prod_hi : unsigned(24 downto 0);
    variable dec_prod    : unsigned(41 downto 0);
    variable delta       : unsigned(31 downto 0);
    variable rc_sub      : unsigned(31 downto 0);
    variable rmin_eff    : unsigned(31 downto 0);
    variable keep_fac    : unsigned(10 downto 0);
    variable keep_lo     : unsigned(27 downto 0);
    variable keep_hi     : unsigned(25 downto 0);
    variable keep        : unsigned(31 downto 0);
    variable rc_cut      : unsigned(31 downto 0);
  begin
    v := r;

    -- spec 4.4: CNPs inside the cooldown are remembered and coalesced into one decrease
    dec_trig := r.dec_pending or cnp_event;
    -- spec 4.0 expired(): one extra bit so interval 0 behaves as 1
    fire     := dec_trig and expired(r.dec_timer, cfg_dec_interval);

    -- spec 4.4: "cycles since the last decrease", saturating so the first CNP always fires
    if (rp_hold = '1') then
      v.dec_timer := (others => '1');
    elsif (fire = '1') then
      v.dec_timer := (others => '0');
    elsif (r.dec_timer /= x"FFFF") then
      v.dec_timer := r.dec_timer + 1;
    end if;

    v.dec_pending := not rp_hold and dec_trig and not fire;

    -- spec 4.4: delta = floor(Rc * alpha / 2^(dec_gain + 10)), truncating. The one 32x10 product
    -- is formed from 17-bit-aligned halves of Rc (the DSP48 B-port width and cascade shift), as in
    -- the SV; Rc * alpha < 2^42
    dec_prod_lo := rc(16 downto 0) * alpha;
    dec_prod_hi := rc(31 downto 17) * alpha + resize(dec_prod_lo(26 downto 17), 25);
    dec_prod    := dec_prod_hi & dec_prod_lo(16 downto 0);
    delta       := shift_right(dec_prod(41 downto 10), to_integer(cfg_dec_gain));
    -- delta < Rc (alpha < 1024), so no underflow
    rc_sub      := rc - delta;

    -- spec 4.4: min_dec_fac, the share of Rc a decrease keeps: floor(Rc * min(f, 1024) / 1024).
    -- The 32x11 product from the same halves of Rc as delta's, as in the SV (Rc * f < 2^43, bits
    -- 41:10 kept)
    if (cfg_min_dec_fac > 1024) then
      keep_fac := to_unsigned(1024, 11);
    else
      keep_fac := cfg_min_dec_fac;
    end if;
    keep_lo := rc(16 downto 0) * keep_fac;
    keep_hi := rc(31 downto 17) * keep_fac + resize(keep_lo(27 downto 17), 26);
    keep    := keep_hi(24 downto 0) & keep_lo(16 downto 10);

    -- spec 4.4: the first decrease after reset or a hold sets min(rate_first_cnp, L) if enabled
    if (active = '0' and cfg_rate_first_cnp /= 0) then
      if (cfg_rate_first_cnp < L_C) then
        rc_cut := cfg_rate_first_cnp;
      else
        rc_cut := L_C;
      end if;
    elsif (rc_sub > keep) then
      rc_cut := rc_sub;
    else
      rc_cut := keep;
    end if;

    -- spec 4.0/4.4: rmin clamped to L, so Rc never exceeds L even with cfg_rmin > L
    if (cfg_rmin < L_C) then
      rmin_eff := cfg_rmin;
    else
      rmin_eff := L_C;
    end if;
    if (rc_cut > rmin_eff) then
      rc_dec <= rc_cut;
    else
      rc_dec <= rmin_eff;
    end if;

    -- spec 4.4: stages before this decrease resets them (clamp only after an increase)
    if (cfg_clamp_tgt = '1' or t_stage /= 0 or b_stage /= 0) then
      rt_dec <= rc;
    else
      rt_dec <= rt;
    end if;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    dec_fire    <= fire;
    dec_pending <= r.dec_pending;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

  -- pragma translate_off
  -- simulation only: the state record for simulators without external names (dcqcn_tap_pkg)
  tap_rate_dec <= r;
  -- pragma translate_on

end architecture rtl;
