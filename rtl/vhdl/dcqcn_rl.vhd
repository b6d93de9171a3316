-- SPDX-License-Identifier: MIT
-- dcqcn_rl: DCQCN reaction-point rate limiter on an AXI4-Stream path, AXI4-Lite configured (spec 1-7).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_pkg.all;
  -- pragma translate_off
  use work.dcqcn_tap_pkg.all;
  -- pragma translate_on

-- CLK_FREQ_HZ and LINE_RATE are 32-bit vectors: the legal ranges (spec 2) end at 2^32 - 1, which a
-- VHDL integer (32-bit signed in GHDL and most tools) cannot hold; the SV has logic [31:0].
entity dcqcn_rl is
  generic (
    DATA_BYTES  : natural                       := DCQCN_DATA_BYTES_C;  -- beat width, bytes (1..64)
    CLK_FREQ_HZ : std_logic_vector(31 downto 0) := DCQCN_CLK_FREQ_HZ_C; -- f, Hz (65537..4294967295)
    LINE_RATE   : std_logic_vector(31 downto 0) := DCQCN_LINE_RATE_C;   -- L, bytes/s (1..4294967295)
    -- spec 2: the optional features (true/64: built, as the register map describes them; false/0:
    -- absent, their words answer as unmapped ones and the block behaves as with them at reset)
    RATE_RULES  : boolean := true;                                      -- rate rules 0x150-0x158
    CONTROL     : boolean := true;                                      -- control schemes 0x15C-0x160
    TRACE_DEPTH : natural := TRACE_DEPTH_C                              -- event trace 0x170-0x18C (0, 64)
  );
  port (
    -- Clock and synchronous reset (active high)
    clk            : in    std_logic;
    rst            : in    std_logic;
    -- CNP notification from the MAC receive path, may be asynchronous
    cnp            : in    std_logic;
    -- AXI4-Stream input (from the RoCEv2 engine)
    s_axis_tdata   : in    std_logic_vector(8 * DATA_BYTES - 1 downto 0);
    s_axis_tkeep   : in    std_logic_vector(DATA_BYTES - 1 downto 0);
    s_axis_tvalid  : in    std_logic;
    s_axis_tready  : out   std_logic;
    s_axis_tlast   : in    std_logic;
    -- AXI4-Stream output (to the MAC)
    m_axis_tdata   : out   std_logic_vector(8 * DATA_BYTES - 1 downto 0);
    m_axis_tkeep   : out   std_logic_vector(DATA_BYTES - 1 downto 0);
    m_axis_tvalid  : out   std_logic;
    m_axis_tready  : in    std_logic;
    m_axis_tlast   : out   std_logic;
    -- AXI4-Lite slave: write
    s_axil_awaddr  : in    std_logic_vector(11 downto 0);
    s_axil_awvalid : in    std_logic;
    s_axil_awready : out   std_logic;
    s_axil_wdata   : in    std_logic_vector(31 downto 0);
    s_axil_wstrb   : in    std_logic_vector(3 downto 0);
    s_axil_wvalid  : in    std_logic;
    s_axil_wready  : out   std_logic;
    s_axil_bresp   : out   std_logic_vector(1 downto 0);
    s_axil_bvalid  : out   std_logic;
    s_axil_bready  : in    std_logic;
    -- AXI4-Lite slave: read
    s_axil_araddr  : in    std_logic_vector(11 downto 0);
    s_axil_arvalid : in    std_logic;
    s_axil_arready : out   std_logic;
    s_axil_rdata   : out   std_logic_vector(31 downto 0);
    s_axil_rresp   : out   std_logic_vector(1 downto 0);
    s_axil_rvalid  : out   std_logic;
    s_axil_rready  : in    std_logic
  );
end entity dcqcn_rl;

architecture rtl of dcqcn_rl is

  -- spec 2: illegal parameters are an elaboration error (checked before anything uses them)
  constant PARAMS_OK_C : boolean :=
    dcqcn_check_params("dcqcn_rl", DATA_BYTES, CLK_FREQ_HZ, LINE_RATE, true, true);
  constant TRACE_OK_C  : boolean := dcqcn_check_trace_depth("dcqcn_rl", TRACE_DEPTH);

  constant L_C : unsigned(31 downto 0) := unsigned(LINE_RATE);

  -- spec 4.2, 4.6: rate registers and activity
  constant REG_INIT_C : RlRegType := (
    rc     => L_C,
    rt     => L_C,
    active => '0');

  signal r   : RlRegType := REG_INIT_C;
  signal rin : RlRegType;

  -- Rate registers and activity, as ports of the sub-blocks
  signal rc     : unsigned(31 downto 0);
  signal rt     : unsigned(31 downto 0);
  signal active : std_logic;

  -- Events
  signal cnp_edge   : std_logic;
  signal cnp_event  : std_logic;
  signal dec_fire   : std_logic;
  signal timer_fire : std_logic;
  signal byte_fire  : std_logic;
  signal inc_event  : std_logic;
  signal phase_fr   : std_logic;
  signal phase_ai   : std_logic;
  signal phase_hai  : std_logic;
  signal bytes_in   : unsigned(6 downto 0);
  signal stall      : std_logic;

  -- Process results
  signal rc_dec : unsigned(31 downto 0);
  signal rt_dec : unsigned(31 downto 0);
  signal rc_upd : unsigned(31 downto 0);
  signal rt_upd : unsigned(31 downto 0);

  -- Rc after the edge of a cycle with a rate event (spec 4.10: the trace entry's rate)
  signal rc_next : unsigned(31 downto 0);

  -- State of the sub-blocks
  signal alpha         : unsigned(9 downto 0);
  signal alpha_pending : std_logic;
  signal dec_pending   : std_logic;
  signal t_stage       : unsigned(7 downto 0);
  signal b_stage       : unsigned(7 downto 0);
  signal bpc           : unsigned(31 downto 0);
  signal credit        : unsigned(47 downto 0);

  -- Configuration
  signal cfg_alpha_g         : unsigned(9 downto 0);
  signal cfg_dec_gain        : unsigned(3 downto 0);
  signal cfg_stage_threshold : unsigned(7 downto 0);
  signal cfg_clamp_tgt       : std_logic;
  signal cfg_rai             : unsigned(31 downto 0);
  signal cfg_rhai            : unsigned(31 downto 0);
  signal cfg_rmin            : unsigned(31 downto 0);
  signal cfg_inc_interval    : unsigned(31 downto 0);
  signal cfg_dec_interval    : unsigned(15 downto 0);
  signal cfg_alpha_interval  : unsigned(15 downto 0);
  signal cfg_bypass          : std_logic;
  signal cfg_timer_en        : std_logic;
  signal cfg_byte_en         : std_logic;
  signal cfg_byte_threshold  : unsigned(31 downto 0);
  signal cfg_credit_cap      : unsigned(31 downto 0);
  signal cfg_rmax            : unsigned(31 downto 0);
  signal cfg_rate_first_cnp  : unsigned(31 downto 0);
  signal cfg_alpha_init      : unsigned(9 downto 0);
  signal cfg_min_dec_fac     : unsigned(10 downto 0);
  signal cfg_hai_mult        : std_logic;
  signal cfg_scheme          : unsigned(1 downto 0);
  signal cfg_gate_mask       : std_logic;
  signal cfg_fw_rate         : unsigned(31 downto 0);

  -- Control scheme (spec 4.9)
  signal rp_hold : std_logic;             -- the reaction point's processes held in reset
  signal ungated : std_logic;             -- the credit gate open, credit held at 0
  signal fw_rc   : unsigned(31 downto 0); -- the rate firmware sets

begin

  ctrl : process (all) is
  begin

    -- spec 4.9: bit 0 holds the reaction point at the firmware's rate (0 and >= L mean L),
    -- bit 1 opens the credit gate; bypass does both
    rp_hold <= cfg_bypass or cfg_scheme(0);
    ungated <= cfg_bypass or cfg_scheme(1);
    if (cfg_fw_rate /= 0 and cfg_fw_rate < L_C) then
      fw_rc <= cfg_fw_rate;
    else
      fw_rc <= L_C;
    end if;

  end process ctrl;

  u_cnp_sync : entity work.dcqcn_cnp_sync
    port map (
      clk       => clk,
      rst       => rst,
      cnp       => cnp,
      rp_hold   => rp_hold,
      cnp_edge  => cnp_edge,
      cnp_event => cnp_event
    );

  u_alpha : entity work.dcqcn_alpha
    port map (
      clk                => clk,
      rst                => rst,
      cnp_event          => cnp_event,
      active             => active,
      rp_hold            => rp_hold,
      cfg_alpha_g        => cfg_alpha_g,
      cfg_alpha_interval => cfg_alpha_interval,
      cfg_alpha_init     => cfg_alpha_init,
      alpha              => alpha,
      alpha_pending      => alpha_pending
    );

  u_rate_dec : entity work.dcqcn_rate_dec
    generic map (
      LINE_RATE => LINE_RATE
    )
    port map (
      clk                => clk,
      rst                => rst,
      cnp_event          => cnp_event,
      rc                 => rc,
      rt                 => rt,
      alpha              => alpha,
      t_stage            => t_stage,
      b_stage            => b_stage,
      active             => active,
      rp_hold            => rp_hold,
      cfg_dec_interval   => cfg_dec_interval,
      cfg_dec_gain       => cfg_dec_gain,
      cfg_rmin           => cfg_rmin,
      cfg_clamp_tgt      => cfg_clamp_tgt,
      cfg_rate_first_cnp => cfg_rate_first_cnp,
      cfg_min_dec_fac    => cfg_min_dec_fac,
      dec_fire           => dec_fire,
      rc_dec             => rc_dec,
      rt_dec             => rt_dec,
      dec_pending        => dec_pending
    );

  u_rate_inc : entity work.dcqcn_rate_inc
    generic map (
      LINE_RATE => LINE_RATE
    )
    port map (
      clk                 => clk,
      rst                 => rst,
      dec_fire            => dec_fire,
      rc_dec              => rc_dec,
      rt_dec              => rt_dec,
      bytes_in            => bytes_in,
      active              => active,
      rc                  => rc,
      rt                  => rt,
      rp_hold             => rp_hold,
      cfg_timer_en        => cfg_timer_en,
      cfg_byte_en         => cfg_byte_en,
      cfg_inc_interval    => cfg_inc_interval,
      cfg_byte_threshold  => cfg_byte_threshold,
      cfg_stage_threshold => cfg_stage_threshold,
      cfg_rai             => cfg_rai,
      cfg_rhai            => cfg_rhai,
      cfg_rmax            => cfg_rmax,
      cfg_hai_mult        => cfg_hai_mult,
      timer_fire          => timer_fire,
      byte_fire           => byte_fire,
      inc_event           => inc_event,
      phase_fr            => phase_fr,
      phase_ai            => phase_ai,
      phase_hai           => phase_hai,
      rc_upd              => rc_upd,
      rt_upd              => rt_upd,
      t_stage             => t_stage,
      b_stage             => b_stage
    );

  u_credit_gate : entity work.dcqcn_credit_gate
    generic map (
      DATA_BYTES  => DATA_BYTES,
      CLK_FREQ_HZ => CLK_FREQ_HZ,
      LINE_RATE   => LINE_RATE
    )
    port map (
      clk            => clk,
      rst            => rst,
      s_axis_tdata   => s_axis_tdata,
      s_axis_tkeep   => s_axis_tkeep,
      s_axis_tvalid  => s_axis_tvalid,
      s_axis_tready  => s_axis_tready,
      s_axis_tlast   => s_axis_tlast,
      m_axis_tdata   => m_axis_tdata,
      m_axis_tkeep   => m_axis_tkeep,
      m_axis_tvalid  => m_axis_tvalid,
      m_axis_tready  => m_axis_tready,
      m_axis_tlast   => m_axis_tlast,
      rc             => rc,
      ungated        => ungated,
      cfg_gate_mask  => cfg_gate_mask,
      cfg_credit_cap => cfg_credit_cap,
      bytes_in       => bytes_in,
      stall          => stall,
      bpc            => bpc,
      credit         => credit
    );

  u_regs : entity work.dcqcn_regs
    generic map (
      DATA_BYTES  => DATA_BYTES,
      CLK_FREQ_HZ => CLK_FREQ_HZ,
      RATE_RULES  => RATE_RULES,
      CONTROL     => CONTROL,
      TRACE_DEPTH => TRACE_DEPTH
    )
    port map (
      clk                 => clk,
      rst                 => rst,
      s_axil_awaddr       => s_axil_awaddr,
      s_axil_awvalid      => s_axil_awvalid,
      s_axil_awready      => s_axil_awready,
      s_axil_wdata        => s_axil_wdata,
      s_axil_wstrb        => s_axil_wstrb,
      s_axil_wvalid       => s_axil_wvalid,
      s_axil_wready       => s_axil_wready,
      s_axil_bresp        => s_axil_bresp,
      s_axil_bvalid       => s_axil_bvalid,
      s_axil_bready       => s_axil_bready,
      s_axil_araddr       => s_axil_araddr,
      s_axil_arvalid      => s_axil_arvalid,
      s_axil_arready      => s_axil_arready,
      s_axil_rdata        => s_axil_rdata,
      s_axil_rresp        => s_axil_rresp,
      s_axil_rvalid       => s_axil_rvalid,
      s_axil_rready       => s_axil_rready,
      rc                  => rc,
      rt                  => rt,
      active              => active,
      alpha               => alpha,
      alpha_pending       => alpha_pending,
      dec_pending         => dec_pending,
      t_stage             => t_stage,
      b_stage             => b_stage,
      bpc                 => bpc,
      credit              => credit,
      cnp_edge            => cnp_edge,
      dec_fire            => dec_fire,
      inc_event           => inc_event,
      phase_fr            => phase_fr,
      phase_ai            => phase_ai,
      phase_hai           => phase_hai,
      timer_fire          => timer_fire,
      byte_fire           => byte_fire,
      stall               => stall,
      bytes_in            => bytes_in,
      rc_next             => rc_next,
      cfg_alpha_g         => cfg_alpha_g,
      cfg_dec_gain        => cfg_dec_gain,
      cfg_stage_threshold => cfg_stage_threshold,
      cfg_clamp_tgt       => cfg_clamp_tgt,
      cfg_rai             => cfg_rai,
      cfg_rhai            => cfg_rhai,
      cfg_rmin            => cfg_rmin,
      cfg_inc_interval    => cfg_inc_interval,
      cfg_dec_interval    => cfg_dec_interval,
      cfg_alpha_interval  => cfg_alpha_interval,
      cfg_bypass          => cfg_bypass,
      cfg_timer_en        => cfg_timer_en,
      cfg_byte_en         => cfg_byte_en,
      cfg_byte_threshold  => cfg_byte_threshold,
      cfg_credit_cap      => cfg_credit_cap,
      cfg_rmax            => cfg_rmax,
      cfg_rate_first_cnp  => cfg_rate_first_cnp,
      cfg_alpha_init      => cfg_alpha_init,
      cfg_min_dec_fac     => cfg_min_dec_fac,
      cfg_hai_mult        => cfg_hai_mult,
      cfg_scheme          => cfg_scheme,
      cfg_gate_mask       => cfg_gate_mask,
      cfg_fw_rate         => cfg_fw_rate
    );

  comb : process (all) is
    variable v      : RlRegType;
    variable rc_set : unsigned(31 downto 0);
    variable rt_set : unsigned(31 downto 0);
  begin
    v := r;

    -- spec 4.2, 4.9: set by the first decrease, cleared by reset, bypass and a firmware-rate scheme
    v.active := not rp_hold and (r.active or dec_fire);

    -- spec 4.6, 4.9: bypass > firmware rate > decrease > increase > hold. rc_set, rt_set: the
    -- values a rate update (bypass, the firmware rate, a decrease or an increase) writes
    if (cfg_bypass = '1') then
      rc_set := L_C;
      rt_set := L_C;
    elsif (cfg_scheme(0) = '1') then
      rc_set := fw_rc;
      rt_set := fw_rc;
    else
      -- decrease or increase, chosen and capped in dcqcn_rate_inc (spec 4.6)
      rc_set := rc_upd;
      rt_set := rt_upd;
    end if;
    if ((cfg_bypass or cfg_scheme(0) or dec_fire or inc_event) = '1') then
      v.rc := rc_set;
      v.rt := rt_set;
    end if;

    -- spec 4.10: the trace entry's rate, Rc after the edge of an event cycle (a decrease or an
    -- increase: an update, so rc_set is what Rc takes; the hold is not built a second time)
    rc_next <= rc_set;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    rc     <= r.rc;
    rt     <= r.rt;
    active <= r.active;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

  -- pragma translate_off
  -- simulation only: the state record for simulators without external names (dcqcn_tap_pkg)
  tap_rl <= r;
  -- pragma translate_on

end architecture rtl;
