-- SPDX-License-Identifier: MIT
-- tb_golden_mq: replays one golden vector set of the multi-QP block (docs/golden-format.md, "The
-- multi-QP block") on the top level dcqcn_mq (the VHDL twin rtl/vhdl/mq/), cycle by cycle.

-- VHDL-2008, std.textio and ieee.numeric_std only. The reader is tb_golden.vhd's,
-- golden_reader_pkg.vhd; what is here is the block's: the header's `qps <n>` after the magic line
-- `dcqcn-golden-mq 1`, the field list (the ports of spec-mq 3: 19 inputs, 11 outputs, no register
-- fields) and the DUT, the entity dcqcn_mq of work with the generics QPS, CLK_FREQ_HZ and
-- LINE_RATE (the last two as 8 hex digits, so that values above 2^31-1 pass through GHDL's -g
-- option; run.sh takes them from the set's manifest).
--
-- The file is read three times, so that nothing malformed is ever simulated:
--   pass 1, on the raw bytes: printable ASCII lines of at most 2048 characters ended by LF, the
--           CRC-32 of every byte before the `end` line against that line, nothing after it;
--   pass 2: every record: the header against the field list below, t / c / r records, comments,
--           the `end` cycle count against the records' total;
--   pass 3: the replay (cycle protocol of the format: inputs driven while clk is low, `out` fields
--           compared 4 ns later except in cycle 0, then the rising edge).
-- Malformed input stops with `<file>:<line>: <reason>`, a difference with
-- `MISMATCH <set> cycle <k> field <name>: expected <hex> got <hex>`, each printed on the output and
-- then reported with severity failure (non-zero exit); a clean replay prints
-- `PASS <set> <cycles> cycles`. `START <set>` before the first cycle lets run.sh time the replay.

-- The reader (golden_reader_pkg.vhd) for the 30 fields of crates/dcqcn-stim/src/golden/mq.rs
-- (mq_fields), the widest of 32 bits (s_axil_wdata / s_axil_rdata).
package golden_reader_mq is new work.golden_reader_pkg
  generic map (NFIELDS => 30, MAXW => 32, TB_NAME => "tb_golden_mq");

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use std.textio.all;

use work.golden_reader_mq.all;

entity tb_golden_mq is
  generic (
    VECTORS     : string   := "vectors.txt";  -- path of the set's vectors.txt
    SET_NAME    : string   := "unnamed";      -- set name for the PASS / MISMATCH lines
    QPS         : positive := 4;              -- the DUT's QPS; must equal the header's qps
    CLK_FREQ_HZ : string   := "09502F90";     -- the DUT's CLK_FREQ_HZ, 8 hex digits (156.25 MHz)
    LINE_RATE   : string   := "4A817C80"      -- the DUT's LINE_RATE, 8 hex digits (1.25e9 B/s)
  );
end entity tb_golden_mq;

architecture sim of tb_golden_mq is

  /* Field list of the multi-QP vectors (crates/dcqcn-stim/src/golden/mq.rs, mq_fields) */
  constant FIRST_OUT : natural  := 19;   -- fields 0-18 are in, 19-29 out

  constant NAMES : name_arr_t := (
    -- in
    pad("rst"), pad("s_req_valid"), pad("s_req_qp"), pad("s_req_bytes"), pad("s_cnp_valid"),
    pad("s_cnp_qp"), pad("s_rpt_valid"), pad("s_rpt_qp"), pad("s_rpt_bytes"), pad("grant_pause"),
    pad("s_axil_awaddr"), pad("s_axil_awvalid"), pad("s_axil_wdata"), pad("s_axil_wstrb"),
    pad("s_axil_wvalid"), pad("s_axil_bready"), pad("s_axil_araddr"), pad("s_axil_arvalid"),
    pad("s_axil_rready"),
    -- out
    pad("m_grant_valid"), pad("m_grant_qp"), pad("m_grant_bytes"), pad("s_axil_awready"),
    pad("s_axil_wready"), pad("s_axil_bvalid"), pad("s_axil_bresp"), pad("s_axil_arready"),
    pad("s_axil_rvalid"), pad("s_axil_rdata"), pad("s_axil_rresp"));

  constant WIDTHS : integer_vector(0 to NFIELDS - 1) := (
    1, 1, 12, 16, 1, 12, 1, 12, 16, 1, 21, 1, 32, 4, 1, 1, 21, 1, 1,
    1, 12, 16, 1, 1, 1, 2, 1, 1, 32, 2);

  constant FIELDS : field_list_t := (NAMES, WIDTHS, FIRST_OUT, NFIELDS);  -- no st field

  -- a generic of 8 hex digits (either case) as 32 bits; anything else stops elaboration
  function hex32(name : string; s : string) return std_logic_vector is
    variable v : unsigned(31 downto 0) := (others => '0');
    variable d : integer;
  begin
    assert s'length = 8
      report "tb_golden_mq: generic " & name & " `" & s & "` is not 8 hex digits" severity failure;
    for i in s'range loop
      case s(i) is
        when '0' to '9' => d := character'pos(s(i)) - character'pos('0');
        when 'a' to 'f' => d := character'pos(s(i)) - character'pos('a') + 10;
        when 'A' to 'F' => d := character'pos(s(i)) - character'pos('A') + 10;
        when others =>
          report "tb_golden_mq: generic " & name & " `" & s & "` is not 8 hex digits" severity failure;
          d := 0;
      end case;
      v := shift_left(v, 4) or to_unsigned(d, 32);
    end loop;
    return std_logic_vector(v);
  end function hex32;

  /* DUT ports (spec-mq 3) */
  signal clk            : std_logic := '0';
  signal rst            : std_logic := '0';
  signal s_req_valid    : std_logic := '0';
  signal s_req_qp       : std_logic_vector(11 downto 0) := (others => '0');
  signal s_req_bytes    : std_logic_vector(15 downto 0) := (others => '0');
  signal s_cnp_valid    : std_logic := '0';
  signal s_cnp_qp       : std_logic_vector(11 downto 0) := (others => '0');
  signal s_rpt_valid    : std_logic := '0';
  signal s_rpt_qp       : std_logic_vector(11 downto 0) := (others => '0');
  signal s_rpt_bytes    : std_logic_vector(15 downto 0) := (others => '0');
  signal grant_pause    : std_logic := '0';
  signal m_grant_valid  : std_logic;
  signal m_grant_qp     : std_logic_vector(11 downto 0);
  signal m_grant_bytes  : std_logic_vector(15 downto 0);
  signal s_axil_awaddr  : std_logic_vector(20 downto 0) := (others => '0');
  signal s_axil_awvalid : std_logic := '0';
  signal s_axil_awready : std_logic;
  signal s_axil_wdata   : std_logic_vector(31 downto 0) := (others => '0');
  signal s_axil_wstrb   : std_logic_vector(3 downto 0) := (others => '0');
  signal s_axil_wvalid  : std_logic := '0';
  signal s_axil_wready  : std_logic;
  signal s_axil_bresp   : std_logic_vector(1 downto 0);
  signal s_axil_bvalid  : std_logic;
  signal s_axil_bready  : std_logic := '0';
  signal s_axil_araddr  : std_logic_vector(20 downto 0) := (others => '0');
  signal s_axil_arvalid : std_logic := '0';
  signal s_axil_arready : std_logic;
  signal s_axil_rdata   : std_logic_vector(31 downto 0);
  signal s_axil_rresp   : std_logic_vector(1 downto 0);
  signal s_axil_rvalid  : std_logic;
  signal s_axil_rready  : std_logic := '0';

begin

  dut : entity work.dcqcn_mq
    generic map (
      QPS         => QPS,
      CLK_FREQ_HZ => hex32("CLK_FREQ_HZ", CLK_FREQ_HZ),
      LINE_RATE   => hex32("LINE_RATE", LINE_RATE)
    )
    port map (
      clk            => clk,
      rst            => rst,
      s_req_valid    => s_req_valid,
      s_req_qp       => s_req_qp,
      s_req_bytes    => s_req_bytes,
      s_cnp_valid    => s_cnp_valid,
      s_cnp_qp       => s_cnp_qp,
      s_rpt_valid    => s_rpt_valid,
      s_rpt_qp       => s_rpt_qp,
      s_rpt_bytes    => s_rpt_bytes,
      grant_pause    => grant_pause,
      m_grant_valid  => m_grant_valid,
      m_grant_qp     => m_grant_qp,
      m_grant_bytes  => m_grant_bytes,
      s_axil_awaddr  => s_axil_awaddr,
      s_axil_awvalid => s_axil_awvalid,
      s_axil_awready => s_axil_awready,
      s_axil_wdata   => s_axil_wdata,
      s_axil_wstrb   => s_axil_wstrb,
      s_axil_wvalid  => s_axil_wvalid,
      s_axil_wready  => s_axil_wready,
      s_axil_bresp   => s_axil_bresp,
      s_axil_bvalid  => s_axil_bvalid,
      s_axil_bready  => s_axil_bready,
      s_axil_araddr  => s_axil_araddr,
      s_axil_arvalid => s_axil_arvalid,
      s_axil_arready => s_axil_arready,
      s_axil_rdata   => s_axil_rdata,
      s_axil_rresp   => s_axil_rresp,
      s_axil_rvalid  => s_axil_rvalid,
      s_axil_rready  => s_axil_rready
    );

  p_replay : process
    file     vec : text;
    variable rd  : reader_t;

    -- the header: the magic line, the QPS, the field list
    procedure parse_header is
      variable v : natural;
    begin
      read_magic(vec, rd, "dcqcn-golden-mq 1");
      next_header_record(vec, rd);
      expect(rd, "qps", "record");
      parse_dec(rd, "qps", MAX_COUNT, v);
      end_of_record(rd);
      if v /= QPS then
        fail(rd, "qps mismatch: qps " & integer'image(v) &
                 ", the DUT is elaborated with QPS " & integer'image(QPS));
      end if;
      read_field_list(vec, rd, FIELDS);
    end procedure parse_header;

    /* DUT access */

    procedure drive(i : natural) is
      variable v : value_t;
    begin
      v := rd.values(i);
      case i is
        when 0      => rst            <= v(0);
        when 1      => s_req_valid    <= v(0);
        when 2      => s_req_qp       <= std_logic_vector(v(11 downto 0));
        when 3      => s_req_bytes    <= std_logic_vector(v(15 downto 0));
        when 4      => s_cnp_valid    <= v(0);
        when 5      => s_cnp_qp       <= std_logic_vector(v(11 downto 0));
        when 6      => s_rpt_valid    <= v(0);
        when 7      => s_rpt_qp       <= std_logic_vector(v(11 downto 0));
        when 8      => s_rpt_bytes    <= std_logic_vector(v(15 downto 0));
        when 9      => grant_pause    <= v(0);
        when 10     => s_axil_awaddr  <= std_logic_vector(v(20 downto 0));
        when 11     => s_axil_awvalid <= v(0);
        when 12     => s_axil_wdata   <= std_logic_vector(v(31 downto 0));
        when 13     => s_axil_wstrb   <= std_logic_vector(v(3 downto 0));
        when 14     => s_axil_wvalid  <= v(0);
        when 15     => s_axil_bready  <= v(0);
        when 16     => s_axil_araddr  <= std_logic_vector(v(20 downto 0));
        when 17     => s_axil_arvalid <= v(0);
        when 18     => s_axil_rready  <= v(0);
        when others => null;
      end case;
    end procedure drive;

    impure function actual(i : natural) return std_logic_vector is
    begin
      case i is
        when 19     => return (0 => m_grant_valid);
        when 20     => return m_grant_qp;
        when 21     => return m_grant_bytes;
        when 22     => return (0 => s_axil_awready);
        when 23     => return (0 => s_axil_wready);
        when 24     => return (0 => s_axil_bvalid);
        when 25     => return s_axil_bresp;
        when 26     => return (0 => s_axil_arready);
        when 27     => return (0 => s_axil_rvalid);
        when 28     => return s_axil_rdata;
        when 29     => return s_axil_rresp;
        when others => return "";
      end case;
    end function actual;

    procedure compare(i : natural) is
      constant WI  : positive := WIDTHS(i);
      variable exp : std_logic_vector(WI - 1 downto 0);
      variable act : std_logic_vector(WI - 1 downto 0);
    begin
      exp := std_logic_vector(rd.values(i)(WI - 1 downto 0));
      act := actual(i);
      if act /= exp then  -- element-wise: U, X, Z, ... differ from 0 and 1
        stop("MISMATCH " & SET_NAME & " cycle " & integer'image(rd.cycle) & " field " &
             trim(NAMES(i)) & ": expected " & to_hex(exp) & " got " & to_hex(act));
      end if;
    end procedure compare;

    -- one cycle (docs/golden-format.md, cycle protocol); clk is low on entry and on return
    procedure run_cycle(slot : natural) is
      variable i : natural;
    begin
      for k in 0 to rd.slots(slot).n - 1 loop
        i := rd.slots(slot).idx(k);
        rd.values(i)(WIDTHS(i) - 1 downto 0) :=
          rd.values(i)(WIDTHS(i) - 1 downto 0) + rd.slots(slot).delta(k)(WIDTHS(i) - 1 downto 0);
        if i < FIRST_OUT then
          drive(i);
        end if;
      end loop;
      wait for 4 ns;                   -- inputs settle (zero-delay DUT: delta cycles)
      if rd.cycle > 0 then             -- no registered output is defined before the first edge
        for j in FIRST_OUT to NFIELDS - 1 loop
          compare(j);
        end loop;
      end if;
      clk <= '1';
      wait for 5 ns;
      clk <= '0';
      wait for 1 ns;
      rd.cycle := rd.cycle + 1;
    end procedure run_cycle;

    -- pass 2 (replay false): checks every record; pass 3 (replay true): replays
    procedure records(replay : boolean) is
      variable run : run_t;
    begin
      open_records(vec, rd, replay);
      parse_header;
      loop
        next_run(vec, rd, FIELDS, replay, run);
        exit when run.count = 0;
        for n in 1 to run.count loop
          for j in 1 to run.len loop
            run_cycle(run.seq(j));
          end loop;
        end loop;
      end loop;
      close_records(vec, rd, replay);
    end procedure records;

  begin
    check_file(rd, VECTORS);
    records(replay => false);
    say("START " & SET_NAME);
    records(replay => true);
    say("PASS " & SET_NAME & " " & integer'image(rd.cycle) & " cycles");
    wait;
  end process p_replay;

end architecture sim;
