//! The simulator's waveform dump of the four register probes, read as a stream: one sample per
//! cycle at its sampling time (10k + 8 ns), in order, without holding the file or the run's
//! samples in memory.

use super::common::{io_err, Regs, SurfError, PROBES};
use super::scratch::Scratch;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::PathBuf;
use vcd::{Command, IdCode, TimescaleUnit, Value};

/// The four probes at one cycle's sampling time; `None` where a bit was not 0/1.
pub type Sample = [Option<u64>; 4];

/// Longest line of a dump (GHDL writes one command per line; a probe's change is under 50
/// bytes): what the reader holds at once.
pub const MAX_DUMP_LINE: usize = 1 << 16;

/// GHDL's VCD as the `vcd` crate reads it: GHDL writes std_logic's other values (`U`, `W`, `L`,
/// `H`, `-`) into value changes, which VCD does not have; each becomes `x` (like them, not 0/1).
/// Reads a line at a time, each at most [`MAX_DUMP_LINE`] bytes.
struct GhdlVcd<R> {
    input: R,
    line: Vec<u8>,
    pos: usize,
    /// Past `$enddefinitions`: lines are value changes, timestamps and `$dumpvars` blocks.
    data: bool,
}

impl<R: BufRead> GhdlVcd<R> {
    fn new(input: R) -> Self {
        GhdlVcd {
            input,
            line: Vec::new(),
            pos: 0,
            data: false,
        }
    }
}

impl<R: BufRead> BufRead for GhdlVcd<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.pos == self.line.len() {
            self.line.clear();
            self.pos = 0;
            let limit = MAX_DUMP_LINE as u64 + 1;
            let n = (&mut self.input)
                .take(limit)
                .read_until(b'\n', &mut self.line)?;
            if n > MAX_DUMP_LINE {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a line longer than {MAX_DUMP_LINE} bytes"),
                ));
            }
            if self.data {
                // `b<value> <id>` (a vector) or `<value><id>` (a scalar).
                let value = match self.line.first() {
                    Some(b'b' | b'B') => 1..self.line.iter().position(|c| *c == b' ').unwrap_or(1),
                    Some(_) => 0..1,
                    None => 0..0,
                };
                for c in &mut self.line[value] {
                    if matches!(c, b'U' | b'W' | b'L' | b'H' | b'-') {
                        *c = b'x';
                    }
                }
            } else if self.line.starts_with(b"$enddefinitions") {
                self.data = true;
            }
        }
        Ok(&self.line[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.line.len());
    }
}

impl<R: BufRead> Read for GhdlVcd<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let have = self.fill_buf()?;
            let n = have.len().min(out.len());
            out[..n].copy_from_slice(&have[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

/// A vector's value, `None` where a bit is not 0/1, where it has no bits, or where its value does
/// not fit 64 bits (leading zeros may make it longer).
fn value(bits: impl IntoIterator<Item = Value>) -> Option<u64> {
    let mut v: u64 = 0;
    let mut n = 0;
    for b in bits {
        n += 1;
        if v >> 63 != 0 {
            return None;
        }
        v = v << 1
            | match b {
                Value::V0 => 0,
                Value::V1 => 1,
                _ => return None,
            };
    }
    (n > 0).then_some(v)
}

/// Reads the samples of cycles 0, 1, ... from GHDL's VCD of [`PROBES`] (through the `vcd`
/// crate's parser, one command at a time).
pub struct ProbeReader<R: BufRead> {
    parser: vcd::Parser<GhdlVcd<R>>,
    ids: Vec<(IdCode, usize)>,
    fs_per_unit: u64,
    cur: Sample,
    /// The next cycle to sample.
    next: u64,
    /// Cycles the dump holds (the cycles stepped).
    cycles: u64,
    /// The time of the last timestamp read: every sample before it can be given.
    horizon: Option<u64>,
    eof: bool,
}

impl<R: BufRead> ProbeReader<R> {
    /// Reads the header (timescale, the probes' identifiers); the samples of `cycles` cycles follow.
    pub fn new(input: R, cycles: u64) -> Result<Self, String> {
        let mut parser = vcd::Parser::new(GhdlVcd::new(input));
        let mut scope: Vec<String> = Vec::new();
        let mut ids: Vec<(IdCode, usize)> = Vec::new();
        let mut fs_per_unit: u64 = 1;
        loop {
            let command = parser
                .next()
                .ok_or("the waveform dump ends in its header")?
                .map_err(|e| e.to_string())?;
            match command {
                Command::Timescale(n, unit) => {
                    fs_per_unit = match (n, unit) {
                        (1, TimescaleUnit::FS) => 1,
                        (1, TimescaleUnit::PS) => 1_000,
                        (1, TimescaleUnit::NS) => 1_000_000,
                        _ => return Err(format!("waveform timescale `{n} {unit}`")),
                    }
                }
                Command::ScopeDef(_, name) => scope.push(name.to_lowercase()),
                Command::Upscope => {
                    scope.pop();
                }
                Command::VarDef(_, _, id, reference, _) => {
                    let name = reference.split('[').next().unwrap_or("").to_lowercase();
                    let full = format!("/{}/{name}", scope.join("/"));
                    if let Some(k) = PROBES.iter().position(|x| *x == full) {
                        ids.push((id, k));
                    }
                }
                Command::Enddefinitions => break,
                _ => {}
            }
        }
        if ids.len() != PROBES.len() {
            return Err(format!(
                "the waveform dump holds {} of the 4 register probes ({})",
                ids.len(),
                PROBES.join(", ")
            ));
        }
        Ok(ProbeReader {
            parser,
            ids,
            fs_per_unit,
            cur: [None; 4],
            next: 0,
            cycles,
            horizon: None,
            eof: false,
        })
    }

    /// The sampling time of cycle `k` in the dump's unit.
    fn sample_time(&self, k: u64) -> u64 {
        (10 * k + 8) * 1_000_000 / self.fs_per_unit
    }

    /// The next cycle's sample, `None` after the last cycle.
    pub fn next_sample(&mut self) -> Result<Option<Sample>, String> {
        loop {
            if self.next >= self.cycles {
                return Ok(None);
            }
            let t = self.sample_time(self.next);
            if self.eof || self.horizon.is_some_and(|h| t < h) {
                self.next += 1;
                return Ok(Some(self.cur));
            }
            // Every sample before the horizon is given: the changes after it may be applied.
            match self.parser.next().transpose().map_err(|e| e.to_string())? {
                None => self.eof = true,
                Some(Command::Timestamp(t)) => self.horizon = Some(t),
                Some(Command::ChangeVector(id, v)) => {
                    if let Some(k) = self.ids.iter().find(|(i, _)| *i == id).map(|x| x.1) {
                        self.cur[k] = value(&v);
                    }
                }
                Some(_) => {}
            }
        }
    }
}

/// Rc, Rt, alpha and the CNP counter register of each cycle stepped, from a dump: entry k is what
/// the registers hold after the clock edge of cycle k (the convention of
/// [`crate::model::SurfLimiter::probe`]), so it needs the sample of cycle k + 1.
pub struct RegStream<R: BufRead> {
    reader: ProbeReader<R>,
    /// The sample of the cycle whose registers come next.
    held: Option<Sample>,
    /// That cycle.
    cycle: u64,
}

impl<R: BufRead> RegStream<R> {
    pub fn new(reader: ProbeReader<R>) -> Self {
        RegStream {
            reader,
            held: None,
            cycle: 0,
        }
    }

    /// The registers after the edge of the next cycle, whose `rst` input was `rst` (the counter
    /// register is 0 in reset). Errors name the cycle and what was wrong.
    pub fn next_regs(&mut self, rst: bool) -> Result<Regs, (u64, String)> {
        let k = self.cycle;
        let end = || (k, format!("the register dump ends before cycle {}", k + 1));
        let now = match self.held.take() {
            Some(s) => s,
            None => self
                .reader
                .next_sample()
                .map_err(|e| (k, e))?
                .ok_or_else(end)?,
        };
        let next = self
            .reader
            .next_sample()
            .map_err(|e| (k, e))?
            .ok_or_else(end)?;
        let get = |x: Option<u64>, what: &str| {
            x.ok_or_else(|| (k, format!("{what} is not 0/1 after cycle {k}")))
        };
        let regs = Regs {
            rc: get(next[0], "Rc")? as u32,
            rt: get(next[1], "Rt")? as u32,
            alpha: get(next[2], "alpha")? as u16,
            // The register takes the counter's value at each edge, 0 in reset.
            cnp_cnt: if rst {
                0
            } else {
                get(now[3], "the CNP counter")? as u16
            },
        };
        self.held = Some(next);
        self.cycle += 1;
        Ok(regs)
    }
}

/// The register dump of a finished simulation, in its run's scratch folder (which lives as long
/// as this does).
pub struct Dump {
    stream: RegStream<BufReader<File>>,
    scratch: Scratch,
}

impl Dump {
    /// Opens the dump of a simulation that was stepped `cycles` times.
    pub(super) fn open(scratch: Scratch, cycles: u64) -> Result<Dump, SurfError> {
        let path = scratch.dump();
        let file = File::open(&path).map_err(io_err(&path));
        let file = match file {
            Ok(f) => f,
            Err(e) => {
                scratch.keep();
                return Err(e);
            }
        };
        match ProbeReader::new(BufReader::new(file), cycles) {
            Ok(reader) => Ok(Dump {
                stream: RegStream::new(reader),
                scratch,
            }),
            Err(what) => {
                scratch.keep();
                Err(SurfError::Sim {
                    cycle: 0,
                    what: format!("{}: {what}", path.display()),
                    log: scratch.log(),
                })
            }
        }
    }

    /// The registers after the edge of the next cycle (see [`RegStream::next_regs`]).
    pub fn next_regs(&mut self, rst: bool) -> Result<Regs, SurfError> {
        self.stream.next_regs(rst).map_err(|(cycle, what)| {
            self.scratch.keep();
            SurfError::Sim {
                cycle,
                what: format!("{}: {what}", self.scratch.dump().display()),
                log: self.scratch.log(),
            }
        })
    }

    /// The registers of every cycle whose `rst` is given, in order.
    pub fn collect(mut self, rst: impl IntoIterator<Item = bool>) -> Result<Vec<Regs>, SurfError> {
        rst.into_iter().map(|r| self.next_regs(r)).collect()
    }

    pub fn scratch(&self) -> &Scratch {
        &self.scratch
    }

    /// The dump's path (in the run's own scratch folder).
    pub fn path(&self) -> PathBuf {
        self.scratch.dump()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A dump of GHDL's shape: the probes in their scopes, values at the edges (10k + 10 ns).
    fn vcd(changes: &[(u64, usize, u64)]) -> String {
        let mut s = String::from("$date today $end\n$timescale\n  1 fs\n$end\n");
        s += "$scope module surf_tb $end\n$scope module u_dut $end\n$scope module u_dut $end\n";
        s += "$scope module ratedecproc_1 $end\n";
        s += "$var reg 32 ! currc[31:0] $end\n$var reg 32 \" currt[31:0] $end\n";
        s += "$var reg 10 # alpha[9:0] $end\n$upscope $end\n";
        s += "$var reg 16 $ cnpcnt[15:0] $end\n";
        s += "$upscope $end\n$upscope $end\n$upscope $end\n$enddefinitions $end\n";
        s += "#0\n$dumpvars\nb1 !\nb10 \"\nb11 #\nb0 $\n$end\n";
        let ids = ['!', '"', '#', '$'];
        for &(t_ns, p, v) in changes {
            s += &format!("#{}\nb{v:b} {}\n", t_ns * 1_000_000, ids[p]);
        }
        s
    }

    fn stream(text: &str, cycles: u64) -> RegStream<&[u8]> {
        RegStream::new(ProbeReader::new(text.as_bytes(), cycles).unwrap())
    }

    /// Samples are taken at 10k + 8 ns: a change at the edge of cycle k (10k + 10 ns) shows in
    /// the sample of cycle k + 1, i.e. in the registers after the edge of cycle k; quiet stretches
    /// and the end of the file repeat the last value.
    #[test]
    fn samples_in_order_without_reading_ahead() {
        let text = vcd(&[(30, 0, 7), (30, 3, 2), (1_000, 2, 5), (1_000_010, 1, 9)]);
        let mut s = stream(&text, 200_000);
        let mut regs = Vec::new();
        for k in 0..199_999u64 {
            regs.push(s.next_regs(k == 0).unwrap());
        }
        assert_eq!(
            regs[0],
            Regs {
                rc: 1,
                rt: 2,
                alpha: 3,
                cnp_cnt: 0
            }
        );
        // Rc changes at the edge of cycle 2 (30 ns).
        assert_eq!((regs[1].rc, regs[2].rc), (1, 7));
        // The counter register takes the counter's value one edge later.
        assert_eq!((regs[2].cnp_cnt, regs[3].cnp_cnt), (0, 2));
        assert_eq!((regs[98].alpha, regs[99].alpha), (3, 5));
        assert_eq!((regs[99_999].rt, regs[100_000].rt), (2, 9));
        assert_eq!(regs[199_998].rt, 9);
        // The last sample has no successor: no registers for it.
        assert!(s.next_regs(false).unwrap_err().1.contains("ends before"));
    }

    /// GHDL's std_logic values that VCD lacks (`U`, `W`, `L`, `H`, `-`) read as not 0/1, in
    /// vectors and scalars alike; a value wider than 64 bits counts if it fits.
    #[test]
    fn ghdl_values_beyond_vcd_are_not_0_or_1() {
        let text = vcd(&[])
            .replace("b1 !\n", "bUUUU !\nU%\n")
            .replace("b10 \"\n", "b1L \"\n")
            .replace("b11 #\n", &format!("b{}11 #\n", "0".repeat(70)))
            + "#20000000\nb-W !\nH%\n#30000000\nb1 !\n";
        let mut r = ProbeReader::new(text.as_bytes(), 4).unwrap();
        let s0 = r.next_sample().unwrap().unwrap();
        assert_eq!(s0, [None, None, Some(3), Some(0)]);
        let s1 = r.next_sample().unwrap().unwrap();
        assert_eq!(s1, s0);
        assert_eq!(r.next_sample().unwrap().unwrap()[0], None);
        assert_eq!(r.next_sample().unwrap().unwrap()[0], Some(1));
        assert_eq!(r.next_sample().unwrap(), None);
        assert_eq!(value([Value::V1; 64]), Some(u64::MAX));
        assert_eq!(value([Value::V1; 65]), None);
        assert_eq!(value([]), None);
    }

    #[test]
    fn a_line_past_the_limit_is_an_error_not_an_allocation() {
        let text = vcd(&[]) + "$comment " + &"a".repeat(MAX_DUMP_LINE) + " $end\n";
        let mut r = ProbeReader::new(text.as_bytes(), 10).unwrap();
        let e = r.next_sample().unwrap_err();
        assert!(e.contains("longer than 65536 bytes"), "{e}");
    }

    #[test]
    fn undefined_and_missing_probes_are_errors() {
        let text = vcd(&[(20, 0, 0)]).replace("#20000000\nb0 !", "#20000000\nbx !");
        let mut s = stream(&text, 10);
        assert!(s.next_regs(false).is_ok());
        let (k, what) = s.next_regs(false).unwrap_err();
        assert_eq!(k, 1);
        assert!(what.contains("Rc is not 0/1 after cycle 1"), "{what}");
        let no_alpha = vcd(&[]).replace("$var reg 10 # alpha[9:0] $end\n", "");
        let e = ProbeReader::new(no_alpha.as_bytes(), 5).err().unwrap();
        assert!(e.contains("3 of the 4 register probes"), "{e}");
    }
}
