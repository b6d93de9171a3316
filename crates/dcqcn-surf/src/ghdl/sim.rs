//! The simulation: the bridge's process, one text line each way per cycle ([`SurfSim`]).

use super::common::{io_err, Ports, SurfError, GHDL_FLAGS};
use super::dump::Dump;
use super::scratch::Scratch;
use super::tree::Built;
use dcqcn_model::{Inputs, Outputs};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The running simulation of the wrapper.
pub struct SurfSim {
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    line: String,
    cycle: u64,
    /// This run's own folder: the register dump and the simulator's messages.
    scratch: Scratch,
}

impl SurfSim {
    /// Starts the simulation built in `b`; its waveform dump of the four registers and its
    /// messages go to `dump.vcd` and `sim.log` in a scratch folder of this run alone
    /// (`<b.dir>/runs/<name>-<process id>-<n>/`, [`Scratch`]).
    pub fn start(b: &Built, name: &str) -> Result<SurfSim, SurfError> {
        let scratch = Scratch::new(&b.dir, name)?;
        let (vcd, log) = (scratch.dump(), scratch.log());
        let logf = std::fs::File::create(&log).map_err(io_err(&log))?;
        let runtime = [
            "--ieee-asserts=disable".to_string(),
            format!("--vcd={}", vcd.display()),
            format!("--read-wave-opt={}", b.dir.join("probes.opt").display()),
        ];
        let mut cmd = match &b.exe {
            Some(exe) => Command::new(exe),
            None => {
                let mut c = Command::new(&b.ghdl);
                c.arg("-r").args(GHDL_FLAGS).arg("surf_tb");
                c
            }
        };
        cmd.args(runtime)
            .current_dir(&b.dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(logf));
        let mut child = cmd.spawn().map_err(io_err(&b.dir))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(SurfError::Io {
                path: b.dir.clone(),
                source: std::io::Error::other(
                    "the simulator's standard input or output is missing",
                ),
            });
        };
        Ok(SurfSim {
            child,
            stdin: BufWriter::new(stdin),
            stdout: BufReader::new(stdout),
            line: String::new(),
            cycle: 0,
            scratch,
        })
    }

    /// This run's scratch folder.
    pub fn scratch(&self) -> &Scratch {
        &self.scratch
    }

    /// An error of the simulator; its scratch folder is kept (the error names its log).
    fn fail(&self, what: impl Into<String>) -> SurfError {
        self.scratch.keep();
        SurfError::Sim {
            cycle: self.cycle,
            what: what.into(),
            log: self.scratch.log(),
        }
    }

    /// One cycle: drives `i`, returns the outputs sampled before the clock edge, then the edge.
    pub fn step(&mut self, i: &Inputs) -> Result<Ports, SurfError> {
        let a = &i.axil;
        let s = &i.s_axis;
        let flags = u32::from(i.rst)
            | u32::from(i.cnp) << 1
            | u32::from(s.tvalid) << 2
            | u32::from(s.tlast) << 3
            | u32::from(i.m_axis_tready) << 4
            | u32::from(a.awvalid) << 5
            | u32::from(a.wvalid) << 6
            | u32::from(a.bready) << 7
            | u32::from(a.arvalid) << 8
            | u32::from(a.rready) << 9;
        let mut l = format!("I {flags:03x} ");
        for w in s.tdata[..4].iter().rev() {
            let _ = write!(l, "{w:016x}");
        }
        let _ = writeln!(
            l,
            " {:08x} {:08x} {:08x} {:x} {:08x}",
            s.tkeep & 0xFFFF_FFFF,
            a.awaddr,
            a.wdata,
            a.wstrb & 0xF,
            a.araddr
        );
        let sent = self
            .stdin
            .write_all(l.as_bytes())
            .and_then(|()| self.stdin.flush());
        if sent.is_err() {
            return Err(self.fail("the simulator stopped reading its input"));
        }
        loop {
            self.line.clear();
            match self.stdout.read_line(&mut self.line) {
                Ok(0) | Err(_) => return Err(self.fail("the simulator ended early")),
                Ok(_) if self.line.starts_with("O ") => break,
                Ok(_) => continue, // the simulator's own messages
            }
        }
        let p = parse_ports(self.line.trim_end())
            .ok_or_else(|| self.fail(format!("malformed output line `{}`", self.line.trim())))?;
        self.cycle += 1;
        Ok(p)
    }

    /// Stops the simulation and opens its waveform dump, which gives the registers of every
    /// cycle stepped in order ([`Dump::next_regs`]): entry k is what the registers hold after the
    /// clock edge of cycle k (during cycle k + 1), the convention of
    /// [`crate::model::SurfLimiter::probe`]. The last cycle's entry needs one more cycle:
    /// step one (any inputs) before finishing.
    pub fn finish(mut self) -> Result<Dump, SurfError> {
        let _ = self.stdin.write_all(b"Q\n");
        let _ = self.stdin.flush();
        let log = self.scratch.log();
        let status = self.child.wait().map_err(io_err(&log))?;
        if !status.success() {
            return Err(self.fail(format!("the simulator exited with {status}")));
        }
        Dump::open(self.scratch, self.cycle)
    }
}

/// Parses one `O` line of the bridge.
fn parse_ports(l: &str) -> Option<Ports> {
    let t: Vec<&str> = l.split(' ').collect();
    if t.len() != 7 || t[0] != "O" || t[1].len() != 8 || t[2].len() != 64 {
        return None;
    }
    let mut undefined = Vec::new();
    let bit = |c: u8, name: &'static str, undef: &mut Vec<&'static str>| match c {
        b'0' => false,
        b'1' => true,
        _ => {
            undef.push(name);
            false
        }
    };
    let f = t[1].as_bytes();
    let mut o = Outputs {
        s_axil_rvalid: bit(f[0], "s_axil_rvalid", &mut undefined),
        s_axil_arready: bit(f[1], "s_axil_arready", &mut undefined),
        s_axil_bvalid: bit(f[2], "s_axil_bvalid", &mut undefined),
        s_axil_wready: bit(f[3], "s_axil_wready", &mut undefined),
        s_axil_awready: bit(f[4], "s_axil_awready", &mut undefined),
        m_axis_tlast: bit(f[5], "m_axis_tlast", &mut undefined),
        m_axis_tvalid: bit(f[6], "m_axis_tvalid", &mut undefined),
        s_axis_tready: bit(f[7], "s_axis_tready", &mut undefined),
        ..Outputs::default()
    };
    let hexv = |s: &str| -> Option<u64> { u64::from_str_radix(s, 16).ok() };
    let mut data_ok = true;
    for w in 0..4 {
        let chunk = &t[2][64 - 16 * (w + 1)..64 - 16 * w];
        match hexv(chunk) {
            Some(x) => o.m_axis_tdata[w] = x,
            None => data_ok = false,
        }
    }
    if !data_ok {
        undefined.push("m_axis_tdata");
    }
    match (t[3].len() == 8).then(|| hexv(t[3])).flatten() {
        Some(x) => o.m_axis_tkeep = x,
        None => undefined.push("m_axis_tkeep"),
    }
    match (t[4].len() == 8).then(|| hexv(t[4])).flatten() {
        Some(x) => o.s_axil_rdata = x as u32,
        None => undefined.push("s_axil_rdata"),
    }
    let two = |s: &str, name: &'static str, undef: &mut Vec<&'static str>| {
        if s.len() == 2 && s.bytes().all(|c| c == b'0' || c == b'1') {
            u8::from_str_radix(s, 2).unwrap_or(0)
        } else {
            undef.push(name);
            0
        }
    };
    o.s_axil_bresp = two(t[5], "s_axil_bresp", &mut undefined);
    o.s_axil_rresp = two(t[6], "s_axil_rresp", &mut undefined);
    Some(Ports { out: o, undefined })
}
