//! The upstream SURF block's recorded vector sets (golden/surf/, `dcqcn surf record` on a SURF
//! checkout, provenance in each manifest) replayed on the upstream model
//! (`dcqcn_model::surf::SurfLimiter`): every output port every cycle (the m_axis payload where
//! m_axis_tvalid is 1, as recorded), and Rc, Rt, alpha and the CNP counter after every edge. This
//! is how `make test` keeps the model bit-exact to upstream without a SURF checkout.

use dcqcn_cosim::golden::format::Decoder;
use dcqcn_cosim::surf::{cycle_values, fields, Regs, FORMAT};
use dcqcn_model::surf::{SurfLimiter, SurfParams};
use dcqcn_model::{AxilIn, AxisIn, Inputs, DATA_WORDS};
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

/// The cycle's inputs from the first fields of a recorded cycle (the order of `surf::fields`).
fn inputs(v: &[[u64; DATA_WORDS]]) -> Inputs {
    let x = |k: usize| v[k][0];
    let mut tdata = [0; DATA_WORDS];
    tdata[..4].copy_from_slice(&v[2][..4]);
    Inputs {
        rst: x(0) != 0,
        cnp: x(1) != 0,
        s_axis: AxisIn {
            tdata,
            tkeep: x(3),
            tvalid: x(4) != 0,
            tlast: x(5) != 0,
        },
        m_axis_tready: x(6) != 0,
        axil: AxilIn {
            awaddr: u16::try_from(x(7)).expect("recorded awaddr fits the model's 16 bits"),
            awvalid: x(8) != 0,
            wdata: x(9) as u32,
            wstrb: x(10) as u8,
            wvalid: x(11) != 0,
            bready: x(12) != 0,
            araddr: u16::try_from(x(13)).expect("recorded araddr fits the model's 16 bits"),
            arvalid: x(14) != 0,
            rready: x(15) != 0,
        },
    }
}

/// Replays one set; returns the cycles compared, or the first difference.
fn replay(set: &Path) -> Result<u64, String> {
    let file = set.join("vectors.txt");
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let name = file.display().to_string();
    let mut dec = Decoder::with_fields(&name, &text, FORMAT, fields).map_err(|e| e.to_string())?;
    let names: Vec<&str> = fields(32).iter().map(|f| f.name).collect();
    let first_out = names.iter().position(|n| *n == "s_axis_tready").unwrap();
    let first_reg = names.iter().position(|n| *n == "rc").unwrap();
    let mut model = SurfLimiter::new(SurfParams::default());
    let mut k = 0u64;
    while let Some(rec) = dec.next_cycle().map_err(|e| e.to_string())? {
        let i = inputs(rec);
        let o = model.step(&i);
        let p = model.probe();
        let regs = Regs {
            rc: p.rc,
            rt: p.rt,
            alpha: p.alpha,
            cnp_cnt: p.cnp_cnt,
        };
        let got = cycle_values(&i, &o, &regs);
        // Cycle 0's registered outputs hold upstream's power-up values (not defined by a
        // reset yet); the lockstep does not compare them either.
        let from = if k == 0 { first_reg } else { first_out };
        if let Some(f) = (from..names.len()).find(|&f| got[f] != rec[f]) {
            return Err(format!(
                "{}: cycle {k}: {} recorded {:x?}, model {:x?}",
                set.display(),
                names[f],
                &rec[f][..1],
                &got[f][..1]
            ));
        }
        k += 1;
    }
    Ok(k)
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
    let mut enc = dcqcn_cosim::golden::format::Encoder::with_fields(FORMAT, 32, fields(32), &[]);
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
    assert!(e.contains("cycle 100: rc"), "{e}");
    let _ = std::fs::remove_dir_all(dir);
}
