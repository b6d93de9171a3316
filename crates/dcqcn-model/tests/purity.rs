//! The model crate stays pure (crate doc, issue "a pure model crate"): no I/O, no FFI, no threads,
//! no clocks, no randomness, and no dependency that brings any of them. Checked on the sources and
//! the manifest, so a new `use std::fs` or a new dependency fails here before review.
//!
//! The sources are parsed (`syn`), not grepped: every `use` tree is flattened to its full paths
//! (groups, `self`, renames, globs, a leading `::`), every path in an expression, type or pattern is
//! read with the names a `use` gave its root (`use std as s; s::fs::read`), and the tokens of
//! every macro call and `macro_rules!` body are scanned for the same paths, as are `unsafe`,
//! `extern` blocks and ABIs, and the printing macros.

use std::collections::BTreeMap;
use std::path::Path;
use syn::visit::Visit;

/// Dependencies the model may use: bit packing, integer traits, error derive, serde derive.
const ALLOWED_DEPENDENCIES: &[&str] = &["bitvec", "num-traits", "thiserror", "serde"];

/// The crates whose modules below mean I/O, FFI, threads, time or process state.
const ROOTS: &[&str] = &["std", "core", "alloc"];
/// Modules of [`ROOTS`] whose use means I/O, threads, time or process state.
const FORBIDDEN_MODULES: &[&str] = &[
    "fs", "io", "net", "process", "thread", "env", "time", "sync", "os", "ffi",
];
/// Macros that write to the process's output streams.
const FORBIDDEN_MACROS: &[&str] = &["println", "eprintln", "print", "eprint", "dbg"];

fn dependencies(manifest: &str) -> Vec<String> {
    let mut in_deps = false;
    let mut deps = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            in_deps = line == "[dependencies]";
            continue;
        }
        if in_deps && !line.is_empty() && !line.starts_with('#') {
            if let Some((name, _)) = line.split_once(['=', '.']) {
                deps.push(name.trim().to_string());
            }
        }
    }
    deps
}

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("source is UTF-8");
            out.push((path.display().to_string(), text));
        }
    }
}

/// The full paths a `use` tree brings in, each with the name it is known by (`None` for a glob).
fn flatten(prefix: &[String], tree: &syn::UseTree, out: &mut Vec<(Vec<String>, Option<String>)>) {
    let with = |name: String| {
        let mut p = prefix.to_vec();
        p.push(name);
        p
    };
    match tree {
        syn::UseTree::Path(p) => flatten(&with(p.ident.to_string()), &p.tree, out),
        syn::UseTree::Name(n) if n.ident == "self" => {
            out.push((prefix.to_vec(), prefix.last().cloned()));
        }
        syn::UseTree::Name(n) => out.push((with(n.ident.to_string()), Some(n.ident.to_string()))),
        syn::UseTree::Rename(r) if r.ident == "self" => {
            out.push((prefix.to_vec(), Some(r.rename.to_string())));
        }
        syn::UseTree::Rename(r) => {
            out.push((with(r.ident.to_string()), Some(r.rename.to_string())));
        }
        syn::UseTree::Glob(_) => out.push((prefix.to_vec(), None)),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                flatten(prefix, t, out);
            }
        }
    }
}

/// `path` is a forbidden module of a root, or inside one.
fn forbidden(path: &[String]) -> bool {
    path.len() >= 2
        && ROOTS.contains(&path[0].as_str())
        && FORBIDDEN_MODULES.contains(&path[1].as_str())
}

/// The walk over one file: what `use` named each root-level alias, and what it found.
#[derive(Default)]
struct Purity {
    /// Names bound by `use` or `extern crate` to a path that is a root or a prefix of a forbidden
    /// path (`use std as s`, `use std::{self as s}`, `extern crate core as c`).
    aliases: BTreeMap<String, Vec<String>>,
    found: Vec<String>,
}

impl Purity {
    /// `path` with its first segment read through the aliases.
    fn resolve(&self, path: &[String]) -> Vec<String> {
        match path.first().and_then(|f| self.aliases.get(f)) {
            Some(to) => to.iter().chain(&path[1..]).cloned().collect(),
            None => path.to_vec(),
        }
    }

    fn check_path(&mut self, what: &str, path: &[String]) {
        let full = self.resolve(path);
        if forbidden(&full) {
            self.found.push(format!("{what} `{}`", full.join("::")));
        }
    }

    /// The tokens of a macro, flattened (groups opened), each as its text.
    fn words(tokens: proc_macro2::TokenStream, out: &mut Vec<String>) {
        for t in tokens {
            match t {
                proc_macro2::TokenTree::Group(g) => Self::words(g.stream(), out),
                other => out.push(other.to_string()),
            }
        }
    }

    /// Forbidden paths, `unsafe` and `extern` written in a macro's tokens (not parsed by syn).
    fn check_tokens(&mut self, what: &str, tokens: proc_macro2::TokenStream) {
        let mut w = Vec::new();
        Self::words(tokens, &mut w);
        for (i, word) in w.iter().enumerate() {
            if word == "unsafe" || word == "extern" {
                self.found.push(format!("`{word}` in the tokens of {what}"));
                continue;
            }
            // A path: ident (:: ident)*, started where the previous token is not `::`'s colon.
            if i > 0 && w[i - 1] == ":" {
                continue;
            }
            let mut path = vec![word.clone()];
            let mut k = i + 1;
            let colon = |j: usize| w.get(j).map(String::as_str) == Some(":");
            while colon(k) && colon(k + 1) {
                match w.get(k + 2) {
                    Some(next) => path.push(next.clone()),
                    None => break,
                }
                k += 3;
            }
            if path.len() >= 2 {
                self.check_path(&format!("in the tokens of {what}, path"), &path);
            }
        }
    }
}

fn segments(path: &syn::Path) -> Vec<String> {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

impl<'ast> Visit<'ast> for Purity {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut paths = Vec::new();
        flatten(&[], &u.tree, &mut paths);
        for (path, name) in paths {
            if let Some(name) = name {
                if path.len() <= 1 && ROOTS.contains(&path.first().map_or("", |s| s.as_str())) {
                    self.aliases.insert(name, path.clone());
                }
            }
            self.check_path("use", &path);
        }
    }

    fn visit_item_extern_crate(&mut self, e: &'ast syn::ItemExternCrate) {
        if let Some((_, alias)) = &e.rename {
            self.aliases
                .insert(alias.to_string(), vec![e.ident.to_string()]);
        }
        syn::visit::visit_item_extern_crate(self, e);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.check_path("path", &segments(p));
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let name = m
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if FORBIDDEN_MACROS.contains(&name.as_str()) {
            self.found.push(format!("macro `{name}!`"));
        }
        self.check_tokens(&format!("`{name}!`"), m.tokens.clone());
        syn::visit::visit_macro(self, m);
    }

    fn visit_expr_unsafe(&mut self, e: &'ast syn::ExprUnsafe) {
        self.found.push("an `unsafe` block".into());
        syn::visit::visit_expr_unsafe(self, e);
    }

    fn visit_signature(&mut self, s: &'ast syn::Signature) {
        if matches!(s.safety, syn::Safety::Unsafe(_)) {
            self.found.push(format!("`unsafe fn {}`", s.ident));
        }
        if s.abi.is_some() {
            self.found.push(format!("`extern fn {}`", s.ident));
        }
        syn::visit::visit_signature(self, s);
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if i.unsafety.is_some() {
            self.found.push("an `unsafe impl`".into());
        }
        syn::visit::visit_item_impl(self, i);
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        if t.unsafety.is_some() {
            self.found.push(format!("`unsafe trait {}`", t.ident));
        }
        syn::visit::visit_item_trait(self, t);
    }

    fn visit_item_foreign_mod(&mut self, f: &'ast syn::ItemForeignMod) {
        self.found.push("an `extern` block".into());
        syn::visit::visit_item_foreign_mod(self, f);
    }

    fn visit_type_fn_ptr(&mut self, f: &'ast syn::TypeFnPtr) {
        if f.unsafety.is_some() || f.abi.is_some() {
            self.found
                .push("an `unsafe` or `extern` fn pointer type".into());
        }
        syn::visit::visit_type_fn_ptr(self, f);
    }
}

/// What is impure in `text`, each as `file: what`; a file that does not parse is an offence too.
fn offences(file: &str, text: &str) -> Vec<String> {
    let ast = match syn::parse_file(text) {
        Ok(ast) => ast,
        Err(e) => return vec![format!("{file}: does not parse: {e}")],
    };
    let mut p = Purity::default();
    // Aliases first (a `use std as s;` may come after the code that uses `s`).
    for item in &ast.items {
        if let syn::Item::Use(u) = item {
            p.visit_item_use(u);
        }
    }
    p.found.clear();
    p.visit_file(&ast);
    p.found
        .into_iter()
        .map(|f| format!("{file}: {f}"))
        .collect()
}

#[test]
fn manifest_has_only_pure_dependencies() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let deps = dependencies(&manifest);
    assert!(deps.contains(&"bitvec".to_string()), "parsed {deps:?}");
    let extra: Vec<&String> = deps
        .iter()
        .filter(|d| !ALLOWED_DEPENDENCIES.contains(&d.as_str()))
        .collect();
    assert!(extra.is_empty(), "dcqcn-model depends on {extra:?}: it must stay pure (no I/O, parsing or randomness crates); put that code in dcqcn-harness");
}

#[test]
fn sources_do_no_io() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    assert!(files.len() >= 10, "found only {} sources", files.len());
    let bad: Vec<String> = files.iter().flat_map(|(f, t)| offences(f, t)).collect();
    assert!(
        bad.is_empty(),
        "impure code in dcqcn-model:\n{}",
        bad.join("\n")
    );
}

/// The checks can fail: every form of a forbidden path, `unsafe`, FFI and printing, planted one
/// per sample, is found, and the pure forms beside them (comments, strings, `core::array`, a
/// local module named `fs`) are not.
#[test]
fn checks_catch_planted_impurity() {
    let planted: &[(&str, &str)] = &[
        ("plain use", "use std::fs;"),
        ("grouped use", "use std::{fs, io};"),
        (
            "nested group",
            "use std::{collections::BTreeMap, time::Instant};",
        ),
        ("renamed use", "use std::fs as files;"),
        ("self in a group, renamed", "use std::io::{self as o};"),
        ("glob", "use std::process::*;"),
        ("leading colons", "use ::std::net::TcpStream;"),
        (
            "path in an expression",
            "fn f() { let _ = std::fs::read(\"x\"); }",
        ),
        ("path in a type", "struct S(std::sync::Arc<u8>);"),
        (
            "path in a pattern",
            "fn f(x: u8) { match x { std::env::consts::ARCH => () } }",
        ),
        (
            "root renamed, then used",
            "use std as s;\nfn f() { let _ = s::thread::current(); }",
        ),
        (
            "root renamed after its use",
            "fn f() { s::time::Instant::now(); }\nuse std as s;",
        ),
        (
            "extern crate renamed",
            "extern crate core as c;\nfn f() { c::sync::atomic::fence(); }",
        ),
        (
            "inside a macro call",
            "fn f() -> String { format!(\"{}\", std::process::id()) }",
        ),
        (
            "inside macro_rules",
            "macro_rules! m { () => { std::env::args() }; }",
        ),
        ("unsafe block", "fn f() { unsafe { g() } }"),
        ("unsafe fn", "unsafe fn f() {}"),
        ("extern block", "extern \"C\" { fn g(); }"),
        ("extern fn", "extern \"C\" fn f() {}"),
        ("unsafe impl", "unsafe impl Send for S {}"),
        ("println", "fn f() { println!(\"x\"); }"),
        ("dbg", "fn f(x: u8) -> u8 { dbg!(x) }"),
    ];
    for (what, src) in planted {
        let found = offences("planted.rs", src);
        assert!(!found.is_empty(), "{what}: `{src}` passed the check");
        assert!(found[0].starts_with("planted.rs: "), "{found:?}");
    }
    let pure = "// std::fs in a comment\n/// and `std::io` in a doc comment\n\
                mod fs { pub fn read() {} }\n\
                fn f() -> &'static str { fs::read(); let _: [u8; 2] = core::array::from_fn(|i| i as u8); \"std::fs\" }\n\
                use std::collections::BTreeMap;\nuse crate::fs as files;\n";
    assert_eq!(offences("pure.rs", pure), Vec::<String>::new());
    assert_eq!(
        offences("broken.rs", "fn (").len(),
        1,
        "unparsable is an offence"
    );
    let deps = dependencies("[dependencies]\nbitvec.workspace = true\ntoml = \"0.8\"\n[dev-dependencies]\nproptest = \"1\"\n");
    assert_eq!(deps, vec!["bitvec", "toml"]);
}
