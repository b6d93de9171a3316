-- SPDX-License-Identifier: MIT
-- nscc_mq_pkg: the records of the NSCC block nscc_mq (docs/spec-nscc.md 4.3, 8.1), the reciprocal
-- table and function (6.1), the init record (7) and the send test win_ok (4.2). VHDL-2008 twin of
-- rtl/nscc/nscc_mq_pkg.sv.

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

package nscc_mq_pkg is

  -- spec-nscc 6.1, 6.4: the largest age a stamp reads, 2^26 - 1 cycles
  constant AGE_MAX_C : unsigned(25 downto 0) := (others => '1');

  -- spec-nscc 3: the event kinds of the ACK port
  constant KIND_ACK_C  : unsigned(1 downto 0) := "00";
  constant KIND_TRIM_C : unsigned(1 downto 0) := "01"; -- trimmed NACK
  constant KIND_NACK_C : unsigned(1 downto 0) := "10"; -- other NACK
  constant KIND_LOSS_C : unsigned(1 downto 0) := "11"; -- inferred loss

  -- spec-nscc 6.2 step 7: the reaction (NsccOutType.rcase); 0: the ACK did not get there
  constant CASE_NONE_C : unsigned(2 downto 0) := "000";
  constant CASE_FAIR_C : unsigned(2 downto 0) := "001"; -- fair increase
  constant CASE_PROP_C : unsigned(2 downto 0) := "010"; -- proportional increase
  constant CASE_FAST_C : unsigned(2 downto 0) := "011"; -- fast increase
  constant CASE_MD_C   : unsigned(2 downto 0) := "100"; -- multiplicative decrease
  constant CASE_HOLD_C : unsigned(2 downto 0) := "101"; -- marked, below target
  constant CASE_RLIM_C : unsigned(2 downto 0) := "110"; -- unmarked while the receiver limits

  -- One flow's memories as the ACK process reads and writes them (spec-nscc 4.1, 4.3): CWND_MEM,
  -- ABYTES_MEM, NSCC_MEM (saved .. qa_armed), NSCC_TIME_MEM
  type NsccFlowType is record
    cwnd       : unsigned(31 downto 0); -- Q24.8 bytes
    abytes     : unsigned(31 downto 0); -- bytes, mod 2^32
    saved      : unsigned(31 downto 0); -- Q24.8 bytes; 0: none
    base_rtt   : unsigned(23 downto 0); -- cycles
    max_wnd    : unsigned(23 downto 0); -- bytes
    avg        : unsigned(31 downto 0); -- Q24.8 cycles
    achieved   : unsigned(31 downto 0); -- bytes, saturating
    received   : unsigned(31 downto 0); -- bytes, saturating
    fi_count   : unsigned(31 downto 0); -- bytes, saturating
    inc        : unsigned(39 downto 0); -- bytes^2, saturating
    to_ignore  : unsigned(31 downto 0); -- bytes
    ignored    : unsigned(31 downto 0); -- bytes, saturating
    increase   : std_logic;
    trigger_qa : std_logic;
    qa_armed   : std_logic;
    t_adj      : unsigned(31 downto 0); -- now values
    t_dec      : unsigned(31 downto 0);
    t_qa       : unsigned(31 downto 0);
  end record NsccFlowType;

  -- The NSCC registers (spec-nscc 8.1)
  type NsccRegsType is record
    base_rtt      : unsigned(23 downto 0); -- cycles; 0 acts as 1
    target        : unsigned(23 downto 0); -- cycles
    mtu           : unsigned(15 downto 0); -- bytes; 0 acts as 1
    max_wnd       : unsigned(23 downto 0); -- bytes
    init_cwnd     : unsigned(23 downto 0); -- bytes; 0: max_wnd
    fi            : unsigned(19 downto 0); -- bytes
    alpha         : unsigned(31 downto 0); -- Q16.16 bytes per cycle
    fi_scale      : unsigned(23 downto 0); -- Q8.16
    eta           : unsigned(23 downto 0); -- Q16.8 bytes
    adjust_period : unsigned(23 downto 0); -- cycles
    adjust_bytes  : unsigned(23 downto 0); -- bytes
    gamma         : unsigned(8 downto 0);  -- Q1.8; above 256 acts as 256
    ewma_shift    : unsigned(3 downto 0);
    qa_gate       : unsigned(3 downto 0);
    qa_en         : std_logic;
    fi_delay      : unsigned(15 downto 0); -- cycles
    qa_delay      : unsigned(23 downto 0); -- cycles; 0: never
  end record NsccRegsType;

  -- What one event did (the counters of spec-nscc 8.1 count these)
  type NsccOutType is record
    penalty    : std_logic;            -- step 2: rcv_cwnd_pend applied
    restored   : std_logic;            -- step 2: the saved window restored
    rtt_valid  : std_logic;            -- step 3 passed
    qa_fired   : std_logic;            -- step 6 set the window
    qa_ignored : std_logic;            -- step 6: a marked ACK ignored
    rcase      : unsigned(2 downto 0); -- step 7: CASE_*_C
    md_applied : std_logic;            -- step 7: the decrease applied
    adjusted   : std_logic;            -- step 8 ran
    eta_added  : std_logic;            -- ... and added eta
  end record NsccOutType;

  -- spec-nscc 6.1: RECIP[m] = floor(2^24 / (256 + m)), 17 bits, computed at elaboration
  type RecipTableType is array (0 to 255) of unsigned(16 downto 0);

  function recip_table return RecipTableType;

  constant RECIP_C : RecipTableType := recip_table;

  -- spec-nscc 6.1: 1/X ~ recip * 2^-(16 + e) for 0 < X < 2^40 (X = 0 reads as 1)
  type RecipType is record
    recip : unsigned(16 downto 0); -- RECIP[m]
    e     : unsigned(5 downto 0);  -- floor(log2 X)
  end record RecipType;

  function recip_of (x : unsigned(39 downto 0)) return RecipType;

  -- spec-nscc 7: the init record written at now
  function init_flow (cfg : NsccRegsType; now : unsigned(31 downto 0)) return NsccFlowType;

  -- spec-nscc 4.2: infl * 256 + mtu * 256 <= cwnd, 42-bit signed (mtu: max(cfg_mtu, 1))
  function win_ok (
    gbytes : unsigned(31 downto 0);
    abytes : unsigned(31 downto 0);
    cwnd   : unsigned(31 downto 0);
    mtu    : unsigned(15 downto 0)
  )
    return std_logic;

end package nscc_mq_pkg;

package body nscc_mq_pkg is

  function recip_table return RecipTableType is
    variable t : RecipTableType;
  begin
    for m in 0 to 255 loop
      t(m) := to_unsigned(2 ** 24 / (256 + m), 17);
    end loop;
    return t;
  end function recip_table;

  function recip_of (x : unsigned(39 downto 0)) return RecipType is
    variable e    : unsigned(5 downto 0);
    variable norm : unsigned(39 downto 0); -- X with its leading one at bit 39; m: bits 38 .. 31
    variable r    : RecipType;
  begin
    e := (others => '0');
    for i in 0 to 39 loop
      if (x(i) = '1') then
        e := to_unsigned(i, 6);
      end if;
    end loop;
    norm    := shift_left(x, to_integer(39 - e));
    r.recip := RECIP_C(to_integer(norm(38 downto 31)));
    r.e     := e;
    return r;
  end function recip_of;

  function init_flow (cfg : NsccRegsType; now : unsigned(31 downto 0)) return NsccFlowType is
    variable mtu     : unsigned(23 downto 0);
    variable ceiling : unsigned(23 downto 0);
    variable want    : unsigned(23 downto 0);
    variable cw      : unsigned(23 downto 0);
    variable f       : NsccFlowType;
  begin
    mtu := resize(cfg.mtu, 24);
    if (cfg.mtu = 0) then
      mtu := to_unsigned(1, 24);
    end if;
    ceiling := cfg.max_wnd;
    if (mtu > cfg.max_wnd) then
      ceiling := mtu;
    end if;
    want := cfg.init_cwnd;
    if (cfg.init_cwnd = 0) then
      want := cfg.max_wnd;
    end if;
    cw := want;
    if (want < mtu) then
      cw := mtu;
    elsif (want > ceiling) then
      cw := ceiling;
    end if;
    f :=
    (
      cwnd       => cw & x"00",
      abytes     => (others => '0'),
      saved      => (others => '0'),
      base_rtt   => cfg.base_rtt,
      max_wnd    => cfg.max_wnd,
      avg        => (others => '0'),
      achieved   => (others => '0'),
      received   => (others => '0'),
      fi_count   => (others => '0'),
      inc        => (others => '0'),
      to_ignore  => (others => '0'),
      ignored    => (others => '0'),
      increase   => '0',
      trigger_qa => '0',
      qa_armed   => '0',
      t_adj      => now,
      t_dec      => now,
      t_qa       => now
    );
    if (cfg.base_rtt = 0) then
      f.base_rtt := to_unsigned(1, 24);
    end if;
    return f;
  end function init_flow;

  function win_ok (
    gbytes : unsigned(31 downto 0);
    abytes : unsigned(31 downto 0);
    cwnd   : unsigned(31 downto 0);
    mtu    : unsigned(15 downto 0)
  )
    return std_logic is
    variable infl : unsigned(31 downto 0);
    variable lhs  : signed(41 downto 0);
  begin
    infl := gbytes - abytes;
    lhs  := shift_left(resize(signed(infl), 42), 8) + signed(resize(mtu & x"00", 42));
    if (lhs <= signed(resize(cwnd, 42))) then
      return '1';
    end if;
    return '0';
  end function win_ok;

end package body nscc_mq_pkg;
