//! `surf::check_tree` on a SURF tree whose stream monitor is too old for the block: the block's
//! token bucket connects `AxiStreamMon`'s `frameUpdate` output, so a tree whose `AxiStreamMon`
//! lacks that port is refused up front, naming the file and the port (the CLI's exit code 2 is
//! checked in crates/dcqcn-cli/tests/surf_cli.rs). The VHDL here is minimal text of our own with
//! the shapes that matter (comments, port lists, a port map); no GHDL is needed.

use dcqcn_surf::ghdl::{check_tree, SurfError, BASE_FILES, BLOCK_FILES, MONITOR_FILE};
use std::path::{Path, PathBuf};

/// A tree with every base and block file (empty), in a fresh temporary directory.
fn tree(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dcqcn-surf-tree-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    for f in BASE_FILES.iter().chain(BLOCK_FILES) {
        let p = d.join(f);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "").unwrap();
    }
    d
}

fn write(root: &Path, file: &str, text: &str) {
    std::fs::write(root.join(file), text).unwrap();
}

const BUCKET: &str = "ethernet/RoCEv2/rtl/RoCEv2TokenBucket.vhd";

/// A token bucket that instantiates the monitor with `frameUpdate` in its port map.
const BUCKET_USES_IT: &str = "\
architecture rtl of RoCEv2TokenBucket is
begin
   Mon : entity surf.AxiStreamMon
      generic map (COMMON_CLK_G => true)
      port map (
         axisClk     => axisClk,
         FrameUpdate => frameUpdate,  -- end of frame
         frameSize   => frameSize);
end rtl;
";

/// The same without `frameUpdate` (only a comment names it).
const BUCKET_WITHOUT: &str = "\
architecture rtl of RoCEv2TokenBucket is
begin
   Mon : entity surf.AxiStreamMon
      port map (
         axisClk   => axisClk,
         -- frameUpdate => frameUpdate,
         frameSize => frameSize);
end rtl;
";

fn monitor(ports: &str) -> String {
    format!(
        "entity AxiStreamMon is\n   generic (\n      COMMON_CLK_G : boolean := false);\n   port (\n{ports});\nend AxiStreamMon;\n"
    )
}

/// A monitor with the port, one per line.
const PORTS_WITH: &str = "      axisClk     : in  sl;\n      frameUpdate : out sl := '0';\n      frameSize   : out slv(31 downto 0)";
/// With the port in a list of names.
const PORTS_IN_LIST: &str =
    "      axisClk : in sl;\n      frameSize, frameUPDATE : out slv(31 downto 0)";
/// Without it: only a comment and a port with a longer name mention it.
const PORTS_WITHOUT: &str = "      axisClk          : in  sl;\n      -- frameUpdate : out sl;\n      frameUpdateCount : out slv(7 downto 0);\n      frameSize        : out slv(31 downto 0)";

#[test]
fn monitor_with_the_port_passes() {
    let root = tree("with");
    write(&root, BUCKET, BUCKET_USES_IT);
    write(&root, MONITOR_FILE, &monitor(PORTS_WITH));
    check_tree(&root).unwrap();
    write(&root, MONITOR_FILE, &monitor(PORTS_IN_LIST));
    check_tree(&root).unwrap();
}

#[test]
fn monitor_without_the_port_is_refused() {
    let root = tree("without");
    write(&root, BUCKET, BUCKET_USES_IT);
    write(&root, MONITOR_FILE, &monitor(PORTS_WITHOUT));
    let e = check_tree(&root).unwrap_err();
    assert!(matches!(e, SurfError::OldMonitor { .. }), "{e:?}");
    let msg = e.to_string();
    assert!(msg.contains(MONITOR_FILE), "{msg}");
    assert!(msg.contains("has no `frameUpdate` output port"), "{msg}");
    assert!(msg.contains(BUCKET), "{msg}");
    assert!(msg.contains(&root.display().to_string()), "{msg}");
    // Generics are not ports.
    let generic_only = "entity AxiStreamMon is\n   generic (frameUpdate : boolean := false);\n   port (axisClk : in sl);\nend AxiStreamMon;\n";
    write(&root, MONITOR_FILE, generic_only);
    assert!(matches!(
        check_tree(&root),
        Err(SurfError::OldMonitor { .. })
    ));
}

#[test]
fn block_that_does_not_connect_it_needs_no_port() {
    let root = tree("unused");
    write(&root, BUCKET, BUCKET_WITHOUT);
    write(&root, MONITOR_FILE, &monitor(PORTS_WITHOUT));
    check_tree(&root).unwrap();
}

/// An assembled tree (not a git checkout) names its SURF commit on the `snapshot:` line of its
/// `PROVENANCE.txt` (docs/surf-lockstep.md): the first such line, its first word of 40 hex digits.
#[test]
fn the_snapshot_line_of_provenance_names_the_commit() {
    use dcqcn_surf::ghdl::surf_commit;
    let c = "fc56630d4caedd8ecd16bd11ed3287ab5406aca7";
    let d = tree("provenance");
    // Run outside any git checkout: git would answer for the enclosing repository.
    if std::process::Command::new("git")
        .arg("-C")
        .arg(&d)
        .args(["rev-parse", "HEAD"])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("skipped: {} is inside a git checkout", d.display());
        return;
    }
    assert_eq!(surf_commit(&d), "unknown");
    write(
        &d,
        "PROVENANCE.txt",
        &format!("assembled by hand\n  snapshot: {c}\nsnapshot: slaclab/surf {c} (2025-11-18)\nsnapshot: slaclab/surf 052db87d275aae7bf028ed532b150ebfee67cf26\n"),
    );
    assert_eq!(
        surf_commit(&d),
        format!("{c}+block-files-of-PROVENANCE.txt")
    );
    // A 40-character word that is not hex is not a commit; a line without one names none.
    write(
        &d,
        "PROVENANCE.txt",
        "snapshot: slaclab/surf zz56630d4caedd8ecd16bd11ed3287ab5406aca7\n",
    );
    assert_eq!(surf_commit(&d), "unknown");
    let _ = std::fs::remove_dir_all(d);
}
