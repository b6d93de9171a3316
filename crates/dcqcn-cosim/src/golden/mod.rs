//! `golden verify` of any set (docs/golden-format.md): the model's sets (`dcqcn_stim::golden`)
//! and the upstream SURF block's recorded sets (golden/surf/), whose vectors [`upstream`] replays
//! on the upstream model.

pub mod upstream;

use crate::surf;
use dcqcn_stim::golden::format::{check_lines, Decoder};
use dcqcn_stim::golden::manifest::{read_text, within_run_limit};
use dcqcn_stim::golden::{at, verify_set, GoldenError, Verified};
use std::path::Path;

/// Checks a set directory: an upstream SURF block's recorded set (its manifest's first line is
/// `format` [`surf::FORMAT`]) on the upstream model, any other with [`verify_set`].
pub fn verify_any_set(dir: &Path) -> Result<Verified, GoldenError> {
    let mpath = dir.join("manifest.txt");
    let mfile = mpath.display().to_string();
    let mtext = read_text(&mpath)?;
    if mtext.lines().next() == Some(&format!("format {}", surf::FORMAT)) {
        return verify_upstream_set(dir, &mfile, &mtext);
    }
    verify_set(dir)
}

/// An upstream SURF block's recorded set (golden/surf/, `dcqcn surf record`): its vectors replayed
/// on the upstream model, every output port every cycle and Rc, Rt, alpha and the CNP counter
/// after every edge ([`upstream::replay`]). The manifest records provenance (the SURF
/// commit and the sha256 of each upstream file), not checksums of the set's files: the vectors'
/// own CRC-32 guards them.
fn verify_upstream_set(dir: &Path, mfile: &str, mtext: &str) -> Result<Verified, GoldenError> {
    check_lines(mfile, mtext.as_bytes())?;
    let name = mtext
        .lines()
        .find_map(|l| l.strip_prefix("set "))
        .ok_or_else(|| at(mfile, 1, "no `set` line"))?
        .to_string();
    let vpath = dir.join("vectors.txt");
    let vfile = vpath.display().to_string();
    let vtext = read_text(&vpath)?;
    let dec = Decoder::with_fields(&vfile, &vtext, surf::FORMAT, surf::fields)?;
    within_run_limit(&vfile, dec.cycles)?;
    let cycles = upstream::replay(&vfile, dec)?;
    Ok(Verified {
        name,
        cycles,
        bytes: vtext.len() as u64,
    })
}
