//! The upstream SURF block's recorded sets (golden/surf/, written by `dcqcn surf record` on a
//! SURF checkout, provenance in each manifest) replayed on the upstream model
//! ([`crate::model::SurfLimiter`]): every output port every cycle (the m_axis payload where
//! m_axis_tvalid is 1, as recorded), and Rc, Rt, alpha and the CNP counter after every edge. This
//! is how `golden verify golden/surf` and `make test` keep the model bit-exact to upstream
//! without a SURF checkout.

use crate::ghdl::{cycle_values, fields, Regs, FORMAT};
use crate::model::{SurfLimiter, SurfParams};
use dcqcn_model::{AxilIn, AxisIn, Inputs, DATA_WORDS};
use dcqcn_stim::golden::format::{check_lines, hex, Decoder, Val};
use dcqcn_stim::golden::manifest::{read_text, within_run_limit};
use dcqcn_stim::golden::{GoldenError, Verified};
use std::path::Path;

fn stale(file: &str, line: usize, reason: impl Into<String>) -> GoldenError {
    GoldenError::Stale {
        file: file.to_string(),
        line,
        reason: reason.into(),
    }
}

/// Checks any set directory (what `dcqcn golden verify` runs on each): an upstream recording
/// (its manifest's first line is `format` [`FORMAT`]) by [`verify_upstream_set`], every other set
/// by `dcqcn_stim::golden::verify_set`.
pub fn verify_set(dir: &Path) -> Result<Verified, GoldenError> {
    let mpath = dir.join("manifest.txt");
    let mfile = mpath.display().to_string();
    let mtext = read_text(&mpath)?;
    if mtext.lines().next() == Some(&format!("format {FORMAT}")) {
        return verify_upstream_set(dir, &mfile, &mtext);
    }
    dcqcn_stim::golden::verify_set(dir)
}

/// An upstream SURF block's recorded set (golden/surf/, `dcqcn surf record`): its vectors replayed
/// on the upstream model, every output port every cycle and Rc, Rt, alpha and the CNP counter
/// after every edge ([`replay`]). The manifest records provenance (the SURF commit and the sha256
/// of each upstream file), not checksums of the set's files: the vectors' own CRC-32 guards them.
fn verify_upstream_set(dir: &Path, mfile: &str, mtext: &str) -> Result<Verified, GoldenError> {
    check_lines(mfile, mtext.as_bytes())?;
    let name = mtext
        .lines()
        .find_map(|l| l.strip_prefix("set "))
        .ok_or_else(|| GoldenError::At {
            file: mfile.to_string(),
            line: 1,
            reason: "no `set` line".into(),
        })?
        .to_string();
    let vpath = dir.join("vectors.txt");
    let vfile = vpath.display().to_string();
    let vtext = read_text(&vpath)?;
    let dec = Decoder::with_fields(&vfile, &vtext, FORMAT, fields)?;
    within_run_limit(&vfile, dec.cycles)?;
    let cycles = replay(&vfile, dec)?;
    Ok(Verified {
        name,
        cycles,
        bytes: vtext.len() as u64,
    })
}

/// Beat width of the recorded sets (upstream's `RoCEv2DcqcnWrapper` at 256-bit beats).
const DATA_BYTES: u32 = 32;

/// The cycle's inputs from the first fields of a recorded cycle (the order of `surf::fields`);
/// `None` where a recorded address does not fit the model's port.
fn inputs(v: &[Val]) -> Option<Inputs> {
    let x = |k: usize| v[k][0];
    let mut tdata = [0; DATA_WORDS];
    tdata[..4].copy_from_slice(&v[2][..4]);
    Some(Inputs {
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
            awaddr: u16::try_from(x(7)).ok()?,
            awvalid: x(8) != 0,
            wdata: x(9) as u32,
            wstrb: x(10) as u8,
            wvalid: x(11) != 0,
            bready: x(12) != 0,
            araddr: u16::try_from(x(13)).ok()?,
            arvalid: x(14) != 0,
            rready: x(15) != 0,
        },
    })
}

/// Replays a recorded set decoded by `dec` (of `file`) on a fresh upstream model; the cycles
/// compared, or the first difference as a stale-set error naming the cycle, the field, the two
/// values and the record's line.
pub fn replay(file: &str, mut dec: Decoder) -> Result<u64, GoldenError> {
    let fields = fields(DATA_BYTES);
    let names: Vec<&str> = fields.iter().map(|f| f.name).collect();
    let first_out = names
        .iter()
        .position(|n| *n == "s_axis_tready")
        .expect("an output field");
    let first_reg = names
        .iter()
        .position(|n| *n == "rc")
        .expect("a register field");
    let mut model = SurfLimiter::new(SurfParams::default());
    let mut k = 0u64;
    // the recorded sets are short (hundreds to a few thousand cycles): a copy per cycle
    while let Some(rec) = dec.next_cycle()?.map(<[Val]>::to_vec) {
        let line = dec.record_line();
        let i = inputs(&rec).ok_or_else(|| {
            stale(
                file,
                line,
                format!("cycle {k}: a recorded AXI4-Lite address does not fit 16 bits"),
            )
        })?;
        let o = model.step(&i);
        let p = model.probe();
        let regs = Regs {
            rc: p.rc,
            rt: p.rt,
            alpha: p.alpha,
            cnp_cnt: p.cnp_cnt,
        };
        let got = cycle_values(&i, &o, &regs);
        // Cycle 0's registered outputs hold upstream's power-up values (not defined by a reset
        // yet); the lockstep does not compare them either.
        let from = if k == 0 { first_reg } else { first_out };
        if let Some(f) = (from..names.len()).find(|&f| got[f] != rec[f]) {
            return Err(stale(
                file,
                line,
                format!(
                    "cycle {k}: {} recorded {}, the upstream model gives {} (the model no longer reproduces upstream's recording)",
                    names[f],
                    hex(&rec[f], fields[f].width),
                    hex(&got[f], fields[f].width)
                ),
            ));
        }
        k += 1;
    }
    Ok(k)
}
