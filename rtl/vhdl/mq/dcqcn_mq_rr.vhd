-- SPDX-License-Identifier: MIT
-- dcqcn_mq_rr: the round-robin picker over the eligibility bitmap, and rr, the last QP picked
-- (spec-mq 4.5, hardware realisation: 64-bit chunks, two-level priority).

library ieee;
  use ieee.std_logic_1164.all;
  use ieee.numeric_std.all;

library work;
  use work.dcqcn_mq_pkg.all;

entity dcqcn_mq_rr is
  generic (
    N : positive := MQ_QPS_C -- QPs (the width of elig)
  );
  port (
    clk        : in    std_logic;
    rst        : in    std_logic;
    -- spec-mq 4.5: the eligible QPs and pick_en
    elig       : in    std_logic_vector(N - 1 downto 0);
    pick_en    : in    std_logic;
    -- the pick of this cycle (combinational): the first eligible QP after rr, wrapping around
    pick_valid : out   std_logic;
    pick       : out   qp_t;
    -- state
    st         : out   RrRegType
  );
end entity dcqcn_mq_rr;

architecture rtl of dcqcn_mq_rr is

  -- spec-mq 4.5: ceil(N / 64) chunks of 64 bits, the last padded with 0
  constant CHUNKS_C : positive := (N + 63) / 64;

  subtype chunk_t is std_logic_vector(63 downto 0);

  type ChunkArrayType is array (0 to CHUNKS_C - 1) of chunk_t;

  type IndexArrayType is array (0 to CHUNKS_C - 1) of unsigned(5 downto 0);

  constant REG_INIT_C : RrRegType := (
    rr => to_unsigned(N - 1, 12));

  signal r   : RrRegType := REG_INIT_C;
  signal rin : RrRegType;

  -- the lowest set index of a 64-bit vector (0 when none is set)
  function lowest (x : chunk_t) return unsigned is
    variable idx : unsigned(5 downto 0) := (others => '0');
  begin
    for i in 63 downto 0 loop
      if (x(i) = '1') then
        idx := to_unsigned(i, 6);
      end if;
    end loop;
    return idx;
  end function lowest;

begin

  comb : process (all) is
    variable v        : RrRegType;
    variable padded   : std_logic_vector(64 * CHUNKS_C - 1 downto 0);
    variable ch_all   : ChunkArrayType;
    variable ch_up    : ChunkArrayType;
    variable or_all   : std_logic_vector(CHUNKS_C - 1 downto 0);
    variable or_up    : std_logic_vector(CHUNKS_C - 1 downto 0);
    variable idx_all  : IndexArrayType;
    variable idx_up   : IndexArrayType;
    variable rr_chunk : unsigned(5 downto 0);
    variable rr_lo    : unsigned(5 downto 0);
    variable above    : chunk_t;
    variable found    : std_logic;
    variable sel      : qp_t;
  begin
    v := r;

    padded                 := (others => '0');
    padded(N - 1 downto 0) := elig;
    rr_chunk               := r.rr(11 downto 6);
    rr_lo                  := r.rr(5 downto 0);

    -- level 1: per chunk, elig and elig with every index <= rr masked off (chunks below rr's
    -- chunk give 0, rr's chunk masks its bits 0..rr[5:0], chunks above pass unchanged)
    for i in 0 to 63 loop
      above(i) := to_sl(i > to_integer(rr_lo));
    end loop;
    for c in 0 to CHUNKS_C - 1 loop
      ch_all(c) := padded(64 * c + 63 downto 64 * c);
      if (c > to_integer(rr_chunk)) then
        ch_up(c) := ch_all(c);
      elsif (c = to_integer(rr_chunk)) then
        ch_up(c) := ch_all(c) and above;
      else
        ch_up(c) := (others => '0');
      end if;
      or_all(c)  := or ch_all(c);
      or_up(c)   := or ch_up(c);
      idx_all(c) := lowest(ch_all(c));
      idx_up(c)  := lowest(ch_up(c));
    end loop;

    -- level 2: the lowest chunk with a masked QP, else the lowest chunk with any
    found := '0';
    sel   := (others => '0');
    for c in CHUNKS_C - 1 downto 0 loop
      if (or_all(c) = '1') then
        found := '1';
        sel   := to_unsigned(c, 6) & idx_all(c);
      end if;
    end loop;
    for c in CHUNKS_C - 1 downto 0 loop
      if (or_up(c) = '1') then
        sel := to_unsigned(c, 6) & idx_up(c);
      end if;
    end loop;

    -- spec-mq 4.5: on a pick, rr' = pick
    if (pick_en = '1' and found = '1') then
      v.rr := sel;
    end if;

    if (rst = '1') then
      v := REG_INIT_C;
    end if;

    rin <= v;

    pick_valid <= pick_en and found;
    pick       <= sel;
    st         <= r;
  end process comb;

  seq : process (clk) is
  begin
    if rising_edge(clk) then
      r <= rin;
    end if;
  end process seq;

end architecture rtl;
