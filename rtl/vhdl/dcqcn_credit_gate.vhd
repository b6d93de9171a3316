-- SPDX-License-Identifier: MIT
-- dcqcn_credit_gate: rate-to-credit conversion, credit accumulator and beat-level stream gate (spec 5).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_pkg.all;
  -- pragma translate_off
  use work.dcqcn_tap_pkg.all;
  -- pragma translate_on

entity dcqcn_credit_gate is
  generic (
    DATA_BYTES  : natural                       := DCQCN_DATA_BYTES_C;  -- beat width, bytes
    CLK_FREQ_HZ : std_logic_vector(31 downto 0) := DCQCN_CLK_FREQ_HZ_C; -- f, Hz
    LINE_RATE   : std_logic_vector(31 downto 0) := DCQCN_LINE_RATE_C    -- L, bytes/s
  );
  port (
    -- Clock and synchronous reset
    clk            : in    std_logic;
    rst            : in    std_logic;
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
    -- Rate and configuration
    rc             : in    unsigned(31 downto 0); -- bytes/s
    ungated        : in    std_logic;             -- bypass or scheme bit 1 (spec 4.9)
    cfg_gate_mask  : in    std_logic;             -- 1: no beat is accepted (spec 4.9)
    cfg_credit_cap : in    unsigned(31 downto 0); -- bytes
    -- Events for the counters (spec 6.2)
    bytes_in       : out   unsigned(6 downto 0);  -- bytes of the beat loaded this cycle
    stall          : out   std_logic;             -- beat offered, room downstream, no credit
    -- State
    bpc            : out   unsigned(31 downto 0); -- Q16.16 bytes/clock
    credit         : out   unsigned(47 downto 0)  -- Q32.16 bytes
  );
end entity dcqcn_credit_gate;

architecture rtl of dcqcn_credit_gate is

  -- spec 2: illegal parameters are an elaboration error (checked before anything uses them)
  constant PARAMS_OK_C : boolean :=
    dcqcn_check_params("dcqcn_credit_gate", DATA_BYTES, CLK_FREQ_HZ, LINE_RATE, true, true);

  -- spec 2: K = round(2^48 / f)
  constant K_C             : unsigned(31 downto 0) := dcqcn_k(CLK_FREQ_HZ);
  -- spec 5.1: bpc(L), the reset value of bpc
  constant BPC_L_C         : unsigned(31 downto 0) := dcqcn_bpc(unsigned(LINE_RATE), K_C);
  constant DATA_BYTES_32_C : unsigned(31 downto 0) := to_unsigned(DATA_BYTES, 32);

  subtype RegType is CreditGateRegType (
    m_data(8 * DATA_BYTES - 1 downto 0),
    m_keep(DATA_BYTES - 1 downto 0));

  constant REG_INIT_C : RegType := (
    bpc     => BPC_L_C,
    credit  => (others => '0'),
    m_valid => '0',
    m_data  => (others => '0'),
    m_keep  => (others => '0'),
    m_last  => '0');

  signal r   : RegType := REG_INIT_C;
  signal rin : RegType;

begin

  comb : process (all) is
    variable v           : RegType;
    variable bytes       : unsigned(6 downto 0);
    variable beat_ok     : std_logic;
    variable ready       : std_logic;
    variable load        : std_logic;
    variable b_in        : unsigned(6 downto 0);
    variable cap_bytes   : unsigned(31 downto 0);
    variable cap_q       : unsigned(47 downto 0);
    variable credit_left : unsigned(47 downto 0);
    variable credit_sum  : unsigned(48 downto 0);
    variable cap_over    : std_logic;
  begin
    v := r;

    -- spec 5.1: one cycle of latency from Rc to the credit rate
    v.bpc := dcqcn_bpc(rc, K_C);

    -- spec 5.3: the beat's size is popcount(tkeep)
    bytes := popcount(s_axis_tkeep);

    -- spec 5.3: tkeep-aware gate; bypass and the unthrottled schemes pass ungated, the gate mask
    -- blocks in every scheme (spec 4.7, 4.9)
    -- credit >= bytes & x"0000": bits 47:23 above the beat, or bits 22:16 against it (a
    -- comparison of all 48 bits maps to about 14 LUTs more)
    beat_ok := not cfg_gate_mask and (ungated or to_sl(r.credit(47 downto 23) /= 0)
                                      or to_sl(r.credit(22 downto 16) >= bytes));
    ready   := not rst and (not r.m_valid or m_axis_tready) and beat_ok;
    load    := s_axis_tvalid and ready;
    if (load = '1') then
      b_in := bytes;
    else
      b_in := (others => '0');
    end if;

    -- spec 6.2: cnt_stall condition
    stall <= s_axis_tvalid and (not r.m_valid or m_axis_tready) and not beat_ok and not rst;

    -- spec 5.2: cap never below one full beat, so a beat can always be covered
    if (cfg_credit_cap < DATA_BYTES_32_C) then
      cap_bytes := DATA_BYTES_32_C;
    else
      cap_bytes := cfg_credit_cap;
    end if;
    cap_q       := cap_bytes & x"0000";
    -- load implies credit covers the beat, so this never underflows (spec 5.2)
    credit_left := r.credit - resize(b_in & x"0000", 48);
    credit_sum  := resize(credit_left, 49) + resize(r.bpc, 49);
    -- credit_sum > cap_q, compared on the bits cap_q does not hold at 0 (a comparison of all 49
    -- bits maps to about 19 LUTs more)
    cap_over    := to_sl(credit_sum(48 downto 16) > resize(cap_bytes, 33))
                   or (to_sl(credit_sum(48 downto 16) = resize(cap_bytes, 33))
                       and to_sl(credit_sum(15 downto 0) /= 0));
    if (ungated = '1') then
      v.credit := (others => '0');
    elsif (cap_over = '1') then
      v.credit := cap_q;
    else
      v.credit := credit_sum(47 downto 0);
    end if;

    -- spec 5.3: one output register; tvalid withdrawn only after its handshake
    v.m_valid := load or (r.m_valid and not m_axis_tready);
    if (load = '1') then
      v.m_data := s_axis_tdata;
      v.m_keep := s_axis_tkeep;
      v.m_last := s_axis_tlast;
    end if;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    s_axis_tready <= ready;
    bytes_in      <= b_in;
    m_axis_tvalid <= r.m_valid;
    m_axis_tdata  <= r.m_data;
    m_axis_tkeep  <= r.m_keep;
    m_axis_tlast  <= r.m_last;
    bpc           <= r.bpc;
    credit        <= r.credit;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

  -- pragma translate_off
  -- simulation only: the state record for simulators without external names (dcqcn_tap_pkg)
  tap_credit_gate <= (bpc => r.bpc, credit => r.credit);
  -- pragma translate_on

end architecture rtl;
