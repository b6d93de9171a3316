-- SPDX-License-Identifier: MIT
-- golden_reader_pkg: the golden-vector reader (docs/golden-format.md) shared by tb_golden.vhd and
-- tb_golden_mq.vhd: pass 1 on the raw bytes (CRC-32, end line), the tokenizer, the field list of
-- the header, t / c / r records and templates, and the verdict lines.

-- VHDL-2008, std.textio and ieee.numeric_std only (GHDL 2.0: --std=08, with or without SURF CI's
-- -fsynopsys -frelaxed-rules -fexplicit). A generic package: each testbench instantiates it with
-- its field count and widest field, before its entity:
--   package golden_reader is new work.golden_reader_pkg generic map (NFIELDS => .., MAXW => ..,
--                                                                   TB_NAME => "<entity>");
-- The reader's state is one variable of reader_t in the testbench's process (a record with access
-- values cannot be a package's shared variable); what stays in the testbench is the block's: the
-- DUT, the header line after the magic, the field list, the drive, the comparison and the cycle.
-- Every failure is printed on the output, then reported with severity failure (stop).

library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;

use std.textio.all;

package golden_reader_pkg is
  generic (
    NFIELDS : positive;  -- fields of the vectors
    MAXW    : positive;  -- bits of the widest field
    TB_NAME : string     -- the testbench, for an internal error
  );

  constant MAX_COUNT : natural  := 2147483647;  -- c / r count and total cycles: 1..2^31-1
  constant MAX_LINE  : positive := 2048;        -- characters per line, LF excluded
  constant MAX_SEQ   : positive := 32;          -- r: at most 32 templates in the repeated sequence

  /* The testbench's field list */
  subtype name_t is string(1 to 20);
  type name_arr_t is array (0 to NFIELDS - 1) of name_t;

  type field_list_t is record
    names     : name_arr_t;
    widths    : integer_vector(0 to NFIELDS - 1);
    first_out : natural;  -- fields 0 .. first_out - 1 are in
    first_st  : natural;  -- first_out .. first_st - 1 out, the rest st
  end record field_list_t;

  function pad(s : string) return name_t;
  function trim(s : name_t) return string;

  /* Reader state */
  subtype value_t is unsigned(MAXW - 1 downto 0);
  type value_arr_t is array (0 to NFIELDS - 1) of value_t;
  type template_t is record
    n     : natural;                             -- number of (index, delta) pairs
    idx   : integer_vector(0 to NFIELDS - 1);
    delta : value_arr_t;
  end record template_t;
  type template_arr_t is array (0 to 255) of template_t;

  type reader_t is record
    path       : line;      -- the vectors.txt being read
    L          : line;      -- the current line
    lineno     : natural;
    pos        : natural;   -- tokenizer: next character of L
    ts, te     : natural;   -- tokenizer: bounds of the last token
    values     : value_arr_t;
    slots      : template_arr_t;
    defined    : boolean_vector(0 to 255);
    cycle      : natural;   -- cycles replayed (pass 3) or counted (pass 2)
    end_line   : natural;   -- line number of `end`, from pass 1
    end_cycles : natural;
  end record reader_t;

  -- a run of cycles of a c or r record: count times the templates seq(1 to len)
  type run_t is record
    count : natural;        -- 0: no run left
    len   : natural;
    seq   : integer_vector(1 to MAX_SEQ);
  end record run_t;

  /* Reporting */
  procedure say(text : string);
  procedure stop(text : string);
  procedure fail(rd : inout reader_t; reason : string);
  function to_hex(v : std_logic_vector) return string;

  /* Tokenizer: tokens separated by exactly one space, none leading or trailing */
  procedure next_token(rd : inout reader_t; what : string);
  procedure end_of_record(rd : inout reader_t);
  procedure expect(rd : inout reader_t; word : string; what : string);
  procedure parse_dec(rd : inout reader_t; what : string; maxv : natural; v : out natural);

  /* Pass 1 */
  procedure check_file(rd : inout reader_t; path : string);

  /* Passes 2 and 3 */
  procedure open_records(file vec : text; rd : inout reader_t; replay : boolean);
  procedure read_magic(file vec : text; rd : inout reader_t; first_line : string);
  procedure next_header_record(file vec : text; rd : inout reader_t);
  procedure read_field_list(file vec : text; rd : inout reader_t; fields : field_list_t);
  procedure next_run(file vec : text; rd : inout reader_t; fields : field_list_t; replay : boolean;
                     run : out run_t);
  procedure close_records(file vec : text; rd : inout reader_t; replay : boolean);

end package golden_reader_pkg;

package body golden_reader_pkg is

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

  function dir_name(fields : field_list_t; i : natural) return string is
  begin
    if i < fields.first_out then
      return "in";
    elsif i < fields.first_st then
      return "out";
    else
      return "st";
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

  /* Reporting */

  procedure say(text : string) is
    variable msg : line;
  begin
    write(msg, text);
    writeline(output, msg);
  end procedure say;

  procedure stop(text : string) is
  begin
    say(text);
    report text severity failure;
    wait;  -- a simulator that goes on after a failure report still stops here
  end procedure stop;

  procedure fail(rd : inout reader_t; reason : string) is
  begin
    stop(rd.path.all & ":" & integer'image(rd.lineno) & ": " & reason);
  end procedure fail;

  /* Tokenizer (the last token is rd.L(rd.ts to rd.te)) */

  procedure next_token(rd : inout reader_t; what : string) is
  begin
    if rd.pos > rd.L'length then
      fail(rd, "missing " & what);
    end if;
    rd.ts := rd.pos;
    while rd.pos <= rd.L'length and rd.L(rd.pos) /= ' ' loop
      rd.pos := rd.pos + 1;
    end loop;
    rd.te := rd.pos - 1;
    if rd.te < rd.ts then
      fail(rd, "empty token before " & what & " (tokens are separated by one space)");
    end if;
    if rd.pos <= rd.L'length then
      rd.pos := rd.pos + 1;
      if rd.pos > rd.L'length then
        fail(rd, "trailing space");
      end if;
    end if;
  end procedure next_token;

  procedure end_of_record(rd : inout reader_t) is
  begin
    if rd.pos <= rd.L'length then
      fail(rd, "unexpected text at the end of the record: `" & rd.L(rd.pos to rd.L'length) & "`");
    end if;
  end procedure end_of_record;

  procedure expect(rd : inout reader_t; word : string; what : string) is
  begin
    next_token(rd, what);
    if rd.L(rd.ts to rd.te) /= word then
      fail(rd, "header differs: " & what & " is `" & rd.L(rd.ts to rd.te) & "`, expected `" & word &
               "`");
    end if;
  end procedure expect;

  -- decimal number 0..maxv (digits only)
  procedure parse_dec(rd : inout reader_t; what : string; maxv : natural; v : out natural) is
    variable acc : natural := 0;
    variable d   : natural;
  begin
    next_token(rd, what);
    for i in rd.ts to rd.te loop
      if rd.L(i) < '0' or rd.L(i) > '9' then
        fail(rd, "bad decimal number `" & rd.L(rd.ts to rd.te) & "` for " & what);
      end if;
      d := character'pos(rd.L(i)) - character'pos('0');
      if acc > (maxv - d) / 10 then
        fail(rd, what & " `" & rd.L(rd.ts to rd.te) & "` too large (maximum " &
                 integer'image(maxv) & ")");
      end if;
      acc := acc * 10 + d;
    end loop;
    v := acc;
  end procedure parse_dec;

  -- hex value of `width` bits: exactly ceil(width / 4) lowercase digits, bits above width 0
  -- (into v(4 * digits - 1 downto 0) if store)
  procedure parse_hex(rd : inout reader_t; what : string; width : positive; store : boolean;
                      v : inout value_t) is
    constant ND : positive := (width + 3) / 4;
  begin
    next_token(rd, what);
    for i in rd.ts to rd.te loop
      if hex_value(rd.L(i)) < 0 then
        fail(rd, "bad hex digit `" & rd.L(i) & "` in " & what);
      end if;
    end loop;
    if rd.te - rd.ts + 1 /= ND then
      fail(rd, "wrong digit count for " & what & ": " & integer'image(rd.te - rd.ts + 1) &
               " hex digits, width " & integer'image(width) & " needs " & integer'image(ND));
    end if;
    if store then
      for k in 0 to ND - 1 loop
        v(4 * k + 3 downto 4 * k) := NIBBLES(hex_value(rd.L(rd.te - k)));
      end loop;
    end if;
    if width mod 4 /= 0 and hex_value(rd.L(rd.ts)) >= 2 ** (width mod 4) then
      fail(rd, what & " `" & rd.L(rd.ts to rd.te) & "` has bits above its width " &
               integer'image(width));
    end if;
  end procedure parse_hex;

  procedure read_line(file vec : text; rd : inout reader_t) is
  begin
    readline(vec, rd.L);
    rd.lineno := rd.lineno + 1;
    rd.pos := 1;
    assert rd.L'low = 1 report TB_NAME & ": textio line not indexed from 1" severity failure;
  end procedure read_line;

  /* Pass 1: checksum and end line, on the file's bytes (textio's readline hides CR) */

  procedure check_file(rd : inout reader_t; path : string) is
    type char_file_t is file of character;  -- raw bytes (GHDL; most simulators)
    file     raw      : char_file_t;
    constant BUF_LEN  : positive := 80;           -- enough for any valid end line
    variable buf      : string(1 to BUF_LEN);     -- first characters of the current line
    variable len      : natural := 0;             -- characters of the current line so far
    variable ch       : character;
    variable c        : natural;
    variable crc      : crc_t := (others => 255);
    variable line_crc : crc_t := (others => 255);  -- the register before this line
    variable seen_end : boolean := false;
    variable cycles   : natural;
    variable file_crc : value_t;
    variable status   : file_open_status;
  begin
    deallocate(rd.path);
    rd.path := new string'(path);
    file_open(status, raw, path, read_mode);
    rd.lineno := 1;
    if status /= open_ok then
      rd.lineno := 0;
      fail(rd, "cannot open (" & file_open_status'image(status) & ")");
    end if;
    while not endfile(raw) loop
      read(raw, ch);
      c := character'pos(ch);
      if seen_end then
        fail(rd, "text after the end line " & integer'image(rd.end_line));
      end if;
      if c = 10 then
        if len >= 3 and buf(1 to 3) = "end" and (len = 3 or buf(4) = ' ') then
          -- end <cycles> <crc>
          seen_end := true;
          rd.end_line := rd.lineno;
          if len > BUF_LEN then
            fail(rd, "bad end line: longer than " & integer'image(BUF_LEN) & " characters");
          end if;
          deallocate(rd.L);
          rd.L := new string'(buf(1 to len));
          rd.pos := 1;
          next_token(rd, "record");
          parse_dec(rd, "end cycle count", MAX_COUNT, cycles);
          rd.end_cycles := cycles;
          parse_hex(rd, "end checksum", 32, true, file_crc);
          end_of_record(rd);
          if file_crc(31 downto 0) /= crc_value(line_crc) then
            fail(rd, "checksum mismatch: the end line says " &
                     to_hex(std_logic_vector(file_crc(31 downto 0))) & ", the " &
                     integer'image(rd.lineno - 1) & " lines before it have CRC-32 " &
                     to_hex(std_logic_vector(crc_value(line_crc))));
          end if;
        end if;
        crc_update(crc, c);
        line_crc := crc;
        rd.lineno := rd.lineno + 1;
        len := 0;
      else
        if c = 13 then
          fail(rd, "carriage return (lines end with LF only)");
        elsif c < 32 or c > 126 then
          fail(rd, "character " & integer'image(c) & " is not printable ASCII");
        end if;
        crc_update(crc, c);
        len := len + 1;
        if len > MAX_LINE then
          fail(rd, "line longer than " & integer'image(MAX_LINE) & " characters");
        end if;
        if len <= BUF_LEN then
          buf(len) := ch;
        end if;
      end if;
    end loop;
    file_close(raw);
    if len > 0 then
      fail(rd, "last line not ended by LF (truncated file?)");
    elsif not seen_end then
      fail(rd, "missing end line (truncated file?)");
    end if;
  end procedure check_file;

  /* Passes 2 and 3: records */

  -- opens the file at line 1; no template defined, no cycle counted, every field 0 (replay)
  procedure open_records(file vec : text; rd : inout reader_t; replay : boolean) is
    variable status : file_open_status;
  begin
    file_open(status, vec, rd.path.all, read_mode);
    rd.lineno := 0;
    if status /= open_ok then
      fail(rd, "cannot open (" & file_open_status'image(status) & ")");
    end if;
    rd.defined := (others => false);
    rd.cycle := 0;
    if replay then
      for i in rd.values'range loop
        rd.values(i) := (others => '0');
      end loop;
    end if;
  end procedure open_records;

  -- line 1: magic and version; comments are allowed anywhere after it
  procedure read_magic(file vec : text; rd : inout reader_t; first_line : string) is
  begin
    read_line(vec, rd);
    if rd.L.all /= first_line then
      fail(rd, "header differs (magic or format version): line 1 is `" & rd.L.all &
               "`, this testbench reads `" & first_line & "`");
    end if;
  end procedure read_magic;

  -- the next line of the header that is not a comment
  procedure next_header_record(file vec : text; rd : inout reader_t) is
  begin
    loop
      read_line(vec, rd);
      exit when rd.L'length = 0 or rd.L(1) /= '#';
    end loop;
  end procedure next_header_record;

  -- `fields <n>` and the field lines, against the testbench's list
  procedure read_field_list(file vec : text; rd : inout reader_t; fields : field_list_t) is
    variable v : natural;
  begin
    next_header_record(vec, rd);
    expect(rd, "fields", "record");
    parse_dec(rd, "field count", MAX_COUNT, v);
    end_of_record(rd);
    if v /= NFIELDS then
      fail(rd, "header differs: fields " & integer'image(v) & ", this testbench has " &
               integer'image(NFIELDS));
    end if;
    for i in 0 to NFIELDS - 1 loop
      next_header_record(vec, rd);
      next_token(rd, "record");
      if rd.L(rd.ts to rd.te) /= "f" or
         rd.L.all /= "f " & integer'image(i) & " " & dir_name(fields, i) & " " &
                     integer'image(fields.widths(i)) & " " & trim(fields.names(i)) then
        fail(rd, "header differs: `" & rd.L.all & "`, expected `f " & integer'image(i) & " " &
                 dir_name(fields, i) & " " & integer'image(fields.widths(i)) & " " &
                 trim(fields.names(i)) & "`");
      end if;
    end loop;
  end procedure read_field_list;

  -- t <slot> <n> <i1> <d1> ... ; the template goes to rd.slots only when replaying
  procedure parse_template(rd : inout reader_t; fields : field_list_t; replay : boolean) is
    variable slot, n, idx : natural;
    variable prev         : integer := -1;
    variable d            : value_t;
  begin
    parse_dec(rd, "slot", MAX_COUNT, slot);
    if slot > 255 then
      fail(rd, "slot " & integer'image(slot) & " out of range 0..255");
    end if;
    parse_dec(rd, "pair count", MAX_COUNT, n);
    if n > NFIELDS then
      fail(rd, "pair count " & integer'image(n) & " above the field count " &
               integer'image(NFIELDS));
    end if;
    for k in 0 to n - 1 loop
      parse_dec(rd, "field index", MAX_COUNT, idx);
      if idx >= NFIELDS then
        fail(rd, "field index " & integer'image(idx) & " out of range 0.." &
                 integer'image(NFIELDS - 1));
      end if;
      if idx <= prev then
        fail(rd, "field index " & integer'image(idx) & " not increasing (after " &
                 integer'image(prev) & ")");
      end if;
      prev := idx;
      parse_hex(rd, "delta of field " & trim(fields.names(idx)), fields.widths(idx), replay, d);
      if replay then
        rd.slots(slot).idx(k) := idx;
        rd.slots(slot).delta(k) := d;
      end if;
    end loop;
    end_of_record(rd);
    rd.slots(slot).n := n;
    rd.defined(slot) := true;
  end procedure parse_template;

  -- a slot number of a c or r record, which must hold a template
  procedure parse_slot(rd : inout reader_t; slot : out natural) is
    variable v : natural;
  begin
    parse_dec(rd, "slot", MAX_COUNT, v);
    if v > 255 then
      fail(rd, "slot " & integer'image(v) & " out of range 0..255");
    end if;
    if not rd.defined(v) then
      fail(rd, "slot " & integer'image(v) & " undefined");
    end if;
    slot := v;
  end procedure parse_slot;

  procedure parse_count(rd : inout reader_t; count : out natural) is
    variable v : natural;
  begin
    parse_dec(rd, "cycle count", MAX_COUNT, v);
    if v = 0 then
      fail(rd, "cycle count 0 out of range 1.." & integer'image(MAX_COUNT));
    end if;
    count := v;
  end procedure parse_count;

  -- pass 2: the running total of cycles
  procedure add_cycles(rd : inout reader_t; n : natural) is
  begin
    if rd.cycle > MAX_COUNT - n then
      fail(rd, "more than " & integer'image(MAX_COUNT) & " cycles");
    end if;
    rd.cycle := rd.cycle + n;
  end procedure add_cycles;

  -- The records up to the end line. Pass 2 (replay false) checks them all and counts their cycles
  -- (run.count 0); pass 3 (replay true) stops after each c or r record with its run, which the
  -- testbench replays, and returns run.count 0 at the end line.
  procedure next_run(file vec : text; rd : inout reader_t; fields : field_list_t; replay : boolean;
                     run : out run_t) is
    variable slot, count, k : natural;
    variable seq : integer_vector(1 to MAX_SEQ);
  begin
    run.count := 0;
    run.len := 0;
    while rd.lineno < rd.end_line - 1 loop
      read_line(vec, rd);
      if rd.L'length > 0 and rd.L(1) = '#' then
        next;
      end if;
      if rd.L'length = 0 then
        fail(rd, "unknown record (empty line)");
      end if;
      next_token(rd, "record");
      if rd.L(rd.ts to rd.te) = "t" then
        parse_template(rd, fields, replay);
      elsif rd.L(rd.ts to rd.te) = "c" then
        -- c <slot> <count>
        parse_slot(rd, slot);
        parse_count(rd, count);
        end_of_record(rd);
        if replay then
          run.count := count;
          run.len := 1;
          run.seq(1) := slot;
          return;
        end if;
        add_cycles(rd, count);
      elsif rd.L(rd.ts to rd.te) = "r" then
        -- r <count> <k> <slot 1> ... <slot k>
        parse_count(rd, count);
        parse_dec(rd, "sequence length", MAX_COUNT, k);
        if k = 0 or k > MAX_SEQ then
          fail(rd, "sequence length " & integer'image(k) & " out of range 1.." &
                   integer'image(MAX_SEQ));
        end if;
        for j in 1 to k loop
          parse_slot(rd, seq(j));
        end loop;
        end_of_record(rd);
        if replay then
          run.count := count;
          run.len := k;
          run.seq := seq;
          return;
        end if;
        if count > MAX_COUNT / k then
          fail(rd, "more than " & integer'image(MAX_COUNT) & " cycles");
        end if;
        add_cycles(rd, count * k);
      else
        fail(rd, "unknown record `" & rd.L(rd.ts to rd.te) & "`");
      end if;
    end loop;
  end procedure next_run;

  -- closes the file; pass 2: the end line's cycle count against the records'
  procedure close_records(file vec : text; rd : inout reader_t; replay : boolean) is
  begin
    file_close(vec);
    if not replay and rd.cycle /= rd.end_cycles then
      rd.lineno := rd.end_line;
      fail(rd, "bad end line: " & integer'image(rd.end_cycles) & " cycles, the records hold " &
               integer'image(rd.cycle));
    end if;
  end procedure close_records;

end package body golden_reader_pkg;
