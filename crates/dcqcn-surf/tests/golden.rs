//! The upstream SURF block's recorded vector sets (golden/surf/, `dcqcn surf record` on a SURF
//! checkout, provenance in each manifest) replayed on the upstream model
//! (`dcqcn_surf::model::SurfLimiter`): every output port every cycle (the m_axis payload where
//! m_axis_tvalid is 1, as recorded), and Rc, Rt, alpha and the CNP counter after every edge. This
//! is how `make test` keeps the model bit-exact to upstream without a SURF checkout.

use dcqcn_stim::golden::format::Decoder;
use dcqcn_surf::ghdl::{fields, FORMAT};
use dcqcn_surf::golden;
use std::path::{Path, PathBuf};

/// The recorded sets, in name order.
fn sets() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../golden/surf");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("vectors.txt").is_file())
        .collect();
    v.sort();
    v
}

/// Replays one set on the upstream model (`dcqcn_surf::golden::replay`, what `dcqcn golden
/// verify golden/surf` runs); the cycles compared, or the first difference.
fn replay(set: &Path) -> Result<u64, String> {
    let file = set.join("vectors.txt");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let name = file.display().to_string();
    let dec = Decoder::with_fields(&name, &text, FORMAT, fields).map_err(|e| e.to_string())?;
    golden::replay(&name, dec).map_err(|e| e.to_string())
}

#[test]
fn every_recorded_upstream_set_replays_on_the_upstream_model() {
    let sets = sets();
    assert!(sets.len() >= 10, "only {} sets in golden/surf", sets.len());
    let mut total = 0;
    let mut errors = Vec::new();
    for s in &sets {
        match replay(s) {
            Ok(n) => {
                assert!(n > 0, "{}: no cycles", s.display());
                total += n;
            }
            Err(e) => errors.push(e),
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    eprintln!("{} sets, {total} cycles, every field equal", sets.len());
}

/// The replay catches a difference: one recorded Rc value changed makes it fail at that cycle.
#[test]
fn a_changed_recorded_value_is_reported() {
    let set = sets()
        .into_iter()
        .find(|s| s.ends_with("first-cnp"))
        .expect("golden/surf/first-cnp");
    let dir = std::env::temp_dir().join(format!("surf-golden-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Re-encode the set with the model's own values except one Rc, through the format's encoder.
    let text = std::fs::read_to_string(set.join("vectors.txt")).unwrap();
    let mut dec = Decoder::with_fields("v", &text, FORMAT, fields).unwrap();
    let mut enc = dcqcn_stim::golden::format::Encoder::with_fields(FORMAT, 32, fields(32), &[]);
    let rc = fields(32).iter().position(|f| f.name == "rc").unwrap();
    let mut k = 0;
    while let Some(rec) = dec.next_cycle().unwrap() {
        let mut v = rec.to_vec();
        if k == 100 {
            v[rc][0] ^= 1;
        }
        enc.push(&v);
        k += 1;
    }
    std::fs::write(dir.join("vectors.txt"), enc.finish().text).unwrap();
    let e = replay(&dir).unwrap_err();
    assert!(e.contains("cycle 100: rc recorded"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}
