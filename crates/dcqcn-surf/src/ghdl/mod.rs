//! The upstream SURF block (`RoCEv2Dcqcn`, through SURF's own flat wrapper `RoCEv2DcqcnWrapper`)
//! from a user's SURF checkout, simulated per cycle by GHDL and driven by our stimulus sources at
//! 32-byte beats, closed loop: `dcqcn cosim --rtl surf` and `dcqcn surf record`.
//!
//! - [`check_tree`]: is the directory a SURF checkout with the block, and is its stream monitor
//!   recent enough for the block (else an error naming what is missing);
//! - [`build`]: analyses the checkout's files with GHDL (SURF CI's flags) into a build directory of
//!   ours and elaborates our bridge `testbench/surf/surf_tb.vhd` around the wrapper. Nothing is
//!   written into the checkout, and no upstream file is copied or changed;
//! - [`SurfSim`]: the running simulation, one text line each way per cycle (the protocol is in
//!   the bridge's header); Rc, Rt, alpha and the CNP counter come from the simulator's waveform
//!   dump of four signals inside the block, so the register bus is not used for them;
//! - [`scenarios`]: the recorded scenarios; [`record`]: a vector set of every port every cycle and
//!   the four registers, in the golden format's variant [`FORMAT`] ([`fields`]);
//! - [`lockstep`]: the same run against [`dcqcn_model::surf::SurfLimiter`], every output port and
//!   the four registers compared every cycle, with a mismatch report, JSON and a waveform window
//!   like `dcqcn cosim`'s.
//!
//! Why GHDL simulation and not `ghdl --synth` to Verilator (what the VHDL twin uses): GHDL 2.0
//! cannot synthesise the unmodified upstream closure (docs/surf-lockstep.md has the command and
//! its error), and the user's tree is not ours to patch.

use crate::golden::format::{Dir, Encoder, GField, Val};
use crate::golden::manifest::FileEntry;
use crate::lockstep::{FieldDiff, HistoryRow};
use crate::stimulus::{
    AxilSpec, Bench, CnpSpec, DataPattern, PeriodicWrite, ResetSpec, SinkSpec, StimulusSpec,
    TrafficSpec, WriteMode,
};
use dcqcn_model::{Config, Inputs, Outputs, Params, DATA_WORDS};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;
use thiserror::Error;

mod dump;
pub mod late;
mod scratch;

pub use dump::{Dump, ProbeReader, RegStream};
pub use late::{Cycle, Row, Window};
pub use scratch::Scratch;

/// Beat width of the upstream wrapper (its `S_AXIS_TDATA` is 256 bits).
pub const DATA_BYTES: u32 = 32;
/// Line 1 of a recorded set's `vectors.txt` (docs/surf-lockstep.md: the golden format with the
/// upstream wrapper's ports and four registers).
pub const FORMAT: &str = "dcqcn-golden-surf 1";
/// Our bridge around the wrapper (built into the binary: the build needs no repository checkout).
pub const BRIDGE_VHDL: &str = include_str!("../../../../testbench/surf/surf_tb.vhd");
/// GHDL analysis flags: SURF CI's.
pub const GHDL_FLAGS: [&str; 4] = ["--std=08", "-fsynopsys", "-frelaxed-rules", "-fexplicit"];

/// Files a SURF checkout has (the base library the block stands on).
pub const BASE_FILES: &[&str] = &[
    "base/general/rtl/StdRtlPkg.vhd",
    "axi/axi-stream/rtl/AxiStreamPkg.vhd",
    "axi/axi-lite/rtl/AxiLitePkg.vhd",
    "protocols/ssi/rtl/SsiPkg.vhd",
    "axi/axi-stream/rtl/AxiStreamFifoV2.vhd",
    "axi/axi-stream/rtl/AxiStreamMon.vhd",
    "base/fifo/rtl/inferred/FifoSync.vhd",
    "base/sync/rtl/SynchronizerEdge.vhd",
    "base/sync/rtl/SynchronizerOneShotCnt.vhd",
    "axi/axi-lite/ip_integrator/SlaveAxiLiteIpIntegrator.vhd",
];

/// The stream monitor the block's token bucket instantiates (a base file).
pub const MONITOR_FILE: &str = "axi/axi-stream/rtl/AxiStreamMon.vhd";
/// The block file that instantiates [`MONITOR_FILE`].
pub const TOKEN_BUCKET_FILE: &str = "ethernet/RoCEv2/rtl/RoCEv2TokenBucket.vhd";

/// The block's own files and its wrapper.
pub const BLOCK_FILES: &[&str] = &[
    "ethernet/RoCEv2/rtl/RoCEv2Pkg.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2Dcqcn.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2RateDecProc.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2RateIncProc.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2AlphaUpdate.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2TokenBucket.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2TokenCalc.vhd",
    "ethernet/RoCEv2/rtl/RoCEv2AxisBucket.vhd",
    "ethernet/RoCEv2/wrappers/RoCEv2DcqcnWrapper.vhd",
];

/// Directories of the checkout whose VHDL files are offered to GHDL (`ghdl -i`; `ghdl -m` then
/// analyses only what the wrapper needs).
const SOURCE_DIRS: &[&str] = &["base", "axi", "protocols/ssi", "dsp/generic"];

/// The signals inside the block that hold the four registers, as the waveform dump names them
/// (lower case): Rc, Rt and alpha are wired to the decrease process's ports, the CNP counter is
/// the counter's output (the register 0x020 holds it one cycle later).
const PROBES: [&str; 4] = [
    "/surf_tb/u_dut/u_dut/ratedecproc_1/currc",
    "/surf_tb/u_dut/u_dut/ratedecproc_1/currt",
    "/surf_tb/u_dut/u_dut/ratedecproc_1/alpha",
    "/surf_tb/u_dut/u_dut/cnpcnt",
];

/// Bad input, a failed build, or a simulator that misbehaved.
#[derive(Debug, Error)]
pub enum SurfError {
    #[error("--surf-dir {}: no such directory", path.display())]
    Missing { path: PathBuf },
    #[error("--surf-dir {}: not a directory", path.display())]
    NotADirectory { path: PathBuf },
    #[error("--surf-dir {}: not a SURF checkout: missing {}", path.display(), missing.join(", "))]
    NotSurf { path: PathBuf, missing: Vec<String> },
    #[error("--surf-dir {}: this SURF has no RoCEv2Dcqcn block (a version from before it?): missing {}", path.display(), missing.join(", "))]
    NoBlock { path: PathBuf, missing: Vec<String> },
    #[error("--surf-dir {}: {MONITOR_FILE} has no `frameUpdate` output port, which {TOKEN_BUCKET_FILE} connects (this AxiStreamMon is older than the block; slaclab/surf 76a87cf18ca581cd6f938490a0bca8af1d4e394d has the port): GHDL could not elaborate the block", path.display())]
    OldMonitor { path: PathBuf },
    #[error(
        "GHDL not found (`{ghdl}`): install it with scripts/deps.sh, or name it with GHDL=..."
    )]
    NoGhdl { ghdl: String },
    #[error("{what} failed (exit {code}); GHDL's output: {}", log.display())]
    Build {
        what: String,
        code: i32,
        log: PathBuf,
    },
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("simulator, cycle {cycle}: {what} (its messages: {})", log.display())]
    Sim {
        cycle: u64,
        what: String,
        log: PathBuf,
    },
    #[error("unknown SURF scenario `{name}` (known: {})", known.join(", "))]
    UnknownScenario { name: String, known: Vec<String> },
    #[error("upstream drove {field} = {value} (not 0/1) in cycle {cycle}: cannot record it")]
    Undefined {
        cycle: u64,
        field: &'static str,
        value: String,
    },
    #[error("internal: the replay of the stimulus and the model differs from the run in cycle {cycle} (a stimulus that reads an output the lockstep does not compare?)")]
    Replay { cycle: u64 },
    #[error("internal: cycle {cycle} is not held for the report (held: {first}..{end})")]
    Lost { cycle: u64, first: u64, end: u64 },
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> SurfError + '_ {
    move |source| SurfError::Io {
        path: path.to_path_buf(),
        source,
    }
}

// ---------------------------------------------------------------------------------------------
// The checkout

/// Checks that `dir` is a SURF checkout with the block and its wrapper, and that its
/// [`MONITOR_FILE`] declares the `frameUpdate` port when the block's [`TOKEN_BUCKET_FILE`]
/// connects it.
pub fn check_tree(dir: &Path) -> Result<(), SurfError> {
    let path = dir.to_path_buf();
    if !dir.exists() {
        return Err(SurfError::Missing { path });
    }
    if !dir.is_dir() {
        return Err(SurfError::NotADirectory { path });
    }
    let missing = |list: &[&str]| -> Vec<String> {
        list.iter()
            .filter(|f| !dir.join(f).is_file())
            .map(|f| f.to_string())
            .collect()
    };
    let base = missing(BASE_FILES);
    if !base.is_empty() {
        return Err(SurfError::NotSurf {
            path,
            missing: base,
        });
    }
    let block = missing(BLOCK_FILES);
    if !block.is_empty() {
        return Err(SurfError::NoBlock {
            path,
            missing: block,
        });
    }
    let read = |f: &str| -> Result<String, SurfError> {
        let p = dir.join(f);
        let bytes = std::fs::read(&p).map_err(io_err(&p))?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    };
    // The block's token bucket connects the monitor's end-of-frame strobe `frameUpdate`; an
    // AxiStreamMon from before that port would stop the elaboration with a GHDL message that
    // does not say which file is too old.
    if instance_maps_port(&read(TOKEN_BUCKET_FILE)?, "axistreammon", "frameupdate")
        && !entity_has_port(&read(MONITOR_FILE)?, "axistreammon", "frameupdate")
    {
        return Err(SurfError::OldMonitor { path });
    }
    Ok(())
}

/// VHDL text as tokens: identifiers and numbers lower case, every other character but white
/// space on its own; comments (`--` to the end of the line) dropped.
fn vhdl_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.find("--").map_or(line, |i| &line[..i]);
        let mut word = String::new();
        for c in code.chars() {
            if c.is_ascii_alphanumeric() || c == '_' {
                word.push(c.to_ascii_lowercase());
                continue;
            }
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
        }
        if !word.is_empty() {
            out.push(word);
        }
    }
    out
}

/// The tokens inside the parentheses that open at `t[open]`, without them.
fn parenthesised(t: &[String], open: usize) -> &[String] {
    let mut depth = 0usize;
    for (i, tok) in t.iter().enumerate().skip(open) {
        match tok.as_str() {
            "(" => depth += 1,
            ")" => {
                depth -= 1;
                if depth == 0 {
                    return &t[open + 1..i];
                }
            }
            _ => {}
        }
    }
    &t[(open + 1).min(t.len())..]
}

/// Identifiers named at the top level of a parenthesised list, before a `:` or `,` (a port
/// clause's port names).
fn declared_names(list: &[String]) -> Vec<&str> {
    let mut depth = 0usize;
    let mut names = Vec::new();
    for (i, tok) in list.iter().enumerate() {
        match tok.as_str() {
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            _ if depth == 0 => {
                if matches!(list.get(i + 1).map(String::as_str), Some(":" | ",")) {
                    names.push(tok.as_str());
                }
            }
            _ => {}
        }
    }
    names
}

/// Does the text declare `entity <entity> is ... port ( ... <port> ... )`? (Names lower case.)
fn entity_has_port(text: &str, entity: &str, port: &str) -> bool {
    let t = vhdl_tokens(text);
    let Some(start) = t
        .windows(3)
        .position(|w| w[0] == "entity" && w[1] == entity && w[2] == "is")
    else {
        return false;
    };
    let Some(p) = (start..t.len().saturating_sub(1)).find(|&i| t[i] == "port" && t[i + 1] == "(")
    else {
        return false;
    };
    declared_names(parenthesised(&t, p + 1)).contains(&port)
}

/// Does the text instantiate `entity <library>.<entity>` with `<port> =>` in its port map?
/// (Names lower case.)
fn instance_maps_port(text: &str, entity: &str, port: &str) -> bool {
    let t = vhdl_tokens(text);
    (0..t.len()).any(|i| {
        if !(t[i] == "entity"
            && t.get(i + 2).is_some_and(|d| d == ".")
            && t.get(i + 3).is_some_and(|e| e == entity))
        {
            return false;
        }
        let Some(m) = (i + 4..t.len().saturating_sub(2))
            .find(|&j| t[j] == "port" && t[j + 1] == "map" && t[j + 2] == "(")
        else {
            return false;
        };
        parenthesised(&t, m + 2)
            .windows(3)
            .any(|w| w[0] == port && w[1] == "=" && w[2] == ">")
    })
}

/// Where the checkout comes from: `git rev-parse HEAD` of a git checkout, else the commit on the
/// `snapshot:` line of a `PROVENANCE.txt` at its top (an assembled tree: the first line that
/// starts with `snapshot:`, its first word of 40 hex digits; docs/surf-lockstep.md), as
/// `<commit>+block-files-of-PROVENANCE.txt`, else `unknown`.
pub fn surf_commit(dir: &Path) -> String {
    if let Ok(o) = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["rev-parse", "HEAD"])
        .stderr(Stdio::null())
        .output()
    {
        let s = String::from_utf8_lossy(&o.stdout).trim().to_string();
        if o.status.success() && s.len() == 40 {
            return s;
        }
    }
    if let Ok(t) = std::fs::read_to_string(dir.join("PROVENANCE.txt")) {
        if let Some(c) = t
            .lines()
            .find(|l| l.starts_with("snapshot:"))
            .and_then(|l| {
                l.split_whitespace()
                    .find(|w| w.len() == 40 && w.bytes().all(|c| c.is_ascii_hexdigit()))
            })
        {
            return format!("{c}+block-files-of-PROVENANCE.txt");
        }
    }
    "unknown".into()
}

/// The sha256 of each block file, the wrapper and the stream monitor the block relies on, as
/// `path sha256` lines: the exact versions a run used.
pub fn file_versions(dir: &Path) -> Result<Vec<(String, String)>, SurfError> {
    let mut v = Vec::new();
    for f in BLOCK_FILES.iter().chain([MONITOR_FILE].iter()) {
        let p = dir.join(f);
        let bytes = std::fs::read(&p).map_err(io_err(&p))?;
        v.push((f.to_string(), hex_digest(&bytes)));
    }
    Ok(v)
}

fn hex_digest(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The VHDL files of the checkout offered to GHDL, sorted.
fn sources(dir: &Path) -> Result<Vec<PathBuf>, SurfError> {
    fn walk(d: &Path, out: &mut Vec<PathBuf>) -> Result<(), SurfError> {
        let rd = std::fs::read_dir(d).map_err(io_err(d))?;
        for e in rd {
            let e = e.map_err(io_err(d))?;
            let p = e.path();
            let name = e.file_name().to_string_lossy().to_lowercase();
            if p.is_dir() {
                // Simulation-only models, testbenches and vendor primitives are not part of the
                // block's closure (and some need vendor libraries).
                let skip = ["sim", "tb", "xilinx", "altera", "ip_integrator"];
                if !skip.contains(&name.as_str()) {
                    walk(&p, out)?;
                }
            } else if name.ends_with(".vhd") {
                out.push(p);
            }
        }
        Ok(())
    }
    let mut v = Vec::new();
    for d in SOURCE_DIRS {
        let p = dir.join(d);
        if p.is_dir() {
            walk(&p, &mut v)?;
        }
    }
    v.push(dir.join("axi/axi-lite/ip_integrator/SlaveAxiLiteIpIntegrator.vhd"));
    v.extend(BLOCK_FILES.iter().map(|f| dir.join(f)));
    v.sort();
    v.dedup();
    Ok(v)
}

/// The GHDL to use: `$GHDL`, else `ghdl-llvm` (compiled simulation, about 3x faster) when on
/// the path, else `ghdl`.
pub fn ghdl_command() -> String {
    if let Ok(g) = std::env::var("GHDL") {
        if !g.is_empty() {
            return g;
        }
    }
    let found = |c: &str| {
        Command::new(c)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if found("ghdl-llvm") {
        "ghdl-llvm".into()
    } else {
        "ghdl".into()
    }
}

/// A built simulation.
#[derive(Clone, Debug)]
pub struct Built {
    /// The build directory.
    pub dir: PathBuf,
    pub ghdl: String,
    /// The elaborated executable (LLVM/GCC back ends), or `None` for mcode (run with `ghdl -r`).
    pub exe: Option<PathBuf>,
    /// The checkout it was built from.
    pub surf_dir: PathBuf,
    pub commit: String,
    pub versions: Vec<(String, String)>,
    /// Seconds the build took (0 when it was current).
    pub build_seconds: f64,
}

/// Analyses the checkout `surf_dir` and our bridge into `build_root/<key>/` (key: a hash of the
/// checkout's path) and elaborates the bridge; skipped when the sources, the bridge and GHDL are
/// those of the last build.
pub fn build(surf_dir: &Path, build_root: &Path) -> Result<Built, SurfError> {
    check_tree(surf_dir)?;
    let surf_dir = surf_dir
        .canonicalize()
        .map_err(io_err(surf_dir))?
        .to_path_buf();
    let ghdl = ghdl_command();
    let key = &hex_digest(surf_dir.to_string_lossy().as_bytes())[..16];
    let dir = build_root.join(key);
    std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    // GHDL runs in the build directory: every path it is given is absolute.
    let dir = dir.canonicalize().map_err(io_err(&dir))?;
    let srcs = sources(&surf_dir)?;
    // What the build depends on: every source's size and modification time, the bridge, GHDL.
    let mut stamp = format!(
        "ghdl {ghdl}\nbridge {}\n",
        hex_digest(BRIDGE_VHDL.as_bytes())
    );
    for s in &srcs {
        let m = std::fs::metadata(s).map_err(io_err(s))?;
        let t = m
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        let _ = writeln!(stamp, "{} {} {t}", s.display(), m.len());
    }
    let stamp_path = dir.join("stamp.txt");
    let exe = dir.join("surf_tb");
    let done = dir.join("built.ok");
    let commit = surf_commit(&surf_dir);
    let versions = file_versions(&surf_dir)?;
    let current = std::fs::read_to_string(&stamp_path).is_ok_and(|s| s == stamp) && done.is_file();
    let exe_opt = |e: PathBuf| e.is_file().then_some(e);
    if current {
        return Ok(Built {
            exe: exe_opt(exe),
            dir,
            ghdl,
            surf_dir,
            commit,
            versions,
            build_seconds: 0.0,
        });
    }
    let _ = std::fs::remove_file(&done);
    if Command::new(&ghdl)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_or(true, |s| !s.success())
    {
        return Err(SurfError::NoGhdl { ghdl });
    }
    let start = Instant::now();
    for f in ["surf-obj08.cf", "work-obj08.cf"] {
        let _ = std::fs::remove_file(dir.join(f));
    }
    let bridge = dir.join("surf_tb.vhd");
    std::fs::write(&bridge, BRIDGE_VHDL).map_err(io_err(&bridge))?;
    let opt = dir.join("probes.opt");
    let mut o = String::from("$ version 1.1\n");
    for p in PROBES {
        o += p;
        o.push('\n');
    }
    std::fs::write(&opt, o).map_err(io_err(&opt))?;
    let log = dir.join("build.log");
    let run = |what: &str, args: Vec<std::ffi::OsString>| -> Result<(), SurfError> {
        let out = Command::new(&ghdl)
            .args(&args)
            .current_dir(&dir)
            .output()
            .map_err(io_err(&dir))?;
        let mut l = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .map_err(io_err(&log))?;
        let _ = writeln!(l, "$ {ghdl} {what}");
        let _ = l.write_all(&out.stdout);
        let _ = l.write_all(&out.stderr);
        if !out.status.success() {
            return Err(SurfError::Build {
                what: format!("{ghdl} {what}"),
                code: out.status.code().unwrap_or(-1),
                log: log.clone(),
            });
        }
        Ok(())
    };
    let _ = std::fs::remove_file(&log);
    let flags = || GHDL_FLAGS.iter().map(std::ffi::OsString::from);
    let mut a: Vec<std::ffi::OsString> = vec!["-i".into()];
    a.extend(flags());
    a.push("--work=surf".into());
    a.extend(srcs.iter().map(|s| s.as_os_str().to_os_string()));
    run("-i --work=surf <checkout files>", a)?;
    let mut a: Vec<std::ffi::OsString> = vec!["-i".into()];
    a.extend(flags());
    a.push(bridge.as_os_str().to_os_string());
    run("-i surf_tb.vhd", a)?;
    let mut a: Vec<std::ffi::OsString> = vec!["-m".into()];
    a.extend(flags());
    a.push("surf_tb".into());
    run("-m surf_tb", a)?;
    std::fs::write(&stamp_path, stamp).map_err(io_err(&stamp_path))?;
    std::fs::write(&done, "").map_err(io_err(&done))?;
    Ok(Built {
        exe: exe_opt(exe),
        dir,
        ghdl,
        surf_dir,
        commit,
        versions,
        build_seconds: start.elapsed().as_secs_f64(),
    })
}

// ---------------------------------------------------------------------------------------------
// The simulation

/// The wrapper's outputs in one cycle, and the fields that were not 0/1 there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Ports {
    pub out: Outputs,
    /// Output fields with a bit that was not 0 or 1 (U, X, ...).
    pub undefined: Vec<&'static str>,
}

/// Rc, Rt, alpha and the CNP counter register (0x020[26:11]) in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Regs {
    pub rc: u32,
    pub rt: u32,
    pub alpha: u16,
    pub cnp_cnt: u16,
}

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
    /// [`dcqcn_model::surf::SurfLimiter::probe`]. The last cycle's entry needs one more cycle:
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

// ---------------------------------------------------------------------------------------------
// Scenarios

/// Register word 0x000 of the upstream block: alphaG [9:0], dec_gain [13:10], T [21:14],
/// clampTgtRate [22].
pub fn word0(alpha_g: u32, dec_gain: u32, t: u32, clamp: bool) -> u32 {
    (alpha_g & 0x3FF) | (dec_gain & 0xF) << 10 | (t & 0xFF) << 14 | u32::from(clamp) << 22
}

/// Register word 0x014: rateDecInterval [15:0], alphaUpdInterval [31:16].
pub fn word_intervals(nd: u32, na: u32) -> u32 {
    (nd & 0xFFFF) | (na & 0xFFFF) << 16
}

/// A named run against the upstream block.
#[derive(Clone, Debug)]
pub struct SurfScenario {
    pub name: &'static str,
    pub description: &'static str,
    pub stimulus: StimulusSpec,
    /// Upstream register writes (address, data) after each reset.
    pub writes: Vec<(u16, u32)>,
    /// Cycles in which `cnp` is driven high on top of the stimulus's CNP source (single CNPs at
    /// known cycles).
    pub cnp_at: Vec<u64>,
    pub default_cycles: u64,
}

/// The parameters of every SURF run: 32-byte beats, 156.25 MHz, 1.25e9 B/s.
pub fn params() -> Params {
    Params::with_data_bytes(DATA_BYTES).expect("32-byte beats are legal")
}

fn quiet() -> StimulusSpec {
    StimulusSpec {
        config: Config::reset(&params()),
        traffic: None,
        sink: SinkSpec::Always,
        cnp: CnpSpec::None,
        axil: AxilSpec::config_only(),
        resets: ResetSpec {
            initial_cycles: 8,
            mean_interval: 0,
            width: (1, 1),
        },
    }
}

fn traffic(lo: u32, hi: u32) -> TrafficSpec {
    TrafficSpec {
        frame_bytes: (lo, hi),
        gap_cycles: (0, 0),
        valid_prob: 1.0,
        sparse_last_keep: false,
        data: DataPattern::Ramp,
    }
}

fn periodic_cnp(period: u64) -> CnpSpec {
    CnpSpec::Periodic { period, width: 1 }
}

/// The recorded scenarios (docs/surf-lockstep.md lists what each covers).
pub fn scenarios() -> Vec<SurfScenario> {
    const W0: u16 = 0x000;
    const INC: u16 = 0x010;
    const INTV: u16 = 0x014;
    const ALPHA_CNP: u16 = 0x020;
    const BYPASS: u16 = 0x024;
    let reset_word0 = word0(0x3FC, 1, 5, false);
    vec![
        SurfScenario {
            name: "first-cnp",
            description: "reset values, saturating 32 B frames, one CNP at cycle 40: Rc 625,610,352 at c+9+Nd, the token rate after it",
            stimulus: StimulusSpec {
                traffic: Some(traffic(32, 32)),
                ..quiet()
            },
            cnp_at: vec![40],
            writes: vec![],
            default_cycles: 800,
        },
        SurfScenario {
            name: "blind-windows",
            description: "Nd = 20, Na = 30, random CNP pulses of 1-2 cycles: CNPs in the decrease and alpha blind windows",
            stimulus: StimulusSpec {
                traffic: Some(traffic(32, 160)),
                cnp: CnpSpec::Random {
                    prob: 0.06,
                    max_width: 2,
                },
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![(INTV, word_intervals(20, 30)), (INC, 400)],
            default_cycles: 1_500,
        },
        SurfScenario {
            name: "alpha-wrap",
            description: "G = 512, Na = 12, Nd = 9, a CNP every 40 cycles: alpha 1023 -> 0 -> 512 ...",
            stimulus: StimulusSpec {
                cnp: periodic_cnp(40),
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![(W0, word0(512, 1, 5, false)), (INTV, word_intervals(9, 12))],
            default_cycles: 800,
        },
        SurfScenario {
            name: "t0",
            description: "T = 0, Ni = 3, Nd = 8: one CNP at 20, then 255 fast-recovery steps, an additive one, fast recovery again",
            stimulus: quiet(),
            cnp_at: vec![20],
            writes: vec![(W0, word0(0x3FC, 1, 0, false)), (INC, 3), (INTV, word_intervals(8, 0x2192))],
            default_cycles: 1_700,
        },
        SurfScenario {
            name: "l1-convergence",
            description: "reset T, Ni = 4, Nd = 10: one CNP at 20, recovery converges to L - 1 and stays there",
            stimulus: StimulusSpec {
                traffic: Some(traffic(64, 64)),
                ..quiet()
            },
            cnp_at: vec![20],
            writes: vec![(INC, 4), (INTV, word_intervals(10, 0x2192))],
            default_cycles: 700,
        },
        SurfScenario {
            name: "bypass",
            description: "bypass toggled every 500 cycles under CNPs every 97 cycles, Nd = 15, Na = 25, Ni = 60",
            stimulus: StimulusSpec {
                traffic: Some(traffic(32, 96)),
                cnp: periodic_cnp(97),
                axil: AxilSpec {
                    periodic: vec![PeriodicWrite {
                        period: 500,
                        addr: BYPASS,
                        values: vec![0, 1],
                    }],
                    ..AxilSpec::config_only()
                },
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![(INTV, word_intervals(15, 25)), (INC, 60), (BYPASS, 1)],
            default_cycles: 1_500,
        },
        SurfScenario {
            name: "first-frame-free",
            description: "back-to-back 4096 B frames from reset: the first passes uncharged, the rest wait for tokens",
            stimulus: StimulusSpec {
                traffic: Some(traffic(4096, 4096)),
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![],
            default_cycles: 1_100,
        },
        SurfScenario {
            name: "size-fifo-overflow",
            description: "full-rate frames of 32-256 B: more than 63 complete frames queue, sizes are dropped and frames charged with others' sizes",
            stimulus: StimulusSpec {
                traffic: Some(TrafficSpec {
                    data: DataPattern::Random,
                    ..traffic(32, 256)
                }),
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![],
            default_cycles: 1_500,
        },
        SurfScenario {
            name: "cnpcntrst",
            description: "cnpCntRst written 1, 1, 0, 1 (only 0 -> 1 clears) under CNPs every 23 cycles",
            stimulus: StimulusSpec {
                cnp: periodic_cnp(23),
                axil: AxilSpec {
                    read_prob: 0.02,
                    periodic: vec![PeriodicWrite {
                        period: 150,
                        addr: ALPHA_CNP,
                        values: vec![0x400, 0x400, 0, 0x400],
                    }],
                    ..AxilSpec::config_only()
                },
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![(INTV, word_intervals(30, 50))],
            default_cycles: 1_000,
        },
        SurfScenario {
            name: "decerr-strobes",
            description: "random reads and writes, any data and strobes, unmapped and read-only words, slow bready/rready",
            stimulus: StimulusSpec {
                traffic: Some(traffic(32, 128)),
                sink: SinkSpec::Random { ready_prob: 0.7 },
                cnp: CnpSpec::Random {
                    prob: 0.01,
                    max_width: 3,
                },
                axil: AxilSpec {
                    read_prob: 0.08,
                    write_prob: 0.06,
                    write_mode: WriteMode::Any,
                    decerr: true,
                    bready_prob: 0.6,
                    rready_prob: 0.6,
                    periodic: vec![],
                    rule_words: false,
                    scheme_words: false,
                    trace_words: false,
                },
                ..quiet()
            },
            cnp_at: vec![],
            writes: vec![(INTV, word_intervals(25, 40)), (W0, reset_word0)],
            default_cycles: 1_500,
        },
    ]
}

pub fn scenario(name: &str) -> Result<SurfScenario, SurfError> {
    scenarios()
        .into_iter()
        .find(|s| s.name == name)
        .ok_or_else(|| SurfError::UnknownScenario {
            name: crate::clip(name),
            known: scenarios().iter().map(|s| s.name.to_string()).collect(),
        })
}

// ---------------------------------------------------------------------------------------------
// The vector-set variant

const INS: &[(&str, u32)] = &[
    ("rst", 1),
    ("cnp", 1),
    ("s_axis_tdata", 256),
    ("s_axis_tkeep", 32),
    ("s_axis_tvalid", 1),
    ("s_axis_tlast", 1),
    ("m_axis_tready", 1),
    ("s_axil_awaddr", 32),
    ("s_axil_awvalid", 1),
    ("s_axil_wdata", 32),
    ("s_axil_wstrb", 4),
    ("s_axil_wvalid", 1),
    ("s_axil_bready", 1),
    ("s_axil_araddr", 32),
    ("s_axil_arvalid", 1),
    ("s_axil_rready", 1),
];
const OUTS: &[(&str, u32)] = &[
    ("s_axis_tready", 1),
    ("m_axis_tvalid", 1),
    ("m_axis_tdata", 256),
    ("m_axis_tkeep", 32),
    ("m_axis_tlast", 1),
    ("s_axil_awready", 1),
    ("s_axil_wready", 1),
    ("s_axil_bvalid", 1),
    ("s_axil_bresp", 2),
    ("s_axil_arready", 1),
    ("s_axil_rvalid", 1),
    ("s_axil_rdata", 32),
    ("s_axil_rresp", 2),
];
const STS: &[(&str, u32)] = &[("rc", 32), ("rt", 32), ("alpha", 10), ("cnp_cnt", 16)];

/// The fields of [`FORMAT`] (the beat width is always 32 bytes; the argument is the format's
/// `data_bytes` line): the wrapper's inputs (AWPROT/ARPROT are tied to 0 and left out), its
/// outputs, and Rc, Rt, alpha and the CNP counter register after the cycle's edge.
pub fn fields(_data_bytes: u32) -> Vec<GField> {
    let f = |list: &[(&'static str, u32)], dir| {
        list.iter()
            .map(move |&(name, width)| GField { name, dir, width })
            .collect::<Vec<_>>()
    };
    let mut v = f(INS, Dir::In);
    v.extend(f(OUTS, Dir::Out));
    v.extend(f(STS, Dir::St));
    v
}

fn val(x: u64) -> Val {
    let mut v = [0; DATA_WORDS];
    v[0] = x;
    v
}

fn data(w: &[u64; DATA_WORDS]) -> Val {
    let mut v = [0; DATA_WORDS];
    v[..4].copy_from_slice(&w[..4]);
    v
}

/// The values of every field of [`fields`] in one cycle. The m_axis payload (tdata, tkeep,
/// tlast) is recorded only while m_axis_tvalid is 1, and as 0 otherwise (upstream leaves it
/// undefined then: it is not compared).
pub fn cycle_values(i: &Inputs, o: &Outputs, r: &Regs) -> Vec<Val> {
    let a = &i.axil;
    let s = &i.s_axis;
    fn b<T: Into<u64>>(x: T) -> u64 {
        x.into()
    }
    let v = o.m_axis_tvalid;
    vec![
        val(b(i.rst)),
        val(b(i.cnp)),
        data(&s.tdata),
        val(s.tkeep & 0xFFFF_FFFF),
        val(b(s.tvalid)),
        val(b(s.tlast)),
        val(b(i.m_axis_tready)),
        val(b(a.awaddr)),
        val(b(a.awvalid)),
        val(b(a.wdata)),
        val(b(a.wstrb & 0xF)),
        val(b(a.wvalid)),
        val(b(a.bready)),
        val(b(a.araddr)),
        val(b(a.arvalid)),
        val(b(a.rready)),
        val(b(o.s_axis_tready)),
        val(b(o.m_axis_tvalid)),
        if v { data(&o.m_axis_tdata) } else { val(0) },
        val(if v { o.m_axis_tkeep & 0xFFFF_FFFF } else { 0 }),
        val(b(v && o.m_axis_tlast)),
        val(b(o.s_axil_awready)),
        val(b(o.s_axil_wready)),
        val(b(o.s_axil_bvalid)),
        val(b(o.s_axil_bresp)),
        val(b(o.s_axil_arready)),
        val(b(o.s_axil_rvalid)),
        val(b(o.s_axil_rdata)),
        val(b(o.s_axil_rresp)),
        val(b(r.rc)),
        val(b(r.rt)),
        val(b(r.alpha)),
        val(b(r.cnp_cnt)),
    ]
}

/// One recorded run.
pub struct Recording {
    pub inputs: Vec<Inputs>,
    pub ports: Vec<Outputs>,
    pub regs: Vec<Regs>,
    pub seconds: f64,
}

impl Recording {
    pub fn cycles_per_second(&self) -> f64 {
        self.inputs.len() as f64 / self.seconds.max(1e-9)
    }
}

/// Runs `cycles` cycles of `sc` (seed `seed`) on the upstream block, closed loop: the sources see
/// the wrapper's outputs. Any output bit that is not 0/1 outside cycle 0 and outside the m_axis
/// payload while m_axis_tvalid is 0 is an error.
pub fn run_upstream(
    b: &Built,
    sc: &SurfScenario,
    seed: u64,
    cycles: u64,
) -> Result<Recording, SurfError> {
    let p = params();
    let mut bench = Bench::with_config_writes(&sc.stimulus, &p, seed, sc.writes.clone());
    let mut sim = SurfSim::start(b, sc.name)?;
    let mut prev = Outputs::default();
    let (mut inputs, mut ports) = (Vec::new(), Vec::new());
    let start = Instant::now();
    for k in 0..=cycles {
        let mut i = bench.next(&prev);
        i.cnp |= sc.cnp_at.contains(&k);
        let po = sim.step(&i)?;
        if k == cycles {
            break; // the extra cycle that shows the registers after the last edge
        }
        if k > 0 {
            if let Some(f) = po.undefined.iter().find(|f| {
                po.out.m_axis_tvalid
                    || !matches!(**f, "m_axis_tdata" | "m_axis_tkeep" | "m_axis_tlast")
            }) {
                return Err(SurfError::Undefined {
                    cycle: k,
                    field: f,
                    value: "not 0/1".into(),
                });
            }
        }
        inputs.push(i);
        ports.push(po.out);
        prev = po.out;
    }
    let regs = sim.finish()?.collect(inputs.iter().map(|i| i.rst))?;
    Ok(Recording {
        inputs,
        ports,
        regs,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Writes the recording `r` of `sc` as a vector set in `dir` (vectors.txt and manifest.txt).
pub fn write_set(
    dir: &Path,
    b: &Built,
    sc: &SurfScenario,
    seed: u64,
    r: &Recording,
    command: &str,
) -> Result<(), SurfError> {
    std::fs::create_dir_all(dir).map_err(io_err(dir))?;
    let comments = vec![
        format!(
            "upstream SURF RoCEv2Dcqcn (RoCEv2DcqcnWrapper) scenario {}: {}",
            sc.name, sc.description
        ),
        format!("SURF {}", b.commit),
        format!("recorded by: {command}"),
    ];
    let mut e = Encoder::with_fields(FORMAT, DATA_BYTES, fields(DATA_BYTES), &comments);
    for k in 0..r.inputs.len() {
        e.push(&cycle_values(&r.inputs[k], &r.ports[k], &r.regs[k]));
    }
    let v = e.finish();
    let vp = dir.join("vectors.txt");
    std::fs::write(&vp, &v.text).map_err(io_err(&vp))?;
    let fe = FileEntry::of("vectors.txt", v.text.as_bytes());
    let mut m = String::new();
    let _ = writeln!(m, "format {FORMAT}");
    let _ = writeln!(m, "set {}", sc.name);
    let _ = writeln!(m, "description {}", sc.description);
    let _ = writeln!(m, "data_bytes {DATA_BYTES}");
    let _ = writeln!(m, "clk_hz 156250000");
    let _ = writeln!(m, "line_rate_bytes_per_s 1250000000");
    let _ = writeln!(m, "seed {seed}");
    let _ = writeln!(m, "cycles {}", v.cycles);
    let _ = writeln!(m, "surf_commit {}", b.commit);
    for (f, h) in &b.versions {
        let _ = writeln!(m, "surf_file {f} sha256 {h}");
    }
    let _ = writeln!(m, "simulator {} (GHDL {})", b.ghdl, GHDL_FLAGS.join(" "));
    let _ = writeln!(m, "command {command}");
    for (a, d) in &sc.writes {
        let _ = writeln!(m, "write {a:03x} {d:08x}");
    }
    let _ = writeln!(
        m,
        "file vectors.txt bytes {} crc32 {} sha256 {}",
        fe.bytes, fe.crc32, fe.sha256
    );
    let mp = dir.join("manifest.txt");
    std::fs::write(&mp, m).map_err(io_err(&mp))?;
    Ok(())
}

/// `FieldDiff` for one differing field (hex and decimal on both sides).
pub fn field_diff(
    name: &'static str,
    block: &'static str,
    width: u32,
    model: &Val,
    rtl: &Val,
) -> FieldDiff {
    let hex = |v: &Val| crate::golden::format::hex(v, width);
    let dec = |v: &Val| {
        if width <= 64 {
            v[0].to_string()
        } else {
            String::new()
        }
    };
    FieldDiff {
        field: name,
        block,
        model_hex: hex(model),
        rtl_hex: hex(rtl),
        model: dec(model),
        rtl: dec(rtl),
    }
}

/// Rows for a report's history (inputs | outputs of a cycle).
pub fn history_row(cycle: u64, i: &Inputs, o: &Outputs) -> HistoryRow {
    HistoryRow {
        cycle,
        inputs: i.describe(),
        outputs: o.describe(),
    }
}

// ---------------------------------------------------------------------------------------------
// Lockstep against the model of the upstream block

use dcqcn_model::surf::{SurfLimiter, SurfParams, SurfProbe};
use serde::Serialize;

/// The first difference between [`SurfLimiter`] and the upstream VHDL.
#[derive(Clone, Debug, Serialize)]
pub struct SurfMismatch {
    pub cycle: u64,
    pub time_us: f64,
    pub scenario: String,
    pub seed: u64,
    /// `surf <commit>`.
    pub variant: String,
    pub data_bytes: u32,
    pub fields: Vec<FieldDiff>,
    /// The upstream register writes after each reset (`addr=data`).
    pub writes: Vec<String>,
    pub replay: String,
    /// The cycles up to the mismatch: inputs and model outputs.
    pub history: Vec<HistoryRow>,
    /// The run's own scratch folder, kept for the report: the upstream register dump compared
    /// (`dump.vcd`) and the simulator's messages (`sim.log`).
    pub upstream_run: String,
}

impl SurfMismatch {
    /// The mismatch as pretty JSON (the `--report` file).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data serialises")
    }

    /// The report, laid out as `dcqcn cosim`'s.
    pub fn report(&self) -> String {
        let mut s = format!(
            "MISMATCH at cycle {} (t = {:.3} us), scenario {}, seed {}, RTL variant {} ({} B beats)\n",
            self.cycle, self.time_us, self.scenario, self.seed, self.variant, self.data_bytes
        );
        s += &crate::lockstep::report_body(&self.fields, &self.history);
        s += &format!(
            "configuration: upstream writes [{}]\n",
            self.writes.join(", ")
        );
        s += &format!(
            "upstream run: {} (register dump dump.vcd, messages sim.log)\n",
            self.upstream_run
        );
        s += &format!("replay: {}\n", self.replay);
        s
    }
}

/// A SURF lockstep's result.
#[derive(Clone, Debug)]
pub struct SurfOutcome {
    /// Cycles compared (ports and registers).
    pub cycles: u64,
    pub seconds: f64,
    pub mismatch: Option<SurfMismatch>,
    /// The run's own scratch folder (its register dump and the simulator's messages): removed
    /// when the run passed, kept with a mismatch.
    pub upstream_run: PathBuf,
    pub kept: bool,
}

impl SurfOutcome {
    pub fn cycles_per_second(&self) -> f64 {
        self.cycles as f64 / self.seconds.max(1e-9)
    }
}

fn regs_of(p: &SurfProbe) -> Regs {
    Regs {
        rc: p.rc,
        rt: p.rt,
        alpha: p.alpha,
        cnp_cnt: p.cnp_cnt,
    }
}

/// The fields that differ in one cycle: every output port (the m_axis payload only while the
/// upstream m_axis_tvalid is 1; a bit that is not 0/1 is a difference, shown as `x`), and, when
/// `regs` is given, Rc, Rt, alpha and the CNP counter register after the edge.
fn diffs(i: &Inputs, m: &Outputs, r: &Ports, regs: Option<(&Regs, &Regs)>) -> Vec<FieldDiff> {
    let f = fields(DATA_BYTES);
    let z = Regs::default();
    let (mr, rr) = regs.unwrap_or((&z, &z));
    let mv = cycle_values(i, m, mr);
    let payload = ["m_axis_tdata", "m_axis_tkeep", "m_axis_tlast"];
    // The payload of both sides under the upstream tvalid.
    let mut m2 = *m;
    m2.m_axis_tvalid = r.out.m_axis_tvalid;
    let mv2 = cycle_values(i, &m2, mr);
    let rv = cycle_values(i, &r.out, rr);
    let mut out = Vec::new();
    for (k, g) in f.iter().enumerate() {
        let block = match g.dir {
            Dir::In => continue,
            Dir::Out => "out",
            Dir::St => {
                if regs.is_none() {
                    continue;
                }
                "st"
            }
        };
        let model = if payload.contains(&g.name) {
            mv2[k]
        } else {
            mv[k]
        };
        let undef =
            r.undefined.contains(&g.name) && (r.out.m_axis_tvalid || !payload.contains(&g.name));
        if undef {
            let mut d = field_diff(g.name, block, g.width, &model, &rv[k]);
            d.rtl_hex = "x".repeat(g.width.div_ceil(4) as usize);
            d.rtl = "not 0/1".into();
            out.push(d);
        } else if model != rv[k] {
            out.push(field_diff(g.name, block, g.width, &model, &rv[k]));
        }
    }
    out
}

/// The cycles of a mismatch's waveform window, as a length.
const WAVEFORM_CYCLES_USIZE: usize = crate::lockstep::WAVEFORM_CYCLES as usize;

/// The stimulus of `sc` and [`SurfLimiter`], stepped from reset: the model side of a run, live
/// and in the replay of [`late::first_difference`].
pub struct ModelRun<'a> {
    bench: Bench,
    model: SurfLimiter,
    cnp_at: &'a [u64],
    cycle: u64,
}

impl<'a> ModelRun<'a> {
    pub fn new(sc: &'a SurfScenario, seed: u64) -> Self {
        ModelRun {
            bench: Bench::with_config_writes(&sc.stimulus, &params(), seed, sc.writes.clone()),
            model: SurfLimiter::new(SurfParams::default()),
            cnp_at: &sc.cnp_at,
            cycle: 0,
        }
    }
}

impl late::ModelSide for ModelRun<'_> {
    fn step(&mut self, prev: &Outputs) -> (Inputs, Outputs, Regs) {
        let mut i = self.bench.next(prev);
        i.cnp |= self.cnp_at.contains(&self.cycle);
        self.cycle += 1;
        let o = self.model.step(&i);
        (i, o, regs_of(&self.model.probe()))
    }
}

/// Runs `sc` for `cycles` cycles on the upstream block and on [`SurfLimiter`], closed loop on
/// the upstream outputs, comparing every output port every cycle and the four registers after
/// every edge. Stops stepping at the first port difference; the registers (streamed from the
/// waveform dump when the simulation ends, [`late`]) are compared up to there, and the earlier
/// difference is the one reported, wherever it lies. `vcd`: a waveform of scopes `tb`, `model`
/// and `rtl` — of the whole run, or (`window_only`) of the [`crate::lockstep::WAVEFORM_CYCLES`]
/// cycles up to a mismatch. Memory: that many cycles twice, or the whole run for a whole-run
/// waveform.
pub fn lockstep(
    b: &Built,
    sc: &SurfScenario,
    seed: u64,
    cycles: u64,
    replay: &str,
    vcd: Option<(&Path, bool)>,
) -> Result<SurfOutcome, SurfError> {
    use late::ModelSide;
    let mut side = ModelRun::new(sc, seed);
    let mut sim = SurfSim::start(b, sc.name)?;
    let keep_all = matches!(vcd, Some((_, false)));
    let cap = (!keep_all).then_some(WAVEFORM_CYCLES_USIZE);
    let mut held: Window<Cycle> = Window::new(cap);
    let mut port0 = Ports::default();
    let mut prev = Outputs::default();
    let mut port_mismatch = None;
    let start = Instant::now();
    let mut stepped = 0;
    for k in 0..=cycles {
        let (i, mo, mr) = side.step(&prev);
        let po = sim.step(&i)?;
        if k == cycles {
            break; // the extra cycle that shows the registers after the last edge
        }
        stepped += 1;
        // Cycle 0: the registered outputs still hold their power-up values.
        let differs = k > 0 && !diffs(&i, &mo, &po, None).is_empty();
        prev = po.out;
        if k == 0 {
            port0 = po.clone();
        }
        held.push(Cycle {
            inputs: i,
            model: mo,
            rtl: po,
            model_regs: mr,
        });
        if differs {
            port_mismatch = Some(k);
            // One more cycle shows the registers after this edge.
            let (i2, _, _) = side.step(&prev);
            sim.step(&i2)?;
            break;
        }
    }
    let mut dump = sim.finish()?;
    let run = late::Run {
        stepped,
        held: &held,
        port0: &port0,
        port_mismatch,
    };
    let found = late::first_difference(
        &run,
        &mut ModelRun::new(sc, seed),
        &mut |_, rst| dump.next_regs(rst),
        cap,
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let upstream_run = dump.scratch().path().to_path_buf();
    let (mismatch, compared) = conclude(
        &found,
        stepped,
        &Context {
            scenario: sc,
            seed,
            commit: &b.commit,
            replay,
            upstream_run: &upstream_run,
        },
        vcd,
    )?;
    if mismatch.is_some() {
        dump.scratch().keep();
    }
    let kept = dump.scratch().kept();
    Ok(SurfOutcome {
        cycles: compared,
        seconds,
        mismatch,
        upstream_run,
        kept,
    })
}

/// What a report names besides the cycles.
pub struct Context<'a> {
    pub scenario: &'a SurfScenario,
    pub seed: u64,
    pub commit: &'a str,
    /// The command that runs the scenario again (without `--cycles`).
    pub replay: &'a str,
    pub upstream_run: &'a Path,
}

/// The mismatch at `found.at` (fields, history, replay command) and the cycles compared, and the
/// waveform `vcd` (see [`lockstep`]) from `found.rows`.
pub fn conclude(
    found: &late::Found,
    stepped: u64,
    cx: &Context,
    vcd: Option<(&Path, bool)>,
) -> Result<(Option<SurfMismatch>, u64), SurfError> {
    let rows = &found.rows;
    let row = |c: u64| {
        rows.get(c).ok_or(SurfError::Lost {
            cycle: c,
            first: rows.first(),
            end: rows.end(),
        })
    };
    let mismatch = match found.at {
        None => None,
        Some(at) => {
            let r = row(at)?;
            let c = &r.cycle;
            let fields = diffs(
                &c.inputs,
                &c.model,
                &c.rtl,
                Some((&c.model_regs, &r.rtl_regs)),
            );
            let hist_from = at
                .saturating_sub(crate::lockstep::HISTORY_CYCLES - 1)
                .max(rows.first());
            let mut history = Vec::new();
            for k in hist_from..=at {
                let h = &row(k)?.cycle;
                history.push(history_row(k, &h.inputs, &h.model));
            }
            Some(SurfMismatch {
                cycle: at,
                time_us: at as f64 / 156.25,
                scenario: cx.scenario.name.to_string(),
                seed: cx.seed,
                variant: format!("surf {}", cx.commit),
                data_bytes: DATA_BYTES,
                fields,
                writes: cx
                    .scenario
                    .writes
                    .iter()
                    .map(|(a, d)| format!("{a:#05x}={d:#010x}"))
                    .collect(),
                replay: format!("{} --cycles {}", cx.replay, at + 1),
                history,
                upstream_run: cx.upstream_run.display().to_string(),
            })
        }
    };
    if let Some((path, window_only)) = vcd {
        if !window_only || mismatch.is_some() {
            let end = found.at.map_or(stepped, |c| c + 1).min(rows.end());
            let from = if window_only {
                end.saturating_sub(crate::lockstep::WAVEFORM_CYCLES)
                    .max(rows.first())
            } else {
                rows.first()
            };
            write_vcd(path, rows, from..end)?;
        }
    }
    Ok((mismatch, found.at.unwrap_or(stepped)))
}

/// Writes cycles `range` of `rows`: scope `tb` the inputs, scopes `model` and `rtl` the outputs
/// (at the falling edge) and the four registers (after the rising edge), as `dcqcn cosim`'s
/// waveforms.
fn write_vcd(
    path: &Path,
    rows: &Window<Row>,
    range: std::ops::Range<u64>,
) -> Result<(), SurfError> {
    use vcd::{TimescaleUnit, Value};
    let file = std::fs::File::create(path).map_err(io_err(path))?;
    let io = |e: std::io::Error| SurfError::Io {
        path: path.to_path_buf(),
        source: e,
    };
    let mut w = vcd::Writer::new(BufWriter::new(file));
    let f = fields(DATA_BYTES);
    let half = 3_200u64; // ps: 156.25 MHz
    w.timescale(1, TimescaleUnit::PS).map_err(io)?;
    w.add_module("surf").map_err(io)?;
    let clk = w.add_wire(1, "clk").map_err(io)?;
    let mut ids = Vec::new();
    for scope in ["tb", "model", "rtl"] {
        w.add_module(scope).map_err(io)?;
        let mut v = Vec::new();
        for g in &f {
            if (scope == "tb") == (g.dir == Dir::In) {
                v.push(Some(w.add_wire(g.width, g.name).map_err(io)?));
            } else {
                v.push(None);
            }
        }
        ids.push(v);
        w.upscope().map_err(io)?;
    }
    w.upscope().map_err(io)?;
    w.enddefinitions().map_err(io)?;
    let bits = |v: &Val, width: u32| -> Vec<Value> {
        (0..width)
            .rev()
            .map(|b| {
                if v[(b / 64) as usize] >> (b % 64) & 1 == 1 {
                    Value::V1
                } else {
                    Value::V0
                }
            })
            .collect()
    };
    for c in range {
        let Some(Row {
            cycle: cy,
            rtl_regs,
        }) = rows.get(c)
        else {
            return Err(SurfError::Lost {
                cycle: c,
                first: rows.first(),
                end: rows.end(),
            });
        };
        let mv = cycle_values(&cy.inputs, &cy.model, &cy.model_regs);
        let rv = cycle_values(&cy.inputs, &cy.rtl.out, rtl_regs);
        for (phase, dirs) in [(0u64, [Dir::In, Dir::Out]), (1, [Dir::St, Dir::St])] {
            w.timestamp(c * 2 * half + phase * half).map_err(io)?;
            w.change_scalar(clk, if phase == 0 { Value::V0 } else { Value::V1 })
                .map_err(io)?;
            for (k, g) in f.iter().enumerate() {
                if !dirs.contains(&g.dir) {
                    continue;
                }
                for (s, vals) in [(0usize, &mv), (1, &mv), (2, &rv)] {
                    if let Some(id) = ids[s][k] {
                        w.change_vector(id, bits(&vals[k], g.width)).map_err(io)?;
                    }
                }
            }
        }
    }
    w.flush().map_err(io)?;
    Ok(())
}
