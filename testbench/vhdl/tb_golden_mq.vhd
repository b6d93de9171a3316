-- SPDX-License-Identifier: MIT
-- tb_golden_mq: replays one golden vector set of the multi-QP block (docs/golden-format.md, "The
-- multi-QP block") on the top level dcqcn_mq (the VHDL twin rtl/vhdl/mq/), cycle by cycle.

-- VHDL-2008, std.textio and ieee.numeric_std only. The reader is tb_golden.vhd's, record for
-- record; what differs is the header (`dcqcn-golden-mq 1`, `qps <n>`), the field list (the ports of
-- spec-mq 3: 19 inputs, 11 outputs, no register fields) and the DUT, the entity dcqcn_mq of work
-- with the generics QPS, CLK_FREQ_HZ and LINE_RATE (the last two as 8 hex digits, so that values
-- above 2^31-1 pass through GHDL's -g option; run.sh takes them from the set's manifest).
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

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use std.textio.all;

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
  constant NFIELDS   : positive := 30;
  constant FIRST_OUT : natural  := 19;   -- fields 0-18 are in, 19-29 out
  constant MAXW      : positive := 32;   -- widest field: s_axil_wdata / s_axil_rdata

  subtype name_t is string(1 to 20);
  type name_arr_t is array (0 to NFIELDS - 1) of name_t;

  function pad(s : string) return name_t is
    variable r : name_t := (others => ' ');
  begin
    r(1 to s'length) := s;
    return r;
  end function pad;

  function trim(s : name_t) return string is
  begin
    for i in s'range loop
      if s(i) = ' ' then
        return s(1 to i - 1);
      end if;
    end loop;
    return s;
  end function trim;

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

  function dir_name(i : natural) return string is
  begin
    if i < FIRST_OUT then
      return "in";
    else
      return "out";
    end if;
  end function dir_name;

  /* CRC-32 (IEEE 802.3, reflected, as zlib), on integer bytes: numeric_std per byte is slow */
  type crc_table_t is array (0 to 3) of integer_vector(0 to 255);  -- (k)(n): byte k of entry n

  function make_crc_table return crc_table_t is
    variable t : crc_table_t;
    variable c : unsigned(31 downto 0);
  begin
    for n in 0 to 255 loop
      c := to_unsigned(n, 32);
      for k in 0 to 7 loop
        if c(0) = '1' then
          c := shift_right(c, 1) xor x"EDB88320";
        else
          c := shift_right(c, 1);
        end if;
      end loop;
      for k in 0 to 3 loop
        t(k)(n) := to_integer(c(8 * k + 7 downto 8 * k));
      end loop;
    end loop;
    return t;
  end function make_crc_table;

  -- XOR8(256 * a + b) = a xor b for bytes a, b
  function make_xor8 return integer_vector is
    variable t : integer_vector(0 to 65535);
  begin
    for a in 0 to 255 loop
      for b in 0 to 255 loop
        t(256 * a + b) := to_integer(to_unsigned(a, 8) xor to_unsigned(b, 8));
      end loop;
    end loop;
    return t;
  end function make_xor8;

  constant CRC_TABLE : crc_table_t := make_crc_table;
  constant XOR8      : integer_vector(0 to 65535) := make_xor8;

  type crc_t is array (0 to 3) of natural range 0 to 255;  -- bytes, least significant first

  -- the CRC register after one more byte
  procedure crc_update(crc : inout crc_t; byte : natural) is
    variable n : natural range 0 to 255;
  begin
    n := XOR8(256 * crc(0) + byte);
    crc(0) := XOR8(256 * crc(1) + CRC_TABLE(0)(n));
    crc(1) := XOR8(256 * crc(2) + CRC_TABLE(1)(n));
    crc(2) := XOR8(256 * crc(3) + CRC_TABLE(2)(n));
    crc(3) := CRC_TABLE(3)(n);
  end procedure crc_update;

  -- the CRC value of a register (final XOR with ffffffff)
  function crc_value(crc : crc_t) return unsigned is
    variable v : unsigned(31 downto 0);
  begin
    for k in 0 to 3 loop
      v(8 * k + 7 downto 8 * k) := to_unsigned(255 - crc(k), 8);
    end loop;
    return v;
  end function crc_value;

  /* Hex text */
  constant HEX_DIGITS : string(1 to 16) := "0123456789abcdef";
  constant META_CHARS : string(1 to 9)  := "UX01ZWLH-";  -- std_ulogic'pos order

  -- lowercase hexadecimal of v, ceil(length / 4) digits; a nibble with a bit other than 0/1 is
  -- shown as that bit's std_ulogic character (U, X, Z, ...)
  function to_hex(v : std_logic_vector) return string is
    constant ND  : natural := (v'length + 3) / 4;
    variable x   : std_logic_vector(4 * ND - 1 downto 0) := (others => '0');
    variable r   : string(1 to ND);
    variable nib : std_logic_vector(3 downto 0);
  begin
    x(v'length - 1 downto 0) := v;
    for k in 0 to ND - 1 loop
      nib := x(4 * k + 3 downto 4 * k);
      r(ND - k) := HEX_DIGITS(to_integer(unsigned(to_01(nib))) + 1);
      for b in 3 downto 0 loop
        if nib(b) /= '0' and nib(b) /= '1' then
          r(ND - k) := META_CHARS(std_ulogic'pos(nib(b)) + 1);
          exit;
        end if;
      end loop;
    end loop;
    return r;
  end function to_hex;

  type nibble_arr_t is array (0 to 15) of unsigned(3 downto 0);

  function make_nibbles return nibble_arr_t is
    variable t : nibble_arr_t;
  begin
    for h in 0 to 15 loop
      t(h) := to_unsigned(h, 4);
    end loop;
    return t;
  end function make_nibbles;

  constant NIBBLES : nibble_arr_t := make_nibbles;

  function hex_value(c : character) return integer is
  begin
    case c is
      when '0' to '9' => return character'pos(c) - character'pos('0');
      when 'a' to 'f' => return character'pos(c) - character'pos('a') + 10;
      when others     => return -1;
    end case;
  end function hex_value;

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
    constant MAX_COUNT : natural := 2147483647;  -- c / r count and total cycles: 1..2^31-1
    constant MAX_LINE  : positive := 2048;       -- characters per line, LF excluded

    subtype value_t is unsigned(MAXW - 1 downto 0);
    type value_arr_t is array (0 to NFIELDS - 1) of value_t;
    type template_t is record
      n     : natural;                             -- number of (index, delta) pairs
      idx   : integer_vector(0 to NFIELDS - 1);
      delta : value_arr_t;
    end record template_t;
    type template_arr_t is array (0 to 255) of template_t;

    type char_file_t is file of character;  -- raw bytes (GHDL; most simulators)

    file     vec      : text;
    file     raw      : char_file_t;
    variable L        : line;
    variable msg      : line;
    variable lineno   : natural;
    variable pos      : natural;   -- tokenizer: next character of L
    variable ts, te   : natural;   -- tokenizer: bounds of the last token

    variable values   : value_arr_t;
    variable slots    : template_arr_t;
    variable defined  : boolean_vector(0 to 255);
    variable cycle    : natural;   -- cycles replayed (pass 3) or counted (pass 2)

    variable end_line   : natural;   -- line number of `end`, from pass 1
    variable end_cycles : natural;

    /* Reporting */

    procedure stop(text : string) is
    begin
      write(msg, text);
      writeline(output, msg);
      report text severity failure;
      wait;  -- a simulator that goes on after a failure report still stops here
    end procedure stop;

    procedure fail(reason : string) is
    begin
      stop(VECTORS & ":" & integer'image(lineno) & ": " & reason);
    end procedure fail;

    /* Tokenizer: tokens separated by exactly one space, none leading or trailing */

    impure function tok return string is
    begin
      return L(ts to te);
    end function tok;

    procedure next_token(what : string) is
    begin
      if pos > L'length then
        fail("missing " & what);
      end if;
      ts := pos;
      while pos <= L'length and L(pos) /= ' ' loop
        pos := pos + 1;
      end loop;
      te := pos - 1;
      if te < ts then
        fail("empty token before " & what & " (tokens are separated by one space)");
      end if;
      if pos <= L'length then
        pos := pos + 1;
        if pos > L'length then
          fail("trailing space");
        end if;
      end if;
    end procedure next_token;

    procedure end_of_record is
    begin
      if pos <= L'length then
        fail("unexpected text at the end of the record: `" & L(pos to L'length) & "`");
      end if;
    end procedure end_of_record;

    procedure expect(word : string; what : string) is
    begin
      next_token(what);
      if tok /= word then
        fail("header differs: " & what & " is `" & tok & "`, expected `" & word & "`");
      end if;
    end procedure expect;

    -- decimal number 0..maxv (digits only)
    procedure parse_dec(what : string; maxv : natural; v : out natural) is
      variable acc : natural := 0;
      variable d   : natural;
    begin
      next_token(what);
      for i in ts to te loop
        if L(i) < '0' or L(i) > '9' then
          fail("bad decimal number `" & tok & "` for " & what);
        end if;
        d := character'pos(L(i)) - character'pos('0');
        if acc > (maxv - d) / 10 then
          fail(what & " `" & tok & "` too large (maximum " & integer'image(maxv) & ")");
        end if;
        acc := acc * 10 + d;
      end loop;
      v := acc;
    end procedure parse_dec;

    -- hex value of `width` bits: exactly ceil(width / 4) lowercase digits, bits above width 0
    -- (into v(4 * digits - 1 downto 0) if store)
    procedure parse_hex(what : string; width : positive; store : boolean; v : inout value_t) is
      constant ND : positive := (width + 3) / 4;
    begin
      next_token(what);
      for i in ts to te loop
        if hex_value(L(i)) < 0 then
          fail("bad hex digit `" & L(i) & "` in " & what);
        end if;
      end loop;
      if te - ts + 1 /= ND then
        fail("wrong digit count for " & what & ": " & integer'image(te - ts + 1) &
             " hex digits, width " & integer'image(width) & " needs " & integer'image(ND));
      end if;
      if store then
        for k in 0 to ND - 1 loop
          v(4 * k + 3 downto 4 * k) := NIBBLES(hex_value(L(te - k)));
        end loop;
      end if;
      if width mod 4 /= 0 and hex_value(L(ts)) >= 2 ** (width mod 4) then
        fail(what & " `" & tok & "` has bits above its width " & integer'image(width));
      end if;
    end procedure parse_hex;

    procedure read_line is
    begin
      readline(vec, L);
      lineno := lineno + 1;
      pos := 1;
      assert L'low = 1 report "tb_golden_mq: textio line not indexed from 1" severity failure;
    end procedure read_line;

    procedure open_vectors is
      variable status : file_open_status;
    begin
      file_open(status, vec, VECTORS, read_mode);
      lineno := 0;
      if status /= open_ok then
        fail("cannot open (" & file_open_status'image(status) & ")");
      end if;
    end procedure open_vectors;

    /* Pass 1: checksum and end line, on the file's bytes (textio's readline hides CR) */

    procedure check_checksum is
      constant BUF_LEN  : positive := 80;           -- enough for any valid end line
      variable buf      : string(1 to BUF_LEN);     -- first characters of the current line
      variable len      : natural := 0;             -- characters of the current line so far
      variable ch       : character;
      variable c        : natural;
      variable crc      : crc_t := (others => 255);
      variable line_crc : crc_t := (others => 255);  -- the register before this line
      variable seen_end : boolean := false;
      variable file_crc : value_t;
      variable status   : file_open_status;
    begin
      file_open(status, raw, VECTORS, read_mode);
      lineno := 1;
      if status /= open_ok then
        lineno := 0;
        fail("cannot open (" & file_open_status'image(status) & ")");
      end if;
      while not endfile(raw) loop
        read(raw, ch);
        c := character'pos(ch);
        if seen_end then
          fail("text after the end line " & integer'image(end_line));
        end if;
        if c = 10 then
          if len >= 3 and buf(1 to 3) = "end" and (len = 3 or buf(4) = ' ') then
            -- end <cycles> <crc>
            seen_end := true;
            end_line := lineno;
            if len > BUF_LEN then
              fail("bad end line: longer than " & integer'image(BUF_LEN) & " characters");
            end if;
            deallocate(L);
            L := new string'(buf(1 to len));
            pos := 1;
            next_token("record");
            parse_dec("end cycle count", MAX_COUNT, end_cycles);
            parse_hex("end checksum", 32, true, file_crc);
            end_of_record;
            if file_crc(31 downto 0) /= crc_value(line_crc) then
              fail("checksum mismatch: the end line says " &
                   to_hex(std_logic_vector(file_crc(31 downto 0))) & ", the " &
                   integer'image(lineno - 1) & " lines before it have CRC-32 " &
                   to_hex(std_logic_vector(crc_value(line_crc))));
            end if;
          end if;
          crc_update(crc, c);
          line_crc := crc;
          lineno := lineno + 1;
          len := 0;
        else
          if c = 13 then
            fail("carriage return (lines end with LF only)");
          elsif c < 32 or c > 126 then
            fail("character " & integer'image(c) & " is not printable ASCII");
          end if;
          crc_update(crc, c);
          len := len + 1;
          if len > MAX_LINE then
            fail("line longer than " & integer'image(MAX_LINE) & " characters");
          end if;
          if len <= BUF_LEN then
            buf(len) := ch;
          end if;
        end if;
      end loop;
      file_close(raw);
      if len > 0 then
        fail("last line not ended by LF (truncated file?)");
      elsif not seen_end then
        fail("missing end line (truncated file?)");
      end if;
    end procedure check_checksum;

    /* Passes 2 and 3: records */

    procedure parse_header is
      variable v : natural;
    begin
      -- line 1: magic and version; comments are allowed anywhere after it
      read_line;
      if L.all /= "dcqcn-golden-mq 1" then
        fail("header differs (magic or format version): line 1 is `" & L.all &
             "`, this testbench reads `dcqcn-golden-mq 1`");
      end if;
      for h in 0 to NFIELDS + 1 loop
        loop
          read_line;
          exit when L'length = 0 or L(1) /= '#';
        end loop;
        if h = 0 then
          expect("qps", "record");
          parse_dec("qps", MAX_COUNT, v);
          end_of_record;
          if v /= QPS then
            fail("qps mismatch: qps " & integer'image(v) &
                 ", the DUT is elaborated with QPS " & integer'image(QPS));
          end if;
        elsif h = 1 then
          expect("fields", "record");
          parse_dec("field count", MAX_COUNT, v);
          end_of_record;
          if v /= NFIELDS then
            fail("header differs: fields " & integer'image(v) & ", this testbench has " &
                 integer'image(NFIELDS));
          end if;
        else
          next_token("record");
          if tok /= "f" or L.all /= "f " & integer'image(h - 2) & " " & dir_name(h - 2) & " " &
                                   integer'image(WIDTHS(h - 2)) & " " & trim(NAMES(h - 2)) then
            fail("header differs: `" & L.all & "`, expected `f " & integer'image(h - 2) & " " &
                 dir_name(h - 2) & " " & integer'image(WIDTHS(h - 2)) & " " & trim(NAMES(h - 2)) & "`");
          end if;
        end if;
      end loop;
    end procedure parse_header;

    -- t <slot> <n> <i1> <d1> ... ; the template goes to `slots` only when replaying
    procedure parse_template(replay : boolean) is
      variable slot, n, idx : natural;
      variable prev         : integer := -1;
      variable d            : value_t;
    begin
      parse_dec("slot", MAX_COUNT, slot);
      if slot > 255 then
        fail("slot " & integer'image(slot) & " out of range 0..255");
      end if;
      parse_dec("pair count", MAX_COUNT, n);
      if n > NFIELDS then
        fail("pair count " & integer'image(n) & " above the field count " & integer'image(NFIELDS));
      end if;
      for k in 0 to n - 1 loop
        parse_dec("field index", MAX_COUNT, idx);
        if idx >= NFIELDS then
          fail("field index " & integer'image(idx) & " out of range 0.." & integer'image(NFIELDS - 1));
        end if;
        if idx <= prev then
          fail("field index " & integer'image(idx) & " not increasing (after " & integer'image(prev) & ")");
        end if;
        prev := idx;
        if replay then
          slots(slot).idx(k) := idx;
          parse_hex("delta of field " & trim(NAMES(idx)), WIDTHS(idx), true, slots(slot).delta(k));
        else
          parse_hex("delta of field " & trim(NAMES(idx)), WIDTHS(idx), false, d);
        end if;
      end loop;
      end_of_record;
      slots(slot).n := n;
      defined(slot) := true;
    end procedure parse_template;

    /* DUT access */

    procedure drive(i : natural) is
      variable v : value_t;
    begin
      v := values(i);
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
      exp := std_logic_vector(values(i)(WI - 1 downto 0));
      act := actual(i);
      if act /= exp then  -- element-wise: U, X, Z, ... differ from 0 and 1
        stop("MISMATCH " & SET_NAME & " cycle " & integer'image(cycle) & " field " & trim(NAMES(i)) &
             ": expected " & to_hex(exp) & " got " & to_hex(act));
      end if;
    end procedure compare;

    -- one cycle (docs/golden-format.md, cycle protocol); clk is low on entry and on return
    procedure run_cycle(slot : natural) is
      variable i : natural;
    begin
      for k in 0 to slots(slot).n - 1 loop
        i := slots(slot).idx(k);
        values(i)(WIDTHS(i) - 1 downto 0) :=
          values(i)(WIDTHS(i) - 1 downto 0) + slots(slot).delta(k)(WIDTHS(i) - 1 downto 0);
        if i < FIRST_OUT then
          drive(i);
        end if;
      end loop;
      wait for 4 ns;                   -- inputs settle (zero-delay DUT: delta cycles)
      if cycle > 0 then                -- no registered output is defined before the first edge
        for j in FIRST_OUT to NFIELDS - 1 loop
          compare(j);
        end loop;
      end if;
      clk <= '1';
      wait for 5 ns;
      clk <= '0';
      wait for 1 ns;
      cycle := cycle + 1;
    end procedure run_cycle;

    -- a slot number of a c or r record, which must hold a template
    procedure parse_slot(slot : out natural) is
      variable v : natural;
    begin
      parse_dec("slot", MAX_COUNT, v);
      if v > 255 then
        fail("slot " & integer'image(v) & " out of range 0..255");
      end if;
      if not defined(v) then
        fail("slot " & integer'image(v) & " undefined");
      end if;
      slot := v;
    end procedure parse_slot;

    procedure parse_count(count : out natural) is
      variable v : natural;
    begin
      parse_dec("cycle count", MAX_COUNT, v);
      if v = 0 then
        fail("cycle count 0 out of range 1.." & integer'image(MAX_COUNT));
      end if;
      count := v;
    end procedure parse_count;

    -- pass 2: the running total of cycles
    procedure add_cycles(n : natural) is
    begin
      if cycle > MAX_COUNT - n then
        fail("more than " & integer'image(MAX_COUNT) & " cycles");
      end if;
      cycle := cycle + n;
    end procedure add_cycles;

    -- pass 2 (replay false): checks every record; pass 3 (replay true): replays
    procedure records(replay : boolean) is
      constant MAX_SEQ : positive := 32;  -- r: at most 32 templates in the repeated sequence
      variable slot, count, k : natural;
      variable seq : integer_vector(1 to MAX_SEQ);
    begin
      open_vectors;
      parse_header;
      defined := (others => false);
      cycle := 0;
      if replay then
        for i in values'range loop
          values(i) := (others => '0');
        end loop;
      end if;
      while lineno < end_line - 1 loop
        read_line;
        if L'length > 0 and L(1) = '#' then
          next;
        end if;
        if L'length = 0 then
          fail("unknown record (empty line)");
        end if;
        next_token("record");
        if tok = "t" then
          parse_template(replay);
        elsif tok = "c" then
          -- c <slot> <count>
          parse_slot(slot);
          parse_count(count);
          end_of_record;
          if replay then
            for n in 1 to count loop
              run_cycle(slot);
            end loop;
          else
            add_cycles(count);
          end if;
        elsif tok = "r" then
          -- r <count> <k> <slot 1> ... <slot k>
          parse_count(count);
          parse_dec("sequence length", MAX_COUNT, k);
          if k = 0 or k > MAX_SEQ then
            fail("sequence length " & integer'image(k) & " out of range 1.." & integer'image(MAX_SEQ));
          end if;
          for j in 1 to k loop
            parse_slot(seq(j));
          end loop;
          end_of_record;
          if replay then
            for n in 1 to count loop
              for j in 1 to k loop
                run_cycle(seq(j));
              end loop;
            end loop;
          else
            if count > MAX_COUNT / k then
              fail("more than " & integer'image(MAX_COUNT) & " cycles");
            end if;
            add_cycles(count * k);
          end if;
        else
          fail("unknown record `" & tok & "`");
        end if;
      end loop;
      file_close(vec);
      if not replay and cycle /= end_cycles then
        lineno := end_line;
        fail("bad end line: " & integer'image(end_cycles) & " cycles, the records hold " &
             integer'image(cycle));
      end if;
    end procedure records;

  begin
    check_checksum;
    records(replay => false);
    write(msg, "START " & SET_NAME);
    writeline(output, msg);
    records(replay => true);
    write(msg, "PASS " & SET_NAME & " " & integer'image(cycle) & " cycles");
    writeline(output, msg);
    wait;
  end process p_replay;

end architecture sim;
