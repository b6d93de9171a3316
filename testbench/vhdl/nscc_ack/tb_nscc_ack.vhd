-- SPDX-License-Identifier: MIT
-- tb_nscc_ack: replays the NSCC ACK-process vectors of `dcqcn nscc-vectors` (format: the file's
-- header) on the VHDL twin's nscc_mq_ack_exec (rtl/vhdl/nscc/) and compares every output field:
-- the written record, the outcome, the package's win_ok of the written record and its init record
-- (docs/spec-nscc.md 4.2, 5, 6, 7).
--
-- VHDL-2008, std.textio and ieee.numeric_std only. Generics: VECTORS (the file), LINE_WIN (must
-- equal the file's `line_win`). A bad line stops with `<file>:<line>: <reason>`, a difference with
-- `MISMATCH vector <index> (<file>:<line>) field <name>: expected <hex> got <hex>`, each reported
-- with severity failure (non-zero exit); a clean replay prints `PASS <n> vectors`.

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library std;
  use std.textio.all;

library work;
  use work.nscc_mq_pkg.all;

entity tb_nscc_ack is
  generic (
    VECTORS  : string  := "nscc-ack-vectors.txt";
    LINE_WIN : natural := 8192
  );
end entity tb_nscc_ack;

architecture sim of tb_nscc_ack is

  constant N_IN_C  : natural := 46;
  constant N_ALL_C : natural := 92;

  subtype value_t is unsigned(63 downto 0);

  type ValuesType is array (0 to N_ALL_C - 1) of value_t;

  type WidthsType is array (0 to N_ALL_C - 1) of positive;

  subtype name_t is string(1 to 17);

  type NamesType is array (0 to N_ALL_C - 1) of name_t;

  -- the fields of a line, in order (the file's header): the input flow record, the other inputs,
  -- the written record, the outcome and win_ok, the init record. The three records' fields come
  -- from one table (FLOW_*), prefixed in_, out_ and init_.
  constant FLOW_N_C : natural := 18;

  type FlowWidthsType is array (0 to FLOW_N_C - 1) of positive;

  type FlowNamesType is array (0 to FLOW_N_C - 1) of string(1 to 12);

  constant FLOW_WIDTHS_C : FlowWidthsType := (
    32,
    32,
    32,
    24,
    24,
    32,
    32,
    32,
    32,
    40,
    32,
    32,
    1,
    1,
    1,
    32,
    32,
    32
  );
  constant FLOW_NAMES_C  : FlowNamesType  := (
    "cwnd        ",
    "abytes      ",
    "saved       ",
    "base_rtt    ",
    "max_wnd     ",
    "avg         ",
    "achieved    ",
    "received    ",
    "fi_count    ",
    "inc         ",
    "to_ignore   ",
    "ignored     ",
    "increase    ",
    "trigger_qa  ",
    "qa_armed    ",
    "t_adj       ",
    "t_dec       ",
    "t_qa        "
  );

  -- the first field of each flow record on a line
  constant FLOW_IN_C   : natural := 0;
  constant FLOW_OUT_C  : natural := N_IN_C;
  constant FLOW_INIT_C : natural := N_ALL_C - FLOW_N_C;

  type InWidthsType is array (FLOW_N_C to N_IN_C - 1) of positive;

  type InNamesType is array (FLOW_N_C to N_IN_C - 1) of name_t;

  type OutWidthsType is array (FLOW_OUT_C + FLOW_N_C to FLOW_INIT_C - 1) of positive;

  type OutNamesType is array (FLOW_OUT_C + FLOW_N_C to FLOW_INIT_C - 1) of name_t;

  constant IN_WIDTHS_C  : InWidthsType  := (
    32,
    1,
    32,
    1,
    2,
    24,
    1,
    1,
    24,
    7,
    1,
    24,
    24,
    16,
    24,
    24,
    20,
    32,
    24,
    24,
    24,
    24,
    9,
    4,
    4,
    1,
    16,
    24
  );
  constant IN_NAMES_C   : InNamesType   := (
    "gbytes           ",
    "old              ",
    "now              ",
    "cc_en            ",
    "ev_kind          ",
    "ev_bytes         ",
    "ev_ecn           ",
    "ev_rtt_valid     ",
    "ev_rtt           ",
    "ev_pend          ",
    "ev_rc            ",
    "cfg_base_rtt     ",
    "cfg_target       ",
    "cfg_mtu          ",
    "cfg_max_wnd      ",
    "cfg_init_cwnd    ",
    "cfg_fi           ",
    "cfg_alpha        ",
    "cfg_fi_scale     ",
    "cfg_eta          ",
    "cfg_adjust_period",
    "cfg_adjust_bytes ",
    "cfg_gamma        ",
    "cfg_ewma_shift   ",
    "cfg_qa_gate      ",
    "cfg_qa_en        ",
    "cfg_fi_delay     ",
    "cfg_qa_delay     "
  );
  constant OUT_WIDTHS_C : OutWidthsType := (
    1,
    1,
    1,
    1,
    1,
    3,
    1,
    1,
    1,
    1
  );
  constant OUT_NAMES_C  : OutNamesType  := (
    "oc_penalty       ",
    "oc_restored      ",
    "oc_rtt_valid     ",
    "oc_qa_fired      ",
    "oc_qa_ignored    ",
    "oc_rcase         ",
    "oc_md_applied    ",
    "oc_adjusted      ",
    "oc_eta_added     ",
    "win_ok           "
  );

  function all_widths return WidthsType is
    variable w : WidthsType;
  begin
    for i in 0 to FLOW_N_C - 1 loop
      w(FLOW_IN_C + i)   := FLOW_WIDTHS_C(i);
      w(FLOW_OUT_C + i)  := FLOW_WIDTHS_C(i);
      w(FLOW_INIT_C + i) := FLOW_WIDTHS_C(i);
    end loop;
    for i in InWidthsType'range loop
      w(i) := IN_WIDTHS_C(i);
    end loop;
    for i in OutWidthsType'range loop
      w(i) := OUT_WIDTHS_C(i);
    end loop;
    return w;
  end function all_widths;

  -- prefix & the flow field's name, padded to name_t
  function flow_name (prefix : string; i : natural) return name_t is
    variable n : name_t := (others => ' ');
  begin
    n(1 to prefix'length + 12) := prefix & FLOW_NAMES_C(i);
    return n;
  end function flow_name;

  function all_names return NamesType is
    variable n : NamesType;
  begin
    for i in 0 to FLOW_N_C - 1 loop
      n(FLOW_IN_C + i)   := flow_name("in_", i);
      n(FLOW_OUT_C + i)  := flow_name("out_", i);
      n(FLOW_INIT_C + i) := flow_name("init_", i);
    end loop;
    for i in InNamesType'range loop
      n(i) := IN_NAMES_C(i);
    end loop;
    for i in OutNamesType'range loop
      n(i) := OUT_NAMES_C(i);
    end loop;
    return n;
  end function all_names;

  constant WIDTHS_C : WidthsType := all_widths;
  constant NAMES_C  : NamesType  := all_names;

  signal flow_rd      : NsccFlowType;
  signal gbytes       : unsigned(31 downto 0);
  signal old          : std_logic;
  signal now          : unsigned(31 downto 0);
  signal cc_en        : std_logic;
  signal ev_kind      : unsigned(1 downto 0);
  signal ev_bytes     : unsigned(23 downto 0);
  signal ev_ecn       : std_logic;
  signal ev_rtt_valid : std_logic;
  signal ev_rtt       : unsigned(23 downto 0);
  signal ev_pend      : unsigned(6 downto 0);
  signal ev_rc        : std_logic;
  signal cfg          : NsccRegsType;
  signal flow_wd      : NsccFlowType;
  signal outcome      : NsccOutType;

  function bit_of (v : value_t) return std_logic is
  begin
    return v(0);
  end function bit_of;

  function to_hex (v : value_t) return string is
    constant DIGITS_C : string(1 to 16) := "0123456789abcdef";
    variable s        : string(1 to 16);
  begin
    for i in 0 to 15 loop
      s(16 - i) := DIGITS_C(to_integer(v(4 * i + 3 downto 4 * i)) + 1);
    end loop;
    for i in 1 to 15 loop
      if (s(i) /= '0') then
        return s(i to 16);
      end if;
    end loop;
    return s(16 to 16);
  end function to_hex;

  function trim (s : string) return string is
  begin
    for i in s'range loop
      if (s(i) = ' ') then
        return s(s'left to i - 1);
      end if;
    end loop;
    return s;
  end function trim;

  -- the flow record whose fields are v(base) .. v(base + 17), in FLOW_NAMES_C's order

  function flow_of (v : ValuesType; base : natural) return NsccFlowType is
    variable f : NsccFlowType;
  begin
    f.cwnd       := resize(v(base + 0), 32);
    f.abytes     := resize(v(base + 1), 32);
    f.saved      := resize(v(base + 2), 32);
    f.base_rtt   := resize(v(base + 3), 24);
    f.max_wnd    := resize(v(base + 4), 24);
    f.avg        := resize(v(base + 5), 32);
    f.achieved   := resize(v(base + 6), 32);
    f.received   := resize(v(base + 7), 32);
    f.fi_count   := resize(v(base + 8), 32);
    f.inc        := resize(v(base + 9), 40);
    f.to_ignore  := resize(v(base + 10), 32);
    f.ignored    := resize(v(base + 11), 32);
    f.increase   := v(base + 12)(0);
    f.trigger_qa := v(base + 13)(0);
    f.qa_armed   := v(base + 14)(0);
    f.t_adj      := resize(v(base + 15), 32);
    f.t_dec      := resize(v(base + 16), 32);
    f.t_qa       := resize(v(base + 17), 32);
    return f;
  end function flow_of;

  -- v(base) .. v(base + 17) set to the fields of f

  procedure put_flow (
    f    : NsccFlowType;
    base : natural;
    v    : inout ValuesType
  ) is
  begin
    v(base + 0)  := resize(f.cwnd, 64);
    v(base + 1)  := resize(f.abytes, 64);
    v(base + 2)  := resize(f.saved, 64);
    v(base + 3)  := resize(f.base_rtt, 64);
    v(base + 4)  := resize(f.max_wnd, 64);
    v(base + 5)  := resize(f.avg, 64);
    v(base + 6)  := resize(f.achieved, 64);
    v(base + 7)  := resize(f.received, 64);
    v(base + 8)  := resize(f.fi_count, 64);
    v(base + 9)  := resize(f.inc, 64);
    v(base + 10) := resize(f.to_ignore, 64);
    v(base + 11) := resize(f.ignored, 64);
    v(base + 12) := (0 => f.increase, others => '0');
    v(base + 13) := (0 => f.trigger_qa, others => '0');
    v(base + 14) := (0 => f.qa_armed, others => '0');
    v(base + 15) := resize(f.t_adj, 64);
    v(base + 16) := resize(f.t_dec, 64);
    v(base + 17) := resize(f.t_qa, 64);
  end procedure put_flow;

begin

  dut : entity work.nscc_mq_ack_exec
    generic map (
      LINE_WIN => LINE_WIN
    )
    port map (
      flow_rd      => flow_rd,
      gbytes       => gbytes,
      old          => old,
      now          => now,
      cc_en        => cc_en,
      ev_kind      => ev_kind,
      ev_bytes     => ev_bytes,
      ev_ecn       => ev_ecn,
      ev_rtt_valid => ev_rtt_valid,
      ev_rtt       => ev_rtt,
      ev_pend      => ev_pend,
      ev_rc        => ev_rc,
      cfg          => cfg,
      flow_wd      => flow_wd,
      outcome      => outcome
    );

  run : process is

    file     f_in    : text;
    variable l       : line;
    variable lineno  : natural := 0;
    variable index   : natural := 0;
    variable have_lw : boolean := false;
    variable v       : ValuesType;
    variable act     : ValuesType;
    variable status  : file_open_status;
    variable init    : NsccFlowType;
    variable mtu     : unsigned(15 downto 0);

    procedure stop (
      text : string
    ) is
    begin
      report text
        severity failure;
      wait;
    end procedure stop;

    -- the next token of l (one or more spaces apart); "" at the end of the line

    procedure token (
      tok : out line
    ) is
      variable ch   : character;
      variable good : boolean;
      variable buf  : string(1 to 64);
      variable n    : natural := 0;
    begin
      tok := null;
      while (l /= null and l'length > 0 and l(l'left) = ' ') loop
        read(l, ch, good);
      end loop;
      while (l /= null and l'length > 0 and l(l'left) /= ' ') loop
        read(l, ch, good);
        if (n < buf'length) then
          n      := n + 1;
          buf(n) := ch;
        end if;
      end loop;
      tok := new string'(buf(1 to n));
    end procedure token;

    -- a token of lower- or upper-case hex digits that fits `bits`

    procedure parse_hex (
      tok  : string;
      bits : positive;
      name : string;
      x    : out value_t
    ) is
      variable d : natural;
      variable r : value_t := (others => '0');
    begin
      if (tok'length = 0 or tok'length > 16) then
        stop(VECTORS & ":" & integer'image(lineno) & ": field " & name & " missing or too long");
      end if;
      for i in tok'range loop
        case tok(i) is
          when '0' to '9' =>
            d := character'pos(tok(i)) - character'pos('0');
          when 'a' to 'f' =>
            d := character'pos(tok(i)) - character'pos('a') + 10;
          when 'A' to 'F' =>
            d := character'pos(tok(i)) - character'pos('A') + 10;
          when others =>
            stop(VECTORS & ":" & integer'image(lineno) & ": field " & name & " `" & tok & "` is not hex");
        end case;
        r := shift_left(r, 4) + to_unsigned(d, 64);
      end loop;
      if (bits < 64 and shift_right(r, bits) /= 0) then
        stop(VECTORS & ":" & integer'image(lineno) & ": field " & name & " `" & tok & "` does not fit " &
             integer'image(bits) & " bits");
      end if;
      x := r;
    end procedure parse_hex;

    -- the line_win line: decimal

    procedure parse_line_win is
      variable tok : line;
      variable lw  : integer;
      variable ok  : boolean;
    begin
      token(tok);
      read(tok, lw, ok);
      if (not ok or lw /= LINE_WIN) then
        stop(VECTORS & ":" & integer'image(lineno) & ": line_win does not match the generic LINE_WIN " &
             integer'image(LINE_WIN));
      end if;
      have_lw := true;
    end procedure parse_line_win;

    variable tok : line;

  begin

    file_open(status, f_in, VECTORS, read_mode);
    if (status /= open_ok) then
      stop("tb_nscc_ack: cannot open " & VECTORS);
    end if;
    while (not endfile(f_in)) loop
      readline(f_in, l);
      lineno := lineno + 1;
      if (l'length = 0) then
        next;
      end if;
      if (l(l'left) = '#') then
        next;
      end if;
      if (l'length > 9 and l(l'left to l'left + 8) = "line_win ") then
        token(tok);
        parse_line_win;
        next;
      end if;
      if (not have_lw) then
        stop(VECTORS & ":" & integer'image(lineno) & ": a vector before line_win");
      end if;
      for i in 0 to N_ALL_C - 1 loop
        token(tok);
        parse_hex(tok.all, WIDTHS_C(i), trim(NAMES_C(i)), v(i));
      end loop;
      token(tok);
      if (tok'length /= 0) then
        stop(VECTORS & ":" & integer'image(lineno) & ": more than " & integer'image(N_ALL_C) & " fields");
      end if;

      flow_rd           <= flow_of(v, FLOW_IN_C);
      gbytes            <= resize(v(18), 32);
      old               <= bit_of(v(19));
      now               <= resize(v(20), 32);
      cc_en             <= bit_of(v(21));
      ev_kind           <= resize(v(22), 2);
      ev_bytes          <= resize(v(23), 24);
      ev_ecn            <= bit_of(v(24));
      ev_rtt_valid      <= bit_of(v(25));
      ev_rtt            <= resize(v(26), 24);
      ev_pend           <= resize(v(27), 7);
      ev_rc             <= bit_of(v(28));
      cfg.base_rtt      <= resize(v(29), 24);
      cfg.target        <= resize(v(30), 24);
      cfg.mtu           <= resize(v(31), 16);
      cfg.max_wnd       <= resize(v(32), 24);
      cfg.init_cwnd     <= resize(v(33), 24);
      cfg.fi            <= resize(v(34), 20);
      cfg.alpha         <= resize(v(35), 32);
      cfg.fi_scale      <= resize(v(36), 24);
      cfg.eta           <= resize(v(37), 24);
      cfg.adjust_period <= resize(v(38), 24);
      cfg.adjust_bytes  <= resize(v(39), 24);
      cfg.gamma         <= resize(v(40), 9);
      cfg.ewma_shift    <= resize(v(41), 4);
      cfg.qa_gate       <= resize(v(42), 4);
      cfg.qa_en         <= bit_of(v(43));
      cfg.fi_delay      <= resize(v(44), 16);
      cfg.qa_delay      <= resize(v(45), 24);
      wait for 1 ns;
      mtu               := cfg.mtu;
      if (mtu = 0) then
        mtu := to_unsigned(1, 16);
      end if;
      init    := init_flow(cfg, now);
      put_flow(flow_wd, FLOW_OUT_C, act);
      act(64) := (0 => outcome.penalty, others => '0');
      act(65) := (0 => outcome.restored, others => '0');
      act(66) := (0 => outcome.rtt_valid, others => '0');
      act(67) := (0 => outcome.qa_fired, others => '0');
      act(68) := (0 => outcome.qa_ignored, others => '0');
      act(69) := resize(outcome.rcase, 64);
      act(70) := (0 => outcome.md_applied, others => '0');
      act(71) := (0 => outcome.adjusted, others => '0');
      act(72) := (0 => outcome.eta_added, others => '0');
      act(73) := (0 => win_ok(gbytes, flow_wd.abytes, flow_wd.cwnd, mtu), others => '0');
      put_flow(init, FLOW_INIT_C, act);
      for k in N_IN_C to N_ALL_C - 1 loop
        if (act(k) /= v(k)) then
          stop("MISMATCH vector " & integer'image(index) & " (" & VECTORS & ":" & integer'image(lineno) &
               ") field " & trim(NAMES_C(k)) & ": expected " & to_hex(v(k)) & " got " & to_hex(act(k)));
        end if;
      end loop;
      index := index + 1;
    end loop;
    file_close(f_in);
    if (index = 0) then
      stop("tb_nscc_ack: " & VECTORS & " holds no vector");
    end if;
    report "PASS " & integer'image(index) & " vectors, every output field equal to the model";
    std.env.finish;
    wait;

  end process run;

end architecture sim;
