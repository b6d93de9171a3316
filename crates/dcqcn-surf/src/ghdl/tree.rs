//! The checkout: is it SURF with the block ([`check_tree`]), its commit and file digests, and its
//! GHDL build into a directory of ours ([`build`]).

use super::common::{
    io_err, SurfError, BASE_FILES, BLOCK_FILES, BRIDGE_VHDL, GHDL_FLAGS, MONITOR_FILE, PROBES,
    SOURCE_DIRS, TOKEN_BUCKET_FILE,
};
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

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
