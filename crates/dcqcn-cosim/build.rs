//! Verilates the RTL once per variant and compiles it with the C++ shim. Variants: the
//! SystemVerilog at beat widths 8/32/64 (`w8`...), the VHDL twin through `ghdl --synth` at the same
//! widths (`vhdl-w8`...), and with feature `mutants` each deliberately defective copy from
//! verilator/mutants/ (of the SV or of the VHDL, by the mutated file's extension).

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
    description: String,
    hdl: Hdl,
    /// rtl/ or rtl/vhdl/, or a mutated copy of either
    rtl_dir: PathBuf,
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
    println!("cargo:rerun-if-env-changed=DCQCN_MUTANTS_DIR");

    let verilator = which_verilator();
    let vroot = verilator_root(&verilator);

    let widths: Vec<u32> = env::var("DCQCN_WIDTHS")
        .unwrap_or_else(|_| "8,32,64".into())
        .split(',')
        .map(|w| {
            w.trim()
                .parse()
                .expect("DCQCN_WIDTHS: comma-separated beat widths")
        })
        .collect();
    let mut variants: Vec<Variant> = widths
        .iter()
        .map(|&w| Variant {
            name: format!("w{w}"),
            data_bytes: w,
            description: format!("rtl/ as written, {w}-byte beats"),
            hdl: Hdl::Sv,
            rtl_dir: rtl.clone(),
        })
        .collect();
    variants.extend(widths.iter().map(|&w| Variant {
        name: format!("vhdl-w{w}"),
        data_bytes: w,
        description: format!("rtl/vhdl/ as written (ghdl --synth), {w}-byte beats"),
        hdl: Hdl::Vhdl,
        rtl_dir: rtl_vhdl.clone(),
    }));
    if env::var_os("CARGO_FEATURE_MUTANTS").is_some() {
        // `make mutants` points DCQCN_MUTANTS_DIR at its generated mutants (own target directory).
        let dir = env::var_os("DCQCN_MUTANTS_DIR")
            .map_or_else(|| root.join("verilator/mutants"), PathBuf::from);
        println!("cargo:rerun-if-changed={}", dir.display());
        variants.extend(mutant_variants(&dir, &rtl, &out));
    }

    let mut build = cxx_build::bridge("src/ffi.rs");
    let mut registry = String::new();
    let mut headers = String::new();
    for v in &variants {
        let prefix = format!("Vdcqcn_{}", v.name.replace('-', "_"));
        let mdir = out.join(&prefix);
        let _ = fs::remove_dir_all(&mdir);
        // the sources, the include directory and the defines of this variant
        let (mut sources, include_dir, defines) = match v.hdl {
            Hdl::Sv => (sv_files(&v.rtl_dir), v.rtl_dir.clone(), vec![]),
            Hdl::Vhdl => {
                let dir = out.join(format!("{prefix}_verilog"));
                (
                    vec![vhdl_to_verilog(&root, &v.rtl_dir, v.data_bytes, &dir)],
                    dir,
                    vec!["-DDCQCN_VHDL_TWIN"],
                )
            }
        };
        sources.push(wrapper.clone());
        let status = Command::new(&verilator)
            .args([
                "--cc",
                "--no-timing",
                "-O3",
                "--x-assign",
                "fast",
                // Initial register values come from the context's randReset setting at
                // construction (zeros unless a run asks for random ones); no runtime cost.
                "--x-initial",
                "unique",
            ])
            .args([
                "-Wno-fatal",
                "--top-module",
                "dcqcn_cosim_top",
                "--prefix",
                &prefix,
            ])
            .arg(format!("-GDATA_BYTES={}", v.data_bytes))
            .args(&defines)
            .arg("--Mdir")
            .arg(&mdir)
            .arg(format!("-I{}", include_dir.display()))
            .args(&sources)
            .status()
            .expect("running verilator");
        assert!(status.success(), "verilator failed on variant {}", v.name);
        for f in fs::read_dir(&mdir).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "cpp") {
                build.file(p);
            }
        }
        build.include(&mdir);
        writeln!(headers, "#include \"{prefix}.h\"").unwrap();
        writeln!(
            registry,
            "DCQCN_VARIANT({prefix}, \"{}\", {}, \"{}\")",
            v.name,
            v.data_bytes,
            v.description.replace('"', "'")
        )
        .unwrap();
    }
    fs::write(out.join("dcqcn_variants.inc"), registry).unwrap();
    fs::write(out.join("dcqcn_variant_headers.inc"), headers).unwrap();

    build
        .file("shim/dcqcn_shim.cpp")
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

/// `ghdl --synth` of the VHDL in `src` at `data_bytes`, into `dir`: dcqcn_rl.v (returned) and the
/// wrapper's state assignments dcqcn_cosim_state.svh.
fn vhdl_to_verilog(root: &Path, src: &Path, data_bytes: u32, dir: &Path) -> PathBuf {
    let _ = fs::remove_dir_all(dir);
    fs::create_dir_all(dir).unwrap();
    let python = env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let ghdl = env::var("GHDL").unwrap_or_else(|_| "ghdl".into());
    let verilog = dir.join("dcqcn_rl.v");
    let result = Command::new(&python)
        .arg(root.join(VHDL2VERILOG))
        .arg(format!("--data-bytes={data_bytes}"))
        .arg("--src")
        .arg(src)
        .arg("--out")
        .arg(&verilog)
        .arg("--state")
        .arg(dir.join("dcqcn_cosim_state.svh"))
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
/// mutant and applies its one textual change; the change must match exactly once.
fn mutant_variants(dir: &Path, rtl: &Path, out: &Path) -> Vec<Variant> {
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
        .map(|f| {
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
            Variant {
                name: format!("mut_{name}"),
                data_bytes: 8,
                description: m.description,
                hdl,
                rtl_dir: mdir,
            }
        })
        .collect()
}
