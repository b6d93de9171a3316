//! Verilates the RTL once per variant (beat widths 8/32/64 and, with feature `mutants`, each
//! deliberately defective copy from verilator/mutants/) and compiles it with the C++ shim.

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

struct Variant {
    name: String,
    data_bytes: u32,
    description: String,
    rtl_dir: PathBuf,
}

fn main() {
    let crate_dir = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = crate_dir
        .join("../..")
        .canonicalize()
        .expect("repository root");
    let rtl = root.join("rtl");
    let wrapper = root.join("verilator/dcqcn_cosim_top.sv");
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());

    println!("cargo:rerun-if-changed={}", rtl.display());
    println!("cargo:rerun-if-changed={}", wrapper.display());
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
            rtl_dir: rtl.clone(),
        })
        .collect();
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
        let prefix = format!("Vdcqcn_{}", v.name);
        let mdir = out.join(&prefix);
        let _ = fs::remove_dir_all(&mdir);
        let mut sources: Vec<PathBuf> = sv_files(&v.rtl_dir);
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
            .arg("--Mdir")
            .arg(&mdir)
            .arg(format!("-I{}", v.rtl_dir.display()))
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

/// Copies rtl/ per mutant and applies its one textual change; the change must match exactly once.
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
            let mdir = out.join(format!("rtl_mut_{name}"));
            let _ = fs::remove_dir_all(&mdir);
            fs::create_dir_all(&mdir).unwrap();
            // sources and their includes (the copy is the variant's `-I` directory)
            for src in files_with(rtl, &["sv", "svh"]) {
                fs::copy(&src, mdir.join(src.file_name().unwrap())).unwrap();
            }
            let target = mdir.join(&m.file);
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
                rtl_dir: mdir,
            }
        })
        .collect()
}
