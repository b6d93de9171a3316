-- SPDX-License-Identifier: MIT
-- dcqcn_alpha: DCQCN alpha (congestion estimate) update process (spec 4.3).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_pkg.all;
  -- pragma translate_off
  use work.dcqcn_tap_pkg.all;
  -- pragma translate_on

entity dcqcn_alpha is
  port (
    -- Clock and synchronous reset
    clk                : in    std_logic;
    rst                : in    std_logic;
    -- Events and reaction-point state
    cnp_event          : in    std_logic;
    active             : in    std_logic;
    -- Configuration
    rp_hold            : in    std_logic;             -- bypass or scheme bit 0: held in reset (spec 4.7, 4.9)
    cfg_alpha_g        : in    unsigned(9 downto 0);  -- G = 1 - g, Q0.10
    cfg_alpha_interval : in    unsigned(15 downto 0); -- cycles
    cfg_alpha_init     : in    unsigned(9 downto 0);  -- alpha while inactive, Q0.10
    -- State
    alpha              : out   unsigned(9 downto 0);  -- Q0.10
    alpha_pending      : out   std_logic
  );
end entity dcqcn_alpha;

architecture rtl of dcqcn_alpha is

  constant ALPHA_MAX_C : unsigned(9 downto 0) := to_unsigned(1023, 10);

  constant REG_INIT_C : AlphaRegType := (
    alpha         => ALPHA_MAX_C,
    alpha_timer   => (others => '0'),
    alpha_pending => '0');

  signal r   : AlphaRegType := REG_INIT_C;
  signal rin : AlphaRegType;

begin

  comb : process (all) is
    variable v          : AlphaRegType;
    variable cnp_alpha  : std_logic;
    variable pend       : std_logic;
    variable alpha_fire : std_logic;
    variable alpha_prod : unsigned(19 downto 0);
    variable alpha_s    : unsigned(9 downto 0);
    variable alpha_inc  : unsigned(10 downto 0);
    variable alpha_new  : unsigned(9 downto 0);
  begin
    v := r;

    -- spec 4.3: the first CNP after reset/hold is not counted (alpha already holds its initial value)
    cnp_alpha := cnp_event and active;
    pend      := r.alpha_pending or cnp_alpha;

    -- spec 4.0 expired(): one extra bit so interval 0 behaves as 1 and the timer never wraps
    alpha_fire := active and expired(r.alpha_timer, cfg_alpha_interval);

    -- spec 4.3: s = floor((alpha * G + 512) / 1024), round half up; alpha * G + 512 < 2^20
    alpha_prod := r.alpha * cfg_alpha_g + 512;
    alpha_s    := alpha_prod(19 downto 10);

    -- spec 4.3: s + (1024 - G) <= 2046 fits 11 bits; saturate at 1023 instead of wrapping
    alpha_inc := resize(alpha_s, 11) + (to_unsigned(1024, 11) - resize(cfg_alpha_g, 11));
    if (pend = '1') then
      if (alpha_inc > resize(ALPHA_MAX_C, 11)) then
        alpha_new := ALPHA_MAX_C;
      else
        alpha_new := alpha_inc(9 downto 0);
      end if;
    else
      alpha_new := alpha_s;
    end if;

    -- spec 4.3, 4.7, 4.9: a held reaction point and inactivity hold alpha at its initial value
    if (rp_hold = '1' or active = '0') then
      v.alpha := cfg_alpha_init;
    elsif (alpha_fire = '1') then
      v.alpha := alpha_new;
    end if;

    -- spec 4.2: timer held at 0 while inactive; not re-phased by CNPs
    if (rp_hold = '1' or active = '0' or alpha_fire = '1') then
      v.alpha_timer := (others => '0');
    else
      v.alpha_timer := r.alpha_timer + 1;
    end if;

    -- spec 4.3: a CNP in the firing cycle counts for this update (set wins, then consumed)
    v.alpha_pending := not rp_hold and pend and not alpha_fire;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    alpha         <= r.alpha;
    alpha_pending <= r.alpha_pending;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

  -- pragma translate_off
  -- simulation only: the state record for simulators without external names (dcqcn_tap_pkg)
  tap_alpha <= r;
  -- pragma translate_on

end architecture rtl;
