//! Tests of the network configuration file ([`crate::config`]) on the AdvCam funnel: in a file of
//! their own, so that `config` does not import `advcam`, which imports it.

use crate::config::*;

fn funnel() -> NetConfig {
    crate::advcam::default_config(16, 16, 100_000_000_000)
}

#[test]
fn a_sample_longer_than_the_duration_is_refused() {
    let mut c = funnel();
    let e = apply_file(&mut c, "duration = \"1ms\"\nsample = \"2ms\"\n", "n.toml")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("n.toml:2: `sample`"), "{e}");
    assert!(e.contains("longer than the duration"), "{e}");
    let mut c = funnel();
    apply_file(&mut c, "duration = \"1ms\"\nsample = \"1ms\"\n", "n.toml").unwrap();
    // a duration shorter than the default sample: the duration is named, on its line
    let mut c = funnel();
    let e = apply_file(&mut c, "\nduration = 5\n", "n.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("n.toml:2: `duration`: 5000 ps: shorter than the sample"),
        "{e}"
    );
}

#[test]
fn the_samples_of_a_run_are_bounded() {
    // 256 flows and 17 switches over 1,000,000 samples: legal by MAX_SAMPLES alone, and
    // about 11 GB per mode in memory.
    let mut c = funnel();
    let e = apply_file(&mut c, "sample = \"100ns\"\n", "n.toml")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("1000000 samples x 273 flows and switches")
            && e.contains(&format!("at most {MAX_SAMPLE_CELLS}")),
        "{e}"
    );
    assert_eq!(funnel().sample_cells(), 100 * 273);
}

#[test]
fn a_huge_topology_is_refused_before_its_flows_are_made() {
    let mut c = funnel();
    let t = std::time::Instant::now();
    let e = apply_file(
        &mut c,
        "[topology]\nleaves = [4294967295, 4294967295]\n",
        "n.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(e.starts_with("n.toml:2: `topology.leaves`"), "{e}");
    assert!(t.elapsed().as_secs() < 5);
}

#[test]
fn tables_of_the_wrong_kind_are_named_plainly() {
    for (text, want) in [
        ("frame = 1\n", "`frame`: expected a table"),
        ("flow = 1\n", "`flow`: expected an array of tables"),
        (
            "[[flow]]\nbase = 1\n",
            "`flow[0].base`: expected the name of a register set",
        ),
    ] {
        let mut c = funnel();
        let e = apply_file(&mut c, text, "n.toml").unwrap_err().to_string();
        assert!(e.contains(want), "{text:?}: {e}");
        assert!(!e.contains("FrameFile") && !e.contains("borrowed"), "{e}");
    }
}
