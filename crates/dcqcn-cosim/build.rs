//! Verilates the RTL once per variant and compiles it with the C++ shim. Variants: the
//! SystemVerilog at beat widths 8/32/64 (`w8`...) at 10 GbE / 156.25 MHz, at 8-byte beats also at the
//! other line rates and clocks of variants.toml (`w8-1g`, `w8-25g`, `w8-lmax`), the VHDL twin through
//! `ghdl --synth` at the same widths and rates (`vhdl-w8`, `vhdl-w8-25g`...), and with feature
//! `mutants` each deliberately defective copy from verilator/mutants/ (of the SV or of the VHDL, by
//! the mutated file's extension). Beside them the multi-QP block (docs/spec-mq.md): its core
//! `dcqcn_mq_core` with the observation ports, in the lockstep wrapper
//! verilator/dcqcn_mq_cosim_top.sv (state injection and memory dumps, spec-mq 8.2, 8.3, generated
//! per variant by scripts/vhdl2verilog.py), of the SystemVerilog (`mq-q<QPS>`, rtl/mq/) and of
//! the VHDL twin (`mq-vhdl-q<QPS>`, rtl/vhdl/mq/ through the same ghdl --synth path) at QPS 4 and
//! 64 (DCQCN_MQ_QPS: a comma-separated list, empty for none; `make cosim` sets 4,64,1024), bound
//! by src/mq_ffi.rs.
//!
//! Each variant is verilated and compiled only when something it is built from has changed
//! ([`Cache`]), so a change to one block's RTL rebuilds that block's variants alone.
//!
//! Every Verilator warning stops the build (no `-Wno-fatal`), so an illegal parameter stops it with
//! the RTL's own `$fatal` message (spec 2), except the ones named in verilator-flags.toml: the
//! wrapper's state injection drives each register from a second process by design
//! (MULTIDRIVEN), and GHDL's Verilog writer has its own style (COMBDLY, INITIALDLY, no timescale).
//! Mutants may provoke lint warnings by their change; they keep `-Wno-fatal` with
//! `-Werror-USERFATAL`, so a parameter check still stops them.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(serde::Deserialize)]
struct Mutant {
    description: String,
    file: String,
    find: String,
    replace: String,
}

/// Which description of the block a variant verilates.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hdl {
    /// rtl/*.sv (and the .svh includes), as written
    Sv,
    /// rtl/vhdl/*.vhd, made Verilog by scripts/vhdl2verilog.py (ghdl --synth)
    Vhdl,
}

struct Variant {
    name: String,
    data_bytes: u32,
    clk_hz: u32,
    line_rate: u32,
    config: FeatureConfig,
    description: String,
    hdl: Hdl,
    /// rtl/ or rtl/vhdl/, or a mutated copy of either
    rtl_dir: PathBuf,
    mutant: bool,
}

/// variants.toml (which scripts/mutants.py reads too): the rate sets and the Verilator flags.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct VariantsFile {
    rates: Vec<Rates>,
    configs: Vec<FeatureConfig>,
    flags: Flags,
}

/// A feature configuration (spec 2): the first of the file's at every width and rate set, the
/// others at 8-byte beats and the first rate set.
#[derive(serde::Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct FeatureConfig {
    suffix: String,
    rate_rules: bool,
    control: bool,
    trace_depth: u32,
    what: String,
}

impl FeatureConfig {
    /// The Verilator -G flags of the SystemVerilog.
    fn sv_params(&self) -> Vec<String> {
        vec![
            format!("-GRATE_RULES={}", u8::from(self.rate_rules)),
            format!("-GCONTROL={}", u8::from(self.control)),
            format!("-GTRACE_DEPTH={}", self.trace_depth),
        ]
    }

    /// scripts/vhdl2verilog.py's --generic arguments for the VHDL twin.
    fn vhdl_generics(&self) -> Vec<String> {
        vec![
            format!("--generic=RATE_RULES={}", self.rate_rules),
            format!("--generic=CONTROL={}", self.control),
            format!("--generic=TRACE_DEPTH={}", self.trace_depth),
        ]
    }
}

/// A (CLK_FREQ_HZ, LINE_RATE) set: the first of the file's at every beat width, the others at
/// 8-byte beats (spec 2: what K becomes at each is in its table).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Rates {
    suffix: String,
    clk_hz: u32,
    line_rate: u32,
    what: String,
}

/// The Verilator flags of every variant (beside its sources, prefix, directory and parameters).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Flags {
    common: Vec<String>,
    vhdl: Vec<String>,
    mutant: Vec<String>,
}

/// The flags of a variant of `hdl` (a mutant or not).
fn verilator_flags(flags: &Flags, hdl: Hdl, mutant: bool) -> Vec<String> {
    let mut f = flags.common.clone();
    if hdl == Hdl::Vhdl {
        f.extend(flags.vhdl.iter().cloned());
    }
    if mutant {
        f.extend(flags.mutant.iter().cloned());
    }
    f
}

fn main() {
    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = crate_dir
        .join("../..")
        .canonicalize()
        .expect("repository root");
    let rtl = root.join("rtl");
    let rtl_vhdl = rtl.join("vhdl");
    let wrapper = root.join("verilator/dcqcn_cosim_top.sv");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());

    println!("cargo:rerun-if-changed={}", rtl.display());
    println!("cargo:rerun-if-changed={}", rtl_vhdl.display());
    println!("cargo:rerun-if-changed={}", wrapper.display());
    // the VHDL twin's path to Verilog and the record fields its state assignments name
    println!(
        "cargo:rerun-if-changed={}",
        root.join(VHDL2VERILOG).display()
    );
    println!(
        "cargo:rerun-if-changed={}",
        root.join("testbench/vhdl/dcqcn_cosim_top_vhdl.vhd")
            .display()
    );
    println!("cargo:rerun-if-env-changed=GHDL");
    println!("cargo:rerun-if-env-changed=PYTHON");
    println!("cargo:rerun-if-changed=shim");
    println!(
        "cargo:rerun-if-changed={}",
        root.join("verilator/mutants").display()
    );
    println!("cargo:rerun-if-env-changed=DCQCN_WIDTHS");
    println!("cargo:rerun-if-env-changed=DCQCN_MQ_QPS");
    println!("cargo:rerun-if-env-changed=DCQCN_MUTANTS_DIR");
    println!("cargo:rerun-if-env-changed=DCQCN_MUTANT_RATES");
    println!("cargo:rerun-if-env-changed=DCQCN_MQ_MUTANT_QPS");

    let verilator = which_verilator();
    let vroot = verilator_root(&verilator);
    let variants_file = crate_dir.join("variants.toml");
    println!("cargo:rerun-if-changed={}", variants_file.display());
    let VariantsFile {
        rates,
        configs,
        flags,
    } = toml::from_str(&fs::read_to_string(&variants_file).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", variants_file.display()));

    let widths: Vec<u32> = env::var("DCQCN_WIDTHS")
        .unwrap_or_else(|_| "8,32,64".into())
        .split(',')
        .map(|w| {
            w.trim()
                .parse()
                .expect("DCQCN_WIDTHS: comma-separated beat widths")
        })
        .collect();
    let mut variants: Vec<Variant> = Vec::new();
    for (hdl, prefix, dir, what) in [
        (Hdl::Sv, "w", &rtl, "rtl/ as written"),
        (
            Hdl::Vhdl,
            "vhdl-w",
            &rtl_vhdl,
            "rtl/vhdl/ as written (ghdl --synth)",
        ),
    ] {
        for &w in &widths {
            for (k, r) in rates.iter().enumerate() {
                if k > 0 && w != 8 {
                    continue;
                }
                variants.push(Variant {
                    name: format!("{prefix}{w}{}", r.suffix),
                    data_bytes: w,
                    clk_hz: r.clk_hz,
                    line_rate: r.line_rate,
                    config: configs[0].clone(),
                    description: format!("{what}, {w}-byte beats, {}", r.what),
                    hdl,
                    rtl_dir: dir.clone(),
                    mutant: false,
                });
            }
        }
        // the other feature configurations at 8-byte beats and the first rate set
        if widths.contains(&8) {
            for c in &configs[1..] {
                variants.push(Variant {
                    name: format!("{prefix}8{}", c.suffix),
                    data_bytes: 8,
                    clk_hz: rates[0].clk_hz,
                    line_rate: rates[0].line_rate,
                    config: c.clone(),
                    description: format!("{what}, 8-byte beats, {}, {}", rates[0].what, c.what),
                    hdl,
                    rtl_dir: dir.clone(),
                    mutant: false,
                });
            }
        }
    }
    // The flags of the SystemVerilog variants, for the test that an illegal parameter stops them.
    println!(
        "cargo:rustc-env=DCQCN_VERILATOR_FLAGS={}",
        verilator_flags(&flags, Hdl::Sv, false).join(" ")
    );
    // the multi-QP block's mutants (built in its loop below, after its correct variants)
    let mut mq_mutants: Vec<MqVariant> = vec![];
    if env::var_os("CARGO_FEATURE_MUTANTS").is_some() {
        // `make mutants` points DCQCN_MUTANTS_DIR at its generated mutants (own target directory).
        let dir = env::var_os("DCQCN_MUTANTS_DIR")
            .map_or_else(|| root.join("verilator/mutants"), PathBuf::from);
        println!("cargo:rerun-if-changed={}", dir.display());
        println!("cargo:rerun-if-changed={}", dir.join("mq").display());
        variants.extend(mutant_variants(&dir, &rtl, &out, &rates, &configs[0]));
        mq_mutants = mq_mutant_variants(&dir.join("mq"), &rtl, &out, &rates[0]);
    }

    let mut build = cxx_build::bridges(["src/ffi.rs", "src/mq_ffi.rs"]);
    let mut cache = Cache::new(&verilator, &out);
    let mut registry = String::new();
    let mut headers = String::new();
    for v in &variants {
        let prefix = format!("Vdcqcn_{}", v.name.replace('-', "_"));
        let mdir = out.join(&prefix);
        // the inputs of this variant (its sources, the wrapper, the VHDL path) and its flags
        let feature_params = match v.hdl {
            Hdl::Sv => v.config.sv_params(),
            Hdl::Vhdl => vec![],
        };
        let mut flags = verilator_flags(&flags, v.hdl, v.mutant);
        flags.extend(["--top-module", "dcqcn_cosim_top", "--prefix", &prefix].map(String::from));
        flags.push(format!("-GDATA_BYTES={}", v.data_bytes));
        flags.push(format!("-GCLK_FREQ_HZ=32'd{}", v.clk_hz));
        flags.push(format!("-GLINE_RATE=32'd{}", v.line_rate));
        flags.extend(feature_params);
        let mut inputs = files_with(&v.rtl_dir, &["sv", "svh", "vhd"]);
        inputs.push(wrapper.clone());
        // what goes into the key besides the Verilator flags: the VHDL path's generics
        let mut also = vec![];
        if v.hdl == Hdl::Vhdl {
            inputs.push(root.join(VHDL2VERILOG));
            inputs.push(root.join("testbench/vhdl/dcqcn_cosim_top_vhdl.vhd"));
            also = v.config.vhdl_generics();
        }
        let key = cache.key(&[&flags[..], &also[..]].concat(), &inputs);
        if !cache.fresh(&prefix, &key) {
            let _ = fs::remove_dir_all(&mdir);
            // the sources and the include directory of this variant
            let (mut sources, include_dir) = match v.hdl {
                Hdl::Sv => (sv_files(&v.rtl_dir), v.rtl_dir.clone()),
                Hdl::Vhdl => {
                    let dir = out.join(format!("{prefix}_verilog"));
                    (vec![vhdl_to_verilog(&root, v, &dir)], dir)
                }
            };
            sources.push(wrapper.clone());
            let status = Command::new(&verilator)
                .args(&flags)
                .arg("--Mdir")
                .arg(&mdir)
                .arg(format!("-I{}", include_dir.display()))
                .args(&sources)
                .status()
                .expect("running verilator");
            assert!(
                status.success(),
                "\n\nverilator failed on variant {} (DATA_BYTES {}, CLK_FREQ_HZ {}, LINE_RATE {}): see its messages above\n",
                v.name,
                v.data_bytes,
                v.clk_hz,
                v.line_rate
            );
        }
        cache.want(&prefix, &mdir, key);
        build.include(&mdir);
        // The root class too: the shim reads the sampled registers from it directly.
        writeln!(headers, "#include \"{prefix}.h\"").unwrap();
        writeln!(headers, "#include \"{prefix}___024root.h\"").unwrap();
        writeln!(
            registry,
            "DCQCN_VARIANT({prefix}, \"{}\", {}, {}u, {}u, {}, {}, {}u, \"{}\")",
            v.name,
            v.data_bytes,
            v.clk_hz,
            v.line_rate,
            v.config.rate_rules,
            v.config.control,
            v.config.trace_depth,
            v.description.replace('"', "'")
        )
        .unwrap();
    }
    // The multi-QP block (docs/spec-mq.md): dcqcn_mq_core of each HDL at each QPS.
    let mut mq_registry = String::new();
    let mut mq_headers = String::new();
    let mq_wrapper = root.join("verilator/dcqcn_mq_cosim_top.sv");
    println!("cargo:rerun-if-changed={}", mq_wrapper.display());
    for f in MQ_DECLARATIONS {
        println!("cargo:rerun-if-changed={}", root.join(f).display());
    }
    for v in mq_variants(&root, &rates[0]).into_iter().chain(mq_mutants) {
        let mdir = out.join(&v.prefix);
        let mut flags = verilator_flags(&flags, v.hdl, v.mutant);
        // the lockstep wrapper (state injection and memory dumps, spec-mq 8.2, 8.3) around the core
        flags.extend(
            ["--top-module", "dcqcn_mq_cosim_top", "--prefix", &v.prefix].map(String::from),
        );
        flags.push(format!("-GQPS={}", v.qps));
        let mut inputs = files_with(&v.src, &["sv", "svh", "vhd"]);
        // the wrapper, and what its generated dcqcn_mq_inject.svh is made from
        inputs.extend([mq_wrapper.clone(), root.join(VHDL2VERILOG)]);
        inputs.extend(MQ_DECLARATIONS.iter().map(|f| root.join(f)));
        let mut also = vec![];
        if v.hdl == Hdl::Sv {
            flags.push(format!("-GCLK_FREQ_HZ=32'd{}", v.clk_hz));
            flags.push(format!("-GLINE_RATE=32'd{}", v.line_rate));
            inputs.extend(files_with(&rtl, &["svh"]));
        } else {
            // the generics (ghdl --synth fixes them in the Verilog)
            also.push(format!("{} {} {}", v.qps, v.clk_hz, v.line_rate));
        }
        let key = cache.key(&[&flags[..], &also[..]].concat(), &inputs);
        if !cache.fresh(&v.prefix, &key) {
            let _ = fs::remove_dir_all(&mdir);
            // the sources, and the directory of the variant's generated dcqcn_mq_inject.svh
            let (mut sources, include_dir) = match v.hdl {
                Hdl::Sv => {
                    let dir = out.join(format!("{}_inject", v.prefix));
                    mq_sv_inject(&root, &v, &dir);
                    (mq_sv_files(&v.src), dir)
                }
                Hdl::Vhdl => {
                    let dir = out.join(format!("{}_verilog", v.prefix));
                    (vec![mq_vhdl_to_verilog(&root, &v, &dir)], dir)
                }
            };
            sources.push(mq_wrapper.clone());
            let status = Command::new(&verilator)
                .args(&flags)
                .arg("--Mdir")
                .arg(&mdir)
                .arg(format!("-I{}", include_dir.display()))
                .arg(format!("-I{}", v.src.display()))
                .arg(format!("-I{}", rtl.display()))
                .args(&sources)
                .status()
                .expect("running verilator");
            assert!(
                status.success(),
                "\n\nverilator failed on variant {} (QPS {}): see its messages above\n",
                v.name,
                v.qps
            );
        }
        cache.want(&v.prefix, &mdir, key);
        build.include(&mdir);
        writeln!(mq_headers, "#include \"{}.h\"", v.prefix).unwrap();
        writeln!(
            mq_registry,
            "DCQCN_MQ_VARIANT({}, \"{}\", {}, {}u, {}u, {}u)",
            v.prefix,
            v.name,
            v.hdl == Hdl::Vhdl,
            v.qps,
            v.clk_hz,
            v.line_rate
        )
        .unwrap();
    }
    fs::write(out.join("dcqcn_mq_variants.inc"), mq_registry).unwrap();
    fs::write(out.join("dcqcn_mq_variant_headers.inc"), mq_headers).unwrap();
    for obj in cache.objects(&vroot, &crate_dir) {
        build.object(obj);
    }
    fs::write(out.join("dcqcn_variants.inc"), registry).unwrap();
    fs::write(out.join("dcqcn_variant_headers.inc"), headers).unwrap();

    build
        .file("shim/dcqcn_shim.cpp")
        .file("shim/dcqcn_mq_shim.cpp")
        .file(vroot.join("include/verilated.cpp"))
        .file(vroot.join("include/verilated_threads.cpp"))
        .include(&out)
        .include(vroot.join("include"))
        .include(vroot.join("include/vltstd"))
        .include(&crate_dir)
        .std("c++17")
        .opt_level(2)
        .warnings(false)
        .flag_if_supported("-faligned-new")
        .flag_if_supported("-fno-strict-aliasing")
        .compile("dcqcn_verilated");
    println!("cargo:rustc-link-lib=pthread");
}

/// The script that turns the VHDL twin into Verilog (relative to the repository root).
const VHDL2VERILOG: &str = "scripts/vhdl2verilog.py";

/// `ghdl --synth` of the VHDL of variant `v` with its generics, into `dir`: dcqcn_rl.v (returned),
/// the wrapper's state assignments dcqcn_cosim_state.svh and its state injection
/// dcqcn_cosim_inject.svh. An illegal generic stops it with the twin's own assertion message.
fn vhdl_to_verilog(root: &Path, v: &Variant, dir: &Path) -> PathBuf {
    let (src, data_bytes) = (&v.rtl_dir, v.data_bytes);
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).unwrap();
    let python = env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let ghdl = env::var("GHDL").unwrap_or_else(|_| "ghdl".into());
    let verilog = dir.join("dcqcn_rl.v");
    let result = Command::new(&python)
        .arg(root.join(VHDL2VERILOG))
        .arg(format!("--data-bytes={data_bytes}"))
        .arg(format!("--clk-freq-hz={}", v.clk_hz))
        .arg(format!("--line-rate={}", v.line_rate))
        .args(v.config.vhdl_generics())
        .arg("--src")
        .arg(src)
        .arg("--out")
        .arg(&verilog)
        .arg("--state")
        .arg(dir.join("dcqcn_cosim_state.svh"))
        .arg("--inject")
        .arg(dir.join("dcqcn_cosim_inject.svh"))
        .arg("--ghdl")
        .arg(&ghdl)
        .output();
    match result {
        Ok(o) if o.status.success() => verilog,
        Ok(o) => panic!(
            "\n\n{VHDL2VERILOG} failed on {} ({data_bytes}-byte beats):\n{}\n",
            src.display(),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!(
            "\n\ncannot run {python} {VHDL2VERILOG}: {e}. Install Python 3 and GHDL with `make deps`.\n"
        ),
    }
}

/// Each variant's Verilated C++ compiled to one object file (one translation unit: a file that
/// includes the variant's .cpp files in name order, so the C++ compiler parses Verilator's headers
/// once instead of once per file, 9.6 s -> 2.6 s of compiler CPU per variant, and inlines across
/// them), kept in OUT_DIR beside a key of everything it was built from: the Verilator version, the
/// flags and parameters, and the contents of every input file. A variant whose key is unchanged is
/// neither verilated nor compiled again, so a change to one block's RTL (rtl/mq/, say, which
/// `rerun-if-changed` of rtl/ covers) rebuilds only that block's variants.
struct Cache {
    out: PathBuf,
    version: String,
    /// (prefix, Verilator output directory, key) of the variants to compile
    stale: Vec<(String, PathBuf, String)>,
    /// the object file of every variant wanted, in order
    objects: Vec<PathBuf>,
}

impl Cache {
    fn new(verilator: &Path, out: &Path) -> Cache {
        let o = Command::new(verilator).arg("--version").output().unwrap();
        Cache {
            out: out.to_path_buf(),
            version: String::from_utf8_lossy(&o.stdout).into_owned(),
            stale: vec![],
            objects: vec![],
        }
    }

    /// The key of a variant built with `flags` from `inputs`.
    fn key(&self, flags: &[String], inputs: &[PathBuf]) -> String {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.version.hash(&mut h);
        flags.hash(&mut h);
        for f in inputs {
            f.hash(&mut h);
            fs::read(f)
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()))
                .hash(&mut h);
        }
        format!("{:016x}", h.finish())
    }

    fn object(&self, prefix: &str) -> PathBuf {
        self.out.join(format!("{prefix}.o"))
    }

    fn key_file(&self, prefix: &str) -> PathBuf {
        self.out.join(format!("{prefix}.key"))
    }

    /// Whether the variant `prefix` was built with `key` and its object and headers are there.
    fn fresh(&self, prefix: &str, key: &str) -> bool {
        fs::read_to_string(self.key_file(prefix)).is_ok_and(|k| k == key)
            && self.object(prefix).is_file()
            && self.out.join(prefix).is_dir()
    }

    /// The variant `prefix` goes into the library: its cached object, or (when not fresh) the
    /// Verilator output in `mdir` compiled by [`Cache::objects`].
    fn want(&mut self, prefix: &str, mdir: &Path, key: String) {
        if !self.fresh(prefix, &key) {
            let _ = fs::remove_file(self.key_file(prefix));
            self.stale
                .push((prefix.to_string(), mdir.to_path_buf(), key));
        }
        self.objects.push(self.object(prefix));
    }

    /// Compiles the stale variants, as many at once as cargo gives the build script jobs
    /// (`NUM_JOBS`), recording each one's key as soon as its object is there (an interrupted build
    /// keeps what it finished), and returns every wanted variant's object file. A variant of more
    /// than 8 MB of C++ (the VHDL twin's flattened netlist at QPS 1024) is compiled at -O1: -O2
    /// takes its compiler more than 15 minutes.
    fn objects(self, vroot: &Path, crate_dir: &Path) -> Vec<PathBuf> {
        let jobs: usize = env::var("NUM_JOBS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(1)
            .max(1);
        let next = std::sync::atomic::AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..jobs.min(self.stale.len()) {
                scope.spawn(|| loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((prefix, mdir, key)) = self.stale.get(n) else {
                        break;
                    };
                    self.compile_one(prefix, mdir, key, vroot, crate_dir);
                });
            }
        });
        self.objects
    }

    /// One stale variant: its Verilator output as one translation unit, compiled, its object and
    /// key stored.
    fn compile_one(&self, prefix: &str, mdir: &Path, key: &str, vroot: &Path, crate_dir: &Path) {
        let mut parts: Vec<PathBuf> = fs::read_dir(mdir)
            .unwrap()
            .map(|f| f.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "cpp"))
            .collect();
        parts.sort();
        let size: u64 = parts
            .iter()
            .map(|p| fs::metadata(p).map_or(0, |m| m.len()))
            .sum();
        let unity = self.out.join(format!("{prefix}__all.cpp"));
        let text: String = parts
            .iter()
            .map(|p| format!("#include \"{}\"\n", p.display()))
            .collect();
        fs::write(&unity, text).unwrap();
        let obj = cc::Build::new()
            .cpp(true)
            .include(vroot.join("include"))
            .include(vroot.join("include/vltstd"))
            .include(crate_dir)
            .include(mdir)
            .std("c++17")
            .opt_level(if size > 8 << 20 { 1 } else { 2 })
            .warnings(false)
            .flag_if_supported("-faligned-new")
            .flag_if_supported("-fno-strict-aliasing")
            .file(unity)
            .compile_intermediates();
        fs::copy(&obj[0], self.object(prefix)).unwrap();
        fs::write(self.key_file(prefix), key).unwrap();
    }
}

/// A Verilated `dcqcn_mq_core` (docs/spec-mq.md) of one HDL at one QPS.
struct MqVariant {
    name: String,
    prefix: String,
    hdl: Hdl,
    /// rtl/mq/ or rtl/vhdl/mq/
    src: PathBuf,
    qps: u32,
    clk_hz: u32,
    line_rate: u32,
    /// a mutant (`mut_<name>`): built with the mutant flags of variants.toml
    mutant: bool,
}

/// The multi-QP block's variants `mq-q<QPS>` (rtl/mq/) and `mq-vhdl-q<QPS>` (rtl/vhdl/mq/) at the
/// QPS values of DCQCN_MQ_QPS (default 4, 64: what `make test` runs; `make cosim` adds 1024; empty:
/// none) and the first rate set; an HDL
/// whose directory does not exist has none.
fn mq_variants(root: &Path, rates: &Rates) -> Vec<MqVariant> {
    let qps: Vec<u32> = env::var("DCQCN_MQ_QPS")
        .unwrap_or_else(|_| "4,64".into())
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|q| q.parse().expect("DCQCN_MQ_QPS: comma-separated QPS values"))
        .collect();
    let mut v = vec![];
    for (hdl, dir, stem) in [
        (Hdl::Sv, root.join("rtl/mq"), "mq"),
        (Hdl::Vhdl, root.join("rtl/vhdl/mq"), "mq-vhdl"),
    ] {
        if !dir.is_dir() {
            continue;
        }
        for &q in &qps {
            let name = format!("{stem}-q{q}");
            v.push(MqVariant {
                prefix: format!("V{}", name.replace('-', "_")),
                name,
                hdl,
                src: dir.clone(),
                qps: q,
                clk_hz: rates.clk_hz,
                line_rate: rates.line_rate,
                mutant: false,
            });
        }
    }
    v
}

/// The SystemVerilog of dcqcn_mq, packages first (Verilator needs a package before its import).
fn mq_sv_files(dir: &Path) -> Vec<PathBuf> {
    let mut f = sv_files(dir);
    f.sort_by_key(|p| !p.to_string_lossy().ends_with("_pkg.sv"));
    f
}

/// The model's declarations the multi-QP wrapper's injection and memory dumps are generated from
/// (scripts/vhdl2verilog.py reads them): the observed state and bitmaps, the memories and copies.
const MQ_DECLARATIONS: [&str; 2] = [
    "crates/dcqcn-model/src/mq/obs.rs",
    "crates/dcqcn-model/src/mq/mem.rs",
];

/// The SystemVerilog variant's dcqcn_mq_inject.svh (state injection and memory dumps of
/// verilator/dcqcn_mq_cosim_top.sv, spec-mq 8.2, 8.3) into `dir`: `vhdl2verilog.py --sv-inject`,
/// each register found where its module in the variant's sources assigns it.
fn mq_sv_inject(root: &Path, v: &MqVariant, dir: &Path) {
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).unwrap();
    let python = env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let result = Command::new(&python)
        .arg(root.join(VHDL2VERILOG))
        .args(["--top", "dcqcn_mq_core"])
        .arg(format!("--qps={}", v.qps))
        .arg("--src")
        .arg(&v.src)
        .arg("--sv-inject")
        .arg(dir.join("dcqcn_mq_inject.svh"))
        .output();
    match result {
        Ok(o) if o.status.success() => {}
        Ok(o) => panic!(
            "\n\n{VHDL2VERILOG} --sv-inject failed on {} (QPS {}):\n{}\n",
            v.src.display(),
            v.qps,
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!("\n\ncannot run {python} {VHDL2VERILOG}: {e}. Install Python 3.\n"),
    }
}

/// `ghdl --synth` of the VHDL twin's `dcqcn_mq_core` at the variant's generics, into `dir`, with
/// the wrapper's dcqcn_mq_inject.svh beside it (`--inject`).
fn mq_vhdl_to_verilog(root: &Path, v: &MqVariant, dir: &Path) -> PathBuf {
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).unwrap();
    let python = env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let ghdl = env::var("GHDL").unwrap_or_else(|_| "ghdl".into());
    let verilog = dir.join("dcqcn_mq_core.v");
    let result = Command::new(&python)
        .arg(root.join(VHDL2VERILOG))
        .args(["--top", "dcqcn_mq_core"])
        .arg(format!("--qps={}", v.qps))
        .arg(format!("--clk-freq-hz={}", v.clk_hz))
        .arg(format!("--line-rate={}", v.line_rate))
        .arg("--src")
        .arg(&v.src)
        .arg("--out")
        .arg(&verilog)
        .arg("--inject")
        .arg(dir.join("dcqcn_mq_inject.svh"))
        .arg("--ghdl")
        .arg(&ghdl)
        .output();
    match result {
        Ok(o) if o.status.success() => verilog,
        Ok(o) => panic!(
            "\n\n{VHDL2VERILOG} failed on {} (QPS {}):\n{}\n",
            v.src.display(),
            v.qps,
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => panic!(
            "\n\ncannot run {python} {VHDL2VERILOG}: {e}. Install Python 3 and GHDL with `make deps`.\n"
        ),
    }
}

fn which_verilator() -> PathBuf {
    let v = env::var_os("VERILATOR")
        .map(PathBuf::from)
        .unwrap_or_else(|| "verilator".into());
    match Command::new(&v).arg("--version").output() {
        Ok(o) if o.status.success() => v,
        _ => panic!(
            "\n\nVerilator not found ({}). Install it with `make deps` (apt-get install verilator, as root), \
             or set VERILATOR=/path/to/verilator.\n",
            v.display()
        ),
    }
}

fn verilator_root(verilator: &Path) -> PathBuf {
    let o = Command::new(verilator)
        .args(["--getenv", "VERILATOR_ROOT"])
        .output()
        .unwrap();
    PathBuf::from(String::from_utf8(o.stdout).unwrap().trim())
}

/// The files of `dir` whose extension is one of `exts`, sorted.
fn files_with(dir: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| exts.iter().any(|x| e == *x)))
        .collect();
    v.sort();
    v
}

/// The RTL sources to compile (the `.svh` includes are found through `-I`).
fn sv_files(dir: &Path) -> Vec<PathBuf> {
    files_with(dir, &["sv"])
}

/// Copies rtl/ (a mutant of a `.sv`/`.svh` file) or rtl/vhdl/ (a mutant of `vhdl/<file>.vhd`) per
/// mutant and applies its one textual change; the change must match exactly once. Each mutant is
/// built at 10 GbE (`mut_<name>`) and, for each rate set named in DCQCN_MUTANT_RATES (comma
/// separated: `1g`, `25g`, `lmax`; `make mutants` sets it), also as `mut_<name>-<rates>`, so that
/// a fuzz campaign on the mutant can run its cases at their own rates (`dcqcn fuzz --variant`).
fn mutant_variants(
    dir: &Path,
    rtl: &Path,
    out: &Path,
    all_rates: &[Rates],
    config: &FeatureConfig,
) -> Vec<Variant> {
    let rates: Vec<&Rates> = env::var("DCQCN_MUTANT_RATES")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            all_rates
                .iter()
                .skip(1)
                .find(|r| r.suffix == format!("-{s}"))
                .unwrap_or_else(|| {
                    panic!("DCQCN_MUTANT_RATES: unknown rate set `{s}` (1g, 25g, lmax)")
                })
        })
        .collect();
    let mut files: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(rd) => rd
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect(),
        Err(_) => return vec![],
    };
    files.sort();
    files
        .iter()
        .flat_map(|f| {
            let name = f.file_stem().unwrap().to_string_lossy().replace('-', "_");
            let m: Mutant = toml::from_str(&fs::read_to_string(f).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            let (hdl, src_dir, exts): (Hdl, PathBuf, &[&str]) = if m.file.ends_with(".vhd") {
                (Hdl::Vhdl, rtl.join("vhdl"), &["vhd"])
            } else {
                (Hdl::Sv, rtl.to_path_buf(), &["sv", "svh"])
            };
            let mdir = out.join(format!("rtl_mut_{name}"));
            let _ = fs::remove_dir_all(&mdir);
            fs::create_dir_all(&mdir).unwrap();
            // sources and their includes (the copy is the variant's source directory)
            for src in files_with(&src_dir, exts) {
                fs::copy(&src, mdir.join(src.file_name().unwrap())).unwrap();
            }
            let target = mdir.join(Path::new(&m.file).file_name().unwrap());
            let text = fs::read_to_string(&target)
                .unwrap_or_else(|e| panic!("{}: {}: {e}", f.display(), m.file));
            let hits = text.matches(&m.find).count();
            assert!(
                hits == 1,
                "{}: `find` matches {hits} times in {} (must be exactly once)",
                f.display(),
                m.file
            );
            fs::write(&target, text.replacen(&m.find, &m.replace, 1)).unwrap();
            std::iter::once(&all_rates[0])
                .chain(rates.iter().copied())
                .map(|r| Variant {
                    name: format!("mut_{name}{}", r.suffix),
                    data_bytes: 8,
                    clk_hz: r.clk_hz,
                    line_rate: r.line_rate,
                    config: config.clone(),
                    description: if r.suffix.is_empty() {
                        m.description.clone()
                    } else {
                        format!("{}, {}", m.description, r.what)
                    },
                    hdl,
                    rtl_dir: mdir.clone(),
                    mutant: true,
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The multi-QP block's mutants (feature `mutants`): each `<dir>/*.toml` (verilator/mutants/mq/, or
/// the `mq/` of a campaign of scripts/mutants.py) whose `file` is `mq/<file>.sv` (the
/// SystemVerilog, rtl/mq/) or `vhdl/mq/<file>.vhd` (the twin, rtl/vhdl/mq/) gets a copy of that
/// directory with its one change (matching exactly once), built as `dcqcn_mq_core` at QPS 4
/// (`mut_<name>`) and at each further QPS of DCQCN_MQ_MUTANT_QPS (comma separated, default 4) as
/// `mut_<name>-q<QPS>`, chosen by name: `dcqcn cosim --block mq --variant mut_<name>`.
fn mq_mutant_variants(dir: &Path, rtl: &Path, out: &Path, rates: &Rates) -> Vec<MqVariant> {
    let mut qps: Vec<u32> = env::var("DCQCN_MQ_MUTANT_QPS")
        .unwrap_or_else(|_| "4".into())
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|q| {
            q.parse()
                .expect("DCQCN_MQ_MUTANT_QPS: comma-separated QPS values")
        })
        .collect();
    if !qps.contains(&4) {
        qps.insert(0, 4);
    }
    let mut files: Vec<PathBuf> = match fs::read_dir(dir) {
        Ok(rd) => rd
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "toml"))
            .collect(),
        Err(_) => return vec![],
    };
    files.sort();
    let mut v = vec![];
    for f in &files {
        let name = f.file_stem().unwrap().to_string_lossy().replace('-', "_");
        let m: Mutant = toml::from_str(&fs::read_to_string(f).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let (hdl, src_dir) = if m.file.starts_with("vhdl/mq/") && m.file.ends_with(".vhd") {
            (Hdl::Vhdl, rtl.join("vhdl/mq"))
        } else if m.file.starts_with("mq/") && m.file.ends_with(".sv") {
            (Hdl::Sv, rtl.join("mq"))
        } else {
            panic!(
                "{}: `file` = {:?}: a multi-QP mutant changes mq/<file>.sv or vhdl/mq/<file>.vhd",
                f.display(),
                m.file
            )
        };
        let mdir = out.join(format!("rtl_mq_mut_{name}"));
        let _ = fs::remove_dir_all(&mdir);
        fs::create_dir_all(&mdir).unwrap();
        for src in files_with(&src_dir, &["sv", "svh", "vhd"]) {
            fs::copy(&src, mdir.join(src.file_name().unwrap())).unwrap();
        }
        let target = mdir.join(Path::new(&m.file).file_name().unwrap());
        let text = fs::read_to_string(&target)
            .unwrap_or_else(|e| panic!("{}: {}: {e}", f.display(), m.file));
        let hits = text.matches(&m.find).count();
        assert!(
            hits == 1,
            "{}: `find` matches {hits} times in {} (must be exactly once)",
            f.display(),
            m.file
        );
        fs::write(&target, text.replacen(&m.find, &m.replace, 1)).unwrap();
        for &q in &qps {
            let vname = if q == 4 {
                format!("mut_{name}")
            } else {
                format!("mut_{name}-q{q}")
            };
            v.push(MqVariant {
                prefix: format!("Vmq_{}", vname.replace('-', "_")),
                name: vname,
                hdl,
                src: mdir.clone(),
                qps: q,
                clk_hz: rates.clk_hz,
                line_rate: rates.line_rate,
                mutant: true,
            });
        }
    }
    v
}
