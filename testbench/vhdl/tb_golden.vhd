-- SPDX-License-Identifier: MIT
-- tb_golden: replays one golden vector set (docs/golden-format.md) on dcqcn_cosim_top, cycle by cycle.

-- VHDL-2008, std.textio and ieee.numeric_std only (GHDL 2.0: --std=08, no other flag). The DUT is
-- the component dcqcn_cosim_top with the golden-format-1 ports of verilator/dcqcn_cosim_top.sv (the
-- ones compared) and a DATA_BYTES generic, bound to the entity of that name in work: the gate-level
-- netlist that scripts/netlist2vhdl.py makes from the Verilog RTL, or the VHDL twin's wrapper
-- (testbench/vhdl/dcqcn_cosim_top_vhdl.vhd), which run.sh binds with a configuration through a
-- generated entity golden_twin_<key> that also sets its CLK_FREQ_HZ and LINE_RATE and leaves the
-- wrapper's lockstep-only outputs open. The reader is golden_reader_pkg.vhd (tb_golden_mq.vhd's too);
-- what is here is the block's: the DUT, the header's `data_bytes <n>` after the magic line
-- `dcqcn-golden 1`, the field list, the drive and the comparison.
--
-- The file is read three times, so that nothing malformed is ever simulated:
--   pass 1, on the raw bytes (a file of character: GHDL's readline takes CR as a line end too):
--           printable ASCII lines of at most 2048 characters ended by LF, the CRC-32 of every byte
--           before the `end` line against that line, nothing after it;
--   pass 2: every record: the header against the field list below, t / c / r records, comments,
--           the `end` cycle count against the records' total;
--   pass 3: the replay (cycle protocol of the format: inputs driven while clk is low, `out` fields
--           compared 4 ns later except in cycle 0, rising edge, `st` fields compared 5 ns later).
-- Malformed input stops with `<file>:<line>: <reason>`, a difference with
-- `MISMATCH <set> cycle <k> field <name>: expected <hex> got <hex>`, each printed on the output and
-- then reported with severity failure (non-zero exit); a clean replay prints
-- `PASS <set> <cycles> cycles`. `START <set>` before the first cycle lets run.sh time the replay.

-- The reader (golden_reader_pkg.vhd) for the 72 fields of format version 1, the widest of 512 bits
-- (s_axis_tdata / m_axis_tdata at 64 bytes).
package golden_reader_rl is new work.golden_reader_pkg
  generic map (NFIELDS => 72, MAXW => 512, TB_NAME => "tb_golden");

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use std.textio.all;

use work.golden_reader_rl.all;

entity tb_golden is
  generic (
    VECTORS    : string   := "vectors.txt";  -- path of the set's vectors.txt
    SET_NAME   : string   := "unnamed";      -- set name for the PASS / MISMATCH lines
    DATA_BYTES : positive := 8               -- beat width of the DUT; must equal the header's
  );
end entity tb_golden;

architecture sim of tb_golden is

  constant W : positive := DATA_BYTES;

  /* Field list of format version 1 (docs/golden-format.md) */
  constant FIRST_OUT : natural  := 16;   -- fields 0-15 are in, 16-28 out, 29-71 st
  constant FIRST_ST  : natural  := 29;

  constant NAMES : name_arr_t := (
    -- in
    pad("rst"), pad("cnp"), pad("s_axis_tdata"), pad("s_axis_tkeep"), pad("s_axis_tvalid"),
    pad("s_axis_tlast"), pad("m_axis_tready"), pad("s_axil_awaddr"), pad("s_axil_awvalid"),
    pad("s_axil_wdata"), pad("s_axil_wstrb"), pad("s_axil_wvalid"), pad("s_axil_bready"),
    pad("s_axil_araddr"), pad("s_axil_arvalid"), pad("s_axil_rready"),
    -- out
    pad("s_axis_tready"), pad("m_axis_tvalid"), pad("m_axis_tdata"), pad("m_axis_tkeep"),
    pad("m_axis_tlast"), pad("s_axil_awready"), pad("s_axil_wready"), pad("s_axil_bvalid"),
    pad("s_axil_bresp"), pad("s_axil_arready"), pad("s_axil_rvalid"), pad("s_axil_rdata"),
    pad("s_axil_rresp"),
    -- st (spec 7)
    pad("cnp_meta"), pad("cnp_sync"), pad("cnp_prev"), pad("rc"), pad("rt"), pad("active"),
    pad("alpha"), pad("alpha_timer"), pad("alpha_pending"), pad("dec_timer"), pad("dec_pending"),
    pad("inc_timer"), pad("byte_cnt"), pad("t_stage"), pad("b_stage"), pad("bpc"), pad("credit"),
    pad("cfg_alpha_g"), pad("cfg_dec_gain"), pad("cfg_stage_threshold"), pad("cfg_clamp_tgt"),
    pad("cfg_rai"), pad("cfg_rhai"), pad("cfg_rmin"), pad("cfg_inc_interval"),
    pad("cfg_dec_interval"), pad("cfg_alpha_interval"), pad("cfg_bypass"), pad("cfg_timer_en"),
    pad("cfg_byte_en"), pad("cfg_byte_threshold"), pad("cfg_credit_cap"), pad("cnp_cnt16"),
    pad("cnt_cnp"), pad("cnt_dec"), pad("cnt_inc_fr"), pad("cnt_inc_ai"), pad("cnt_inc_hai"),
    pad("cnt_inc_timer"), pad("cnt_inc_byte"), pad("cnt_stall"), pad("cnt_bytes"), pad("bytes_hi"));

  constant WIDTHS : integer_vector(0 to NFIELDS - 1) := (
    1, 1, 8 * W, W, 1, 1, 1, 12, 1, 32, 4, 1, 1, 12, 1, 1,
    1, 1, 8 * W, W, 1, 1, 1, 1, 2, 1, 1, 32, 2,
    1, 1, 1, 32, 32, 1, 10, 16, 1, 16, 1, 32, 32, 8, 8, 32, 48, 10, 4, 8, 1, 32, 32, 32, 32, 16,
    16, 1, 1, 1, 32, 32, 16, 32, 32, 32, 32, 32, 32, 32, 32, 64, 32);

  constant FIELDS : field_list_t := (NAMES, WIDTHS, FIRST_OUT, FIRST_ST);

  /* DUT ports */
  signal clk            : std_logic := '0';
  signal rst            : std_logic := '0';
  signal cnp            : std_logic := '0';
  signal s_axis_tdata   : std_logic_vector(8 * W - 1 downto 0) := (others => '0');
  signal s_axis_tkeep   : std_logic_vector(W - 1 downto 0) := (others => '0');
  signal s_axis_tvalid  : std_logic := '0';
  signal s_axis_tready  : std_logic;
  signal s_axis_tlast   : std_logic := '0';
  signal m_axis_tdata   : std_logic_vector(8 * W - 1 downto 0);
  signal m_axis_tkeep   : std_logic_vector(W - 1 downto 0);
  signal m_axis_tvalid  : std_logic;
  signal m_axis_tready  : std_logic := '0';
  signal m_axis_tlast   : std_logic;
  signal s_axil_awaddr  : std_logic_vector(11 downto 0) := (others => '0');
  signal s_axil_awvalid : std_logic := '0';
  signal s_axil_awready : std_logic;
  signal s_axil_wdata   : std_logic_vector(31 downto 0) := (others => '0');
  signal s_axil_wstrb   : std_logic_vector(3 downto 0) := (others => '0');
  signal s_axil_wvalid  : std_logic := '0';
  signal s_axil_wready  : std_logic;
  signal s_axil_bresp   : std_logic_vector(1 downto 0);
  signal s_axil_bvalid  : std_logic;
  signal s_axil_bready  : std_logic := '0';
  signal s_axil_araddr  : std_logic_vector(11 downto 0) := (others => '0');
  signal s_axil_arvalid : std_logic := '0';
  signal s_axil_arready : std_logic;
  signal s_axil_rdata   : std_logic_vector(31 downto 0);
  signal s_axil_rresp   : std_logic_vector(1 downto 0);
  signal s_axil_rvalid  : std_logic;
  signal s_axil_rready  : std_logic := '0';

  signal st_cnp_meta            : std_logic_vector(0 downto 0);
  signal st_cnp_sync            : std_logic;
  signal st_cnp_prev            : std_logic;
  signal st_rc                  : std_logic_vector(31 downto 0);
  signal st_rt                  : std_logic_vector(31 downto 0);
  signal st_active              : std_logic;
  signal st_alpha               : std_logic_vector(9 downto 0);
  signal st_alpha_timer         : std_logic_vector(15 downto 0);
  signal st_alpha_pending       : std_logic;
  signal st_dec_timer           : std_logic_vector(15 downto 0);
  signal st_dec_pending         : std_logic;
  signal st_inc_timer           : std_logic_vector(31 downto 0);
  signal st_byte_cnt            : std_logic_vector(31 downto 0);
  signal st_t_stage             : std_logic_vector(7 downto 0);
  signal st_b_stage             : std_logic_vector(7 downto 0);
  signal st_bpc                 : std_logic_vector(31 downto 0);
  signal st_credit              : std_logic_vector(47 downto 0);
  signal st_cfg_alpha_g         : std_logic_vector(9 downto 0);
  signal st_cfg_dec_gain        : std_logic_vector(3 downto 0);
  signal st_cfg_stage_threshold : std_logic_vector(7 downto 0);
  signal st_cfg_clamp_tgt       : std_logic;
  signal st_cfg_rai             : std_logic_vector(31 downto 0);
  signal st_cfg_rhai            : std_logic_vector(31 downto 0);
  signal st_cfg_rmin            : std_logic_vector(31 downto 0);
  signal st_cfg_inc_interval    : std_logic_vector(31 downto 0);
  signal st_cfg_dec_interval    : std_logic_vector(15 downto 0);
  signal st_cfg_alpha_interval  : std_logic_vector(15 downto 0);
  signal st_cfg_bypass          : std_logic;
  signal st_cfg_timer_en        : std_logic;
  signal st_cfg_byte_en         : std_logic;
  signal st_cfg_byte_threshold  : std_logic_vector(31 downto 0);
  signal st_cfg_credit_cap      : std_logic_vector(31 downto 0);
  signal st_cnp_cnt16           : std_logic_vector(15 downto 0);
  signal st_cnt_cnp             : std_logic_vector(31 downto 0);
  signal st_cnt_dec             : std_logic_vector(31 downto 0);
  signal st_cnt_inc_fr          : std_logic_vector(31 downto 0);
  signal st_cnt_inc_ai          : std_logic_vector(31 downto 0);
  signal st_cnt_inc_hai         : std_logic_vector(31 downto 0);
  signal st_cnt_inc_timer       : std_logic_vector(31 downto 0);
  signal st_cnt_inc_byte        : std_logic_vector(31 downto 0);
  signal st_cnt_stall           : std_logic_vector(31 downto 0);
  signal st_cnt_bytes           : std_logic_vector(63 downto 0);
  signal st_bytes_hi            : std_logic_vector(31 downto 0);

  -- The DUT as a component, so that a configuration can bind it with more generics than DATA_BYTES
  -- (run.sh: the VHDL twin's CLK_FREQ_HZ and LINE_RATE); without one, the default binding takes the
  -- entity dcqcn_cosim_top of work (the netlist, or the twin with its default clock and line rate).
  component dcqcn_cosim_top is
    generic (
      DATA_BYTES : positive
    );
    port (
      clk                    : in  std_logic;
      rst                    : in  std_logic;
      cnp                    : in  std_logic;
      s_axis_tdata           : in  std_logic_vector(8 * DATA_BYTES - 1 downto 0);
      s_axis_tkeep           : in  std_logic_vector(DATA_BYTES - 1 downto 0);
      s_axis_tvalid          : in  std_logic;
      s_axis_tready          : out std_logic;
      s_axis_tlast           : in  std_logic;
      m_axis_tdata           : out std_logic_vector(8 * DATA_BYTES - 1 downto 0);
      m_axis_tkeep           : out std_logic_vector(DATA_BYTES - 1 downto 0);
      m_axis_tvalid          : out std_logic;
      m_axis_tready          : in  std_logic;
      m_axis_tlast           : out std_logic;
      s_axil_awaddr          : in  std_logic_vector(11 downto 0);
      s_axil_awvalid         : in  std_logic;
      s_axil_awready         : out std_logic;
      s_axil_wdata           : in  std_logic_vector(31 downto 0);
      s_axil_wstrb           : in  std_logic_vector(3 downto 0);
      s_axil_wvalid          : in  std_logic;
      s_axil_wready          : out std_logic;
      s_axil_bresp           : out std_logic_vector(1 downto 0);
      s_axil_bvalid          : out std_logic;
      s_axil_bready          : in  std_logic;
      s_axil_araddr          : in  std_logic_vector(11 downto 0);
      s_axil_arvalid         : in  std_logic;
      s_axil_arready         : out std_logic;
      s_axil_rdata           : out std_logic_vector(31 downto 0);
      s_axil_rresp           : out std_logic_vector(1 downto 0);
      s_axil_rvalid          : out std_logic;
      s_axil_rready          : in  std_logic;
      -- BEGIN GENERATED component-st: `make gen` from the snapshot! list; do not edit
      st_cnp_meta            : out std_logic_vector(0 downto 0);
      st_cnp_sync            : out std_logic;
      st_cnp_prev            : out std_logic;
      st_rc                  : out std_logic_vector(31 downto 0);
      st_rt                  : out std_logic_vector(31 downto 0);
      st_active              : out std_logic;
      st_alpha               : out std_logic_vector(9 downto 0);
      st_alpha_timer         : out std_logic_vector(15 downto 0);
      st_alpha_pending       : out std_logic;
      st_dec_timer           : out std_logic_vector(15 downto 0);
      st_dec_pending         : out std_logic;
      st_inc_timer           : out std_logic_vector(31 downto 0);
      st_byte_cnt            : out std_logic_vector(31 downto 0);
      st_t_stage             : out std_logic_vector(7 downto 0);
      st_b_stage             : out std_logic_vector(7 downto 0);
      st_bpc                 : out std_logic_vector(31 downto 0);
      st_credit              : out std_logic_vector(47 downto 0);
      st_cfg_alpha_g         : out std_logic_vector(9 downto 0);
      st_cfg_dec_gain        : out std_logic_vector(3 downto 0);
      st_cfg_stage_threshold : out std_logic_vector(7 downto 0);
      st_cfg_clamp_tgt       : out std_logic;
      st_cfg_rai             : out std_logic_vector(31 downto 0);
      st_cfg_rhai            : out std_logic_vector(31 downto 0);
      st_cfg_rmin            : out std_logic_vector(31 downto 0);
      st_cfg_inc_interval    : out std_logic_vector(31 downto 0);
      st_cfg_dec_interval    : out std_logic_vector(15 downto 0);
      st_cfg_alpha_interval  : out std_logic_vector(15 downto 0);
      st_cfg_bypass          : out std_logic;
      st_cfg_timer_en        : out std_logic;
      st_cfg_byte_en         : out std_logic;
      st_cfg_byte_threshold  : out std_logic_vector(31 downto 0);
      st_cfg_credit_cap      : out std_logic_vector(31 downto 0);
      st_cnp_cnt16           : out std_logic_vector(15 downto 0);
      st_cnt_cnp             : out std_logic_vector(31 downto 0);
      st_cnt_dec             : out std_logic_vector(31 downto 0);
      st_cnt_inc_fr          : out std_logic_vector(31 downto 0);
      st_cnt_inc_ai          : out std_logic_vector(31 downto 0);
      st_cnt_inc_hai         : out std_logic_vector(31 downto 0);
      st_cnt_inc_timer       : out std_logic_vector(31 downto 0);
      st_cnt_inc_byte        : out std_logic_vector(31 downto 0);
      st_cnt_stall           : out std_logic_vector(31 downto 0);
      st_cnt_bytes           : out std_logic_vector(63 downto 0);
      st_bytes_hi            : out std_logic_vector(31 downto 0)
    -- END GENERATED component-st
    );
  end component dcqcn_cosim_top;

begin

  dut : component dcqcn_cosim_top
    generic map (
      DATA_BYTES => DATA_BYTES
    )
    port map (
      clk                    => clk,
      rst                    => rst,
      cnp                    => cnp,
      s_axis_tdata           => s_axis_tdata,
      s_axis_tkeep           => s_axis_tkeep,
      s_axis_tvalid          => s_axis_tvalid,
      s_axis_tready          => s_axis_tready,
      s_axis_tlast           => s_axis_tlast,
      m_axis_tdata           => m_axis_tdata,
      m_axis_tkeep           => m_axis_tkeep,
      m_axis_tvalid          => m_axis_tvalid,
      m_axis_tready          => m_axis_tready,
      m_axis_tlast           => m_axis_tlast,
      s_axil_awaddr          => s_axil_awaddr,
      s_axil_awvalid         => s_axil_awvalid,
      s_axil_awready         => s_axil_awready,
      s_axil_wdata           => s_axil_wdata,
      s_axil_wstrb           => s_axil_wstrb,
      s_axil_wvalid          => s_axil_wvalid,
      s_axil_wready          => s_axil_wready,
      s_axil_bresp           => s_axil_bresp,
      s_axil_bvalid          => s_axil_bvalid,
      s_axil_bready          => s_axil_bready,
      s_axil_araddr          => s_axil_araddr,
      s_axil_arvalid         => s_axil_arvalid,
      s_axil_arready         => s_axil_arready,
      s_axil_rdata           => s_axil_rdata,
      s_axil_rresp           => s_axil_rresp,
      s_axil_rvalid          => s_axil_rvalid,
      s_axil_rready          => s_axil_rready,
      st_cnp_meta            => st_cnp_meta,
      st_cnp_sync            => st_cnp_sync,
      st_cnp_prev            => st_cnp_prev,
      st_rc                  => st_rc,
      st_rt                  => st_rt,
      st_active              => st_active,
      st_alpha               => st_alpha,
      st_alpha_timer         => st_alpha_timer,
      st_alpha_pending       => st_alpha_pending,
      st_dec_timer           => st_dec_timer,
      st_dec_pending         => st_dec_pending,
      st_inc_timer           => st_inc_timer,
      st_byte_cnt            => st_byte_cnt,
      st_t_stage             => st_t_stage,
      st_b_stage             => st_b_stage,
      st_bpc                 => st_bpc,
      st_credit              => st_credit,
      st_cfg_alpha_g         => st_cfg_alpha_g,
      st_cfg_dec_gain        => st_cfg_dec_gain,
      st_cfg_stage_threshold => st_cfg_stage_threshold,
      st_cfg_clamp_tgt       => st_cfg_clamp_tgt,
      st_cfg_rai             => st_cfg_rai,
      st_cfg_rhai            => st_cfg_rhai,
      st_cfg_rmin            => st_cfg_rmin,
      st_cfg_inc_interval    => st_cfg_inc_interval,
      st_cfg_dec_interval    => st_cfg_dec_interval,
      st_cfg_alpha_interval  => st_cfg_alpha_interval,
      st_cfg_bypass          => st_cfg_bypass,
      st_cfg_timer_en        => st_cfg_timer_en,
      st_cfg_byte_en         => st_cfg_byte_en,
      st_cfg_byte_threshold  => st_cfg_byte_threshold,
      st_cfg_credit_cap      => st_cfg_credit_cap,
      st_cnp_cnt16           => st_cnp_cnt16,
      st_cnt_cnp             => st_cnt_cnp,
      st_cnt_dec             => st_cnt_dec,
      st_cnt_inc_fr          => st_cnt_inc_fr,
      st_cnt_inc_ai          => st_cnt_inc_ai,
      st_cnt_inc_hai         => st_cnt_inc_hai,
      st_cnt_inc_timer       => st_cnt_inc_timer,
      st_cnt_inc_byte        => st_cnt_inc_byte,
      st_cnt_stall           => st_cnt_stall,
      st_cnt_bytes           => st_cnt_bytes,
      st_bytes_hi            => st_bytes_hi
    );

  p_replay : process
    file     vec : text;
    variable rd  : reader_t;

    -- the header: the magic line, the beat width, the field list
    procedure parse_header is
      variable v : natural;
    begin
      read_magic(vec, rd, "dcqcn-golden 1");
      next_header_record(vec, rd);
      expect(rd, "data_bytes", "record");
      parse_dec(rd, "data_bytes", MAX_COUNT, v);
      end_of_record(rd);
      if v /= DATA_BYTES then
        fail(rd, "beat-width mismatch: data_bytes " & integer'image(v) &
                 ", the testbench and DUT are built for DATA_BYTES " & integer'image(DATA_BYTES));
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
        when 1      => cnp            <= v(0);
        when 2      => s_axis_tdata   <= std_logic_vector(v(8 * W - 1 downto 0));
        when 3      => s_axis_tkeep   <= std_logic_vector(v(W - 1 downto 0));
        when 4      => s_axis_tvalid  <= v(0);
        when 5      => s_axis_tlast   <= v(0);
        when 6      => m_axis_tready  <= v(0);
        when 7      => s_axil_awaddr  <= std_logic_vector(v(11 downto 0));
        when 8      => s_axil_awvalid <= v(0);
        when 9      => s_axil_wdata   <= std_logic_vector(v(31 downto 0));
        when 10     => s_axil_wstrb   <= std_logic_vector(v(3 downto 0));
        when 11     => s_axil_wvalid  <= v(0);
        when 12     => s_axil_bready  <= v(0);
        when 13     => s_axil_araddr  <= std_logic_vector(v(11 downto 0));
        when 14     => s_axil_arvalid <= v(0);
        when 15     => s_axil_rready  <= v(0);
        when others => null;
      end case;
    end procedure drive;

    impure function actual(i : natural) return std_logic_vector is
    begin
      case i is
        when 16     => return (0 => s_axis_tready);
        when 17     => return (0 => m_axis_tvalid);
        when 18     => return m_axis_tdata;
        when 19     => return m_axis_tkeep;
        when 20     => return (0 => m_axis_tlast);
        when 21     => return (0 => s_axil_awready);
        when 22     => return (0 => s_axil_wready);
        when 23     => return (0 => s_axil_bvalid);
        when 24     => return s_axil_bresp;
        when 25     => return (0 => s_axil_arready);
        when 26     => return (0 => s_axil_rvalid);
        when 27     => return s_axil_rdata;
        when 28     => return s_axil_rresp;
        when 29     => return st_cnp_meta;
        when 30     => return (0 => st_cnp_sync);
        when 31     => return (0 => st_cnp_prev);
        when 32     => return st_rc;
        when 33     => return st_rt;
        when 34     => return (0 => st_active);
        when 35     => return st_alpha;
        when 36     => return st_alpha_timer;
        when 37     => return (0 => st_alpha_pending);
        when 38     => return st_dec_timer;
        when 39     => return (0 => st_dec_pending);
        when 40     => return st_inc_timer;
        when 41     => return st_byte_cnt;
        when 42     => return st_t_stage;
        when 43     => return st_b_stage;
        when 44     => return st_bpc;
        when 45     => return st_credit;
        when 46     => return st_cfg_alpha_g;
        when 47     => return st_cfg_dec_gain;
        when 48     => return st_cfg_stage_threshold;
        when 49     => return (0 => st_cfg_clamp_tgt);
        when 50     => return st_cfg_rai;
        when 51     => return st_cfg_rhai;
        when 52     => return st_cfg_rmin;
        when 53     => return st_cfg_inc_interval;
        when 54     => return st_cfg_dec_interval;
        when 55     => return st_cfg_alpha_interval;
        when 56     => return (0 => st_cfg_bypass);
        when 57     => return (0 => st_cfg_timer_en);
        when 58     => return (0 => st_cfg_byte_en);
        when 59     => return st_cfg_byte_threshold;
        when 60     => return st_cfg_credit_cap;
        when 61     => return st_cnp_cnt16;
        when 62     => return st_cnt_cnp;
        when 63     => return st_cnt_dec;
        when 64     => return st_cnt_inc_fr;
        when 65     => return st_cnt_inc_ai;
        when 66     => return st_cnt_inc_hai;
        when 67     => return st_cnt_inc_timer;
        when 68     => return st_cnt_inc_byte;
        when 69     => return st_cnt_stall;
        when 70     => return st_cnt_bytes;
        when 71     => return st_bytes_hi;
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
        for j in FIRST_OUT to FIRST_ST - 1 loop
          compare(j);
        end loop;
      end if;
      clk <= '1';
      wait for 5 ns;
      for j in FIRST_ST to NFIELDS - 1 loop
        compare(j);
      end loop;
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
