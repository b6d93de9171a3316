//! The network simulation's contracts: determinism, configuration errors, switch invariants, the
//! notification point's CNP interval, link timing, and short experiment sanity checks.

use dcqcn_harness::config_file::ConfigFileError;
use dcqcn_model::Params;
use dcqcn_net::config::{apply_file, NetConfig, Profile, PS_PER_S};
use dcqcn_net::csv_out;
use dcqcn_net::experiment::{self, by_name, jain};
use dcqcn_net::sim::{Network, RunResult};
use dcqcn_net::switch::{Action, Packet, Switch};
use dcqcn_net::NetError;

const MS: u64 = PS_PER_S / 1000;

fn default_config(name: &str) -> NetConfig {
    by_name(name)
        .expect("a built-in experiment")
        .default_config()
}

fn csv(names: &[String], r: &RunResult) -> Vec<u8> {
    csv_out::time_series(names, r)
}

fn run(cfg: &NetConfig) -> RunResult {
    Network::new(cfg.clone()).run(|_| {})
}

fn names(cfg: &NetConfig) -> Vec<String> {
    cfg.flows.iter().map(|f| f.name.clone()).collect()
}

/// The incast with RED marking on a wide probabilistic band, so that the seed matters.
fn red_incast(seed: u64) -> NetConfig {
    let mut c = default_config("fig12");
    c.duration_ps = 20 * MS;
    c.seed = seed;
    c.switch.kmin_bytes = 1_000;
    c.switch.kmax_bytes = 10_000_000;
    c.switch.pmax = 0.2;
    c
}

#[test]
fn same_seed_same_csv_other_seed_other_marks() {
    let a = run(&red_incast(1));
    let b = run(&red_incast(1));
    let c = run(&red_incast(2));
    let n = names(&red_incast(1));
    assert!(
        a.switches[0].marks > 10,
        "the band must mark: {:?}",
        a.switches[0]
    );
    assert_eq!(csv(&n, &a), csv(&n, &b));
    assert_ne!(csv(&n, &a), csv(&n, &c));
    assert_ne!(a.switches[0].marks, c.switches[0].marks);
}

fn field_error(text: &str) -> (usize, String, String) {
    let mut c = default_config("fig12");
    match apply_file(&mut c, text, "bad.toml") {
        Err(NetError::File(ConfigFileError::Field {
            file,
            line,
            field,
            message,
        })) => {
            assert_eq!(file, "bad.toml");
            (line, field, message)
        }
        Err(NetError::File(e)) => (0, "registers".into(), e.to_string()),
        other => panic!("expected a field error, got {other:?}"),
    }
}

#[test]
fn bad_toml_names_file_line_and_field() {
    let (line, field, msg) = field_error("seed = 3\n[switch]\nkmin = \"5 parsecs\"\n");
    assert_eq!((line, field.as_str()), (3, "switch.kmin"));
    assert!(msg.contains("parsecs"), "{msg}");
    let (line, field, _) = field_error("[switch]\nxoff = \"100KB\"\nxon = \"200KB\"\n");
    assert_eq!((line, field.as_str()), (3, "switch.xon"));
    let (line, field, _) = field_error("[link]\ndelay = \"1ns\"\n");
    assert_eq!((line, field.as_str()), (2, "link.delay"));
    let (line, field, _) = field_error("[[flow]]\nstop = \"1s\"\n");
    assert_eq!((line, field.as_str()), (1, "flow"));
    // A register of a flow: the model's own parser, same file and line.
    // (The network's errors are the register file's own type, so file, line and field come out
    // the same way.)
    let (line, field, msg) = field_error(
        "[[flow]]\n[flow.registers]\nrai = \"6MB/s\"\n[[flow]]\n[[flow]]\n[flow.registers]\ndec_interval = \"1ms\"\n",
    );
    assert_eq!((line, field.as_str()), (7, "dec_interval"), "{msg}");
    let mut c = default_config("fig12");
    match apply_file(&mut c, "[switch]\nkmn = 3\n", "bad.toml") {
        Err(e @ NetError::File(ConfigFileError::Syntax { .. })) => {
            let m = e.to_string();
            assert!(
                m.starts_with("bad.toml: line 2:") && m.contains("kmn"),
                "{m}"
            );
            assert_eq!(e.exit_code(), 2);
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn huge_zero_and_reversed_values_name_their_field() {
    for (text, want_line, want_field, want) in [
        // 1.8e7 s once wrapped to 384 ps, 2.3e18 B/s to 8 bit/s.
        (
            "duration = \"18446744.073709551s\"\n",
            1,
            "duration",
            "at most 100 s",
        ),
        (
            "duration = \"18446744073709552s\"\n",
            1,
            "duration",
            "out of range",
        ),
        ("duration = \"0s\"\n", 1, "duration", "above 0"),
        // Rounded up to whole beats it would not fit 32 bits.
        (
            "[sender]\nmac_fifo = \"4294967295B\"\n",
            2,
            "sender.mac_fifo",
            "at most 1073741824",
        ),
        (
            "[link]\nrate = \"2305843009213693952B/s\"\n",
            2,
            "link.rate",
            "out of range",
        ),
        (
            "[link]\nrate = 2300000000000000000\n",
            2,
            "link.rate",
            "1 Tbit/s",
        ),
        ("[link]\nrate = 0\n", 2, "link.rate", "1 Tbit/s"),
        ("\n[link]\ndelay = \"2s\"\n", 3, "link.delay", "at most 1 s"),
        (
            "[link]\ndelay = \"99999999999s\"\n",
            2,
            "link.delay",
            "out of range",
        ),
        ("sample = \"1ns\"\n", 1, "sample", "at most 1000000 samples"),
        ("sample = 0\n", 1, "sample", "above 0"),
        (
            "[frame]\npayload_bytes = 0\n",
            2,
            "frame.payload_bytes",
            "0: must be at least 1",
        ),
        (
            "[frame]\ngap_bytes = 4294967295\n",
            2,
            "frame.gap_bytes",
            "at most 9000",
        ),
        (
            "[frame]\nstream_overhead_bytes = 4294967295\n",
            2,
            "frame.stream_overhead_bytes",
            "at most 9000",
        ),
        ("[switch]\nbuffer = \"2GB\"\n", 2, "switch.buffer", "1 GiB"),
        (
            "[receiver]\ncnp_latency = \"2s\"\n",
            2,
            "receiver.cnp_latency",
            "at most 1 s",
        ),
        (
            "[sender]\ncnp_pulse_cycles = 4294967295\n",
            2,
            "sender.cnp_pulse_cycles",
            "at most",
        ),
        (
            "[[flow]]\nstart = \"0.2s\"\nstop = \"0.1s\"\n[[flow]]\n[[flow]]\n",
            3,
            "flow[0].stop",
            "after the flow's start",
        ),
        (
            "[[flow]]\nstop = 0\n[[flow]]\n[[flow]]\n",
            2,
            "flow[0].stop",
            "after the flow's start",
        ),
    ] {
        let (line, field, msg) = field_error(text);
        assert_eq!(
            (line, field.as_str()),
            (want_line, want_field),
            "{text}: {msg}"
        );
        assert!(msg.contains(want), "{text}: {msg}");
    }
}

#[test]
fn good_toml_overrides_defaults() {
    let mut c = default_config("fig13");
    apply_file(
        &mut c,
        "seed = 9\nduration = \"50ms\"\n[switch]\npmax = 0.5\n[topology]\nleaves = [2, 2]\n",
        "ok.toml",
    )
    .unwrap();
    assert_eq!(c.seed, 9);
    assert_eq!(c.duration_ps, 50 * MS);
    assert_eq!(c.switch.pmax, 0.5);
    assert_eq!(c.flows.len(), 4);
    // The added sender runs the last flow's registers; flow_a keeps its 200 ms timer.
    assert_eq!(c.flows[0].registers.inc_interval, 31_250_000);
    assert_eq!(c.flows[3].registers, c.flows[2].registers);
}

fn pkt() -> Packet {
    Packet {
        flow: 0,
        ce: false,
        tx_cycle: 0,
    }
}

#[test]
fn pfc_xoff_once_above_threshold_xon_below_hysteresis() {
    let mut cfg = NetConfig::default_network().switch;
    cfg.xoff_bytes = 10_000;
    cfg.xon_bytes = 5_000;
    cfg.ecn = false;
    let mut sw = Switch::new(cfg, 2, 1_000, 1_000_000, 1, 0);
    let mut out = Vec::new();
    let xoffs = |out: &[Action]| {
        out.iter()
            .filter(|a| matches!(a, Action::Pfc { xoff: true, .. }))
            .count()
    };
    let xons = |out: &[Action]| {
        out.iter()
            .filter(|a| matches!(a, Action::Pfc { xoff: false, .. }))
            .count()
    };
    // The first frame goes straight to the uplink; the others queue on port 1.
    for k in 0..12 {
        sw.arrive(k, 1, pkt(), &mut out);
    }
    assert_eq!(sw.ingress_bytes(1), 11_000);
    assert_eq!(xoffs(&out), 1, "one XOFF when use crosses 10 kB");
    assert!(sw.ingress_paused(1));
    out.clear();
    // Drain: no XON until use falls below 5 kB.
    let mut t = 100;
    while sw.ingress_bytes(1) >= 5_000 {
        assert_eq!(xons(&out), 0, "XON at {} bytes", sw.ingress_bytes(1));
        sw.uplink_free(t, &mut out);
        t += 1;
    }
    assert_eq!(xons(&out), 1);
    assert!(!sw.ingress_paused(1));
    assert_eq!(sw.stats.xoff_sent, 1);
    assert!(sw.ingress_bytes(1) < 5_000 && sw.ingress_bytes(1) >= 4_000);
}

#[test]
fn pfc_refresh_keeps_pause_only_while_paused() {
    let mut cfg = NetConfig::default_network().switch;
    cfg.xoff_bytes = 2_000;
    cfg.xon_bytes = 1_000;
    let mut sw = Switch::new(cfg, 1, 1_000, 1_000, 1, 0);
    let mut out = Vec::new();
    for k in 0..4 {
        sw.arrive(k, 0, pkt(), &mut out);
    }
    let gen = out
        .iter()
        .find_map(|a| match a {
            Action::Refresh { generation, .. } => Some(*generation),
            _ => None,
        })
        .expect("an XOFF schedules its refresh");
    out.clear();
    sw.refresh(600, 0, gen, &mut out);
    assert!(matches!(out[0], Action::Pfc { xoff: true, .. }));
    out.clear();
    sw.refresh(600, 0, gen + 1, &mut out);
    assert!(out.is_empty(), "a stale refresh sends nothing");
}

#[test]
fn pfc_with_headroom_is_lossless_and_buffer_bounds_the_queue() {
    // PFC only, 8 senders at line rate into one receiver: no drop, ports within XOFF + headroom.
    let mut c = default_config("fig4");
    c.duration_ps = 10 * MS;
    let r = run(&c);
    assert_eq!(r.drops(), 0);
    assert!(r.switches.iter().map(|s| s.xoff_sent).sum::<u64>() > 0);
    for s in &r.switches {
        assert!(s.max_ingress_bytes <= c.switch.xoff_bytes + c.switch.headroom_bytes);
    }
    // Without PFC and with a small buffer the switch drops, and never holds more than its buffer.
    c.switch.pfc = false;
    c.switch.buffer_bytes = 50_000;
    let r = run(&c);
    assert!(r.drops() > 0);
    for s in &r.switches {
        assert!(s.max_queue_bytes <= 50_000, "{s:?}");
    }
}

#[test]
fn receiver_sends_at_most_one_cnp_per_flow_per_interval() {
    // Bypassed senders keep the queue up; every frame leaves marked.
    let mut c = default_config("fig11");
    c.duration_ps = 10 * MS;
    c.switch.kmin_bytes = 0;
    c.switch.kmax_bytes = 1;
    c.receiver.cnp_interval_ps = 50_000_000;
    let r = run(&c);
    for (f, &n) in r.flow_cnps.iter().enumerate() {
        // 10 ms / 50 us = 200 intervals; marked frames arrive every ~10 us per flow.
        assert!((150..=201).contains(&n), "flow {f}: {n} CNPs");
    }
    c.receiver.cnp_interval_ps = 4_000_000;
    let r = run(&c);
    for &n in &r.flow_cnps {
        assert!(
            n > 500,
            "a 4 us interval lets a CNP follow most marked frames: {n}"
        );
    }
}

/// Every profile alike (our block, upstream's, a NIC of one QP, an NSCC sender): on an idle link
/// the wire limits.
#[test]
fn one_sender_fills_the_link_at_wire_speed() {
    for profile in Profile::ALL {
        let mut c = default_config("fig12");
        c.leaves = vec![1];
        c.flows.truncate(1);
        c.flows[0].stop_ps = None;
        c.flows[0].profile = profile;
        c.duration_ps = 10 * MS;
        let r = run(&c);
        // One frame per (4112 + 46 + 20) bytes at 10 Gb/s = 3342.4 ns, after the first frame's
        // way through the limiter, the MAC, two links and the switch (a few microseconds).
        let wire = (4096.0 + 16.0 + 46.0 + 20.0) * 0.8;
        let ideal = (10e6 / wire) as u64;
        let got = r.flow_frames[0];
        assert!(
            got <= ideal && got + 4 >= ideal,
            "{profile:?}: {got} frames, ideal {ideal}"
        );
        assert_eq!(r.drops(), 0);
        let last = r.samples.last().unwrap();
        if profile == Profile::Nscc {
            // No limiter: the window never shrank below its initial max_wnd (no mark, no queue).
            let w = r.nscc.last().unwrap().cwnd_bytes[0];
            assert!(w >= 22_161, "{profile:?}: window {w}");
            assert_eq!(last.flows[0].marked, 0);
        } else {
            // DCQCN never saw a mark (no queue), so Rc stays at line rate.
            assert_eq!(last.flows[0].rc_bytes_per_s, Params::DEFAULT.line_rate());
        }
        if profile == Profile::Surf {
            // Every cycle stepped: upstream has no closed-form skip.
            assert_eq!(r.skipped_cycles, 0);
            assert_eq!(r.stepped_cycles, c.duration_ps / 6_400);
        }
    }
}

#[test]
fn bypassed_incast_is_fair_and_dcqcn_keeps_the_queue_lower() {
    let mut by = default_config("fig11");
    by.duration_ps = 40 * MS;
    let mut dc = default_config("fig12");
    dc.duration_ps = 40 * MS;
    let rb = run(&by);
    let rd = run(&dc);
    let thr = |r: &RunResult| -> Vec<f64> {
        r.flow_payload_bytes
            .iter()
            .map(|&b| b as f64 * 8.0 / 0.04 / 1e9)
            .collect()
    };
    let tb = thr(&rb);
    assert!(jain(&tb) > 0.99, "round-robin incast share: {tb:?}");
    assert!(tb.iter().sum::<f64>() > 9.5);
    let mean_q = |r: &RunResult| {
        r.samples
            .iter()
            .map(|s| s.switches[0].queue_bytes as f64)
            .sum::<f64>()
            / r.samples.len() as f64
    };
    assert!(
        mean_q(&rd) < 0.5 * mean_q(&rb),
        "DCQCN queue {} vs bypass {}",
        mean_q(&rd),
        mean_q(&rb)
    );
    assert!(rd.flow_cnps.iter().all(|&n| n > 0));
    assert_eq!(rd.drops(), 0);
}

#[test]
fn experiments_write_csv_svg_png_and_table() {
    let dir = std::env::temp_dir().join(format!("dcqcn-net-test-{}", std::process::id()));
    let mut c = default_config("fig5");
    c.duration_ps = 5 * MS;
    let rep = experiment::run(by_name("fig5").unwrap(), &c, &dir, &mut |_| {}).unwrap();
    let png = std::fs::read(dir.join("fig5.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() > 10_000);
    let svg = std::fs::read_to_string(dir.join("fig5.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("node12"));
    let csv = std::fs::read_to_string(dir.join("fig5.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 5);
    assert!(csv.starts_with("time_s,node5_gbps,"));
    // The table's measured values are those of the CSV: each sender's mean over the second half
    // of the run (samples after 2.5 ms), their mean and their sum.
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let rows: Vec<Vec<f64>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .filter(|r: &Vec<f64>| r[0] > 0.0025)
        .collect();
    let per_sender: Vec<f64> = (5..=12)
        .map(|n| {
            let col = header
                .iter()
                .position(|h| *h == format!("node{n}_gbps"))
                .unwrap();
            rows.iter().map(|r| r[col]).sum::<f64>() / rows.len() as f64
        })
        .collect();
    let measured = |quantity: &str| -> f64 {
        let row = rep
            .row(quantity)
            .unwrap_or_else(|| panic!("no row `{quantity}`"));
        row.measured.parse().unwrap_or_else(|_| panic!("{row:?}"))
    };
    let mean = measured("per-sender throughput, mean of all");
    let sum = measured("aggregate (Gb/s)");
    let from_csv = per_sender.iter().sum::<f64>();
    assert!(
        (mean - from_csv / 8.0).abs() <= 0.006,
        "table: mean {mean} Gb/s per sender; CSV: {} Gb/s",
        from_csv / 8.0
    );
    assert!(
        (sum - from_csv).abs() <= 0.006,
        "table: aggregate {sum} Gb/s; CSV: {from_csv} Gb/s"
    );
    // Eight senders share at most the receiver's 9.80 Gb/s of goodput (all paused by PFC for
    // part of these first 5 ms), and every one of them got through.
    assert!(sum <= 9.81, "aggregate {sum} Gb/s");
    assert!(per_sender.iter().all(|&x| x > 0.0), "{per_sender:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn skipping_is_invisible_in_the_results() {
    // The closed-form skip (proven per limiter in dcqcn-model/tests/skip.rs) changes nothing at
    // network level either: DCQCN incast and bypassed tree, same CSV with every cycle stepped.
    for (name, ms) in [("fig12", 15), ("fig4", 5)] {
        let mut c = default_config(name);
        c.duration_ps = ms * MS;
        let fast = run(&c);
        c.sender.skip = false;
        let slow = run(&c);
        assert!(
            fast.skipped_cycles > fast.stepped_cycles / 2,
            "{name}: skip unused"
        );
        assert_eq!(slow.skipped_cycles, 0);
        assert_eq!(csv(&names(&c), &fast), csv(&names(&c), &slow), "{name}");
        assert_eq!(fast.switches, slow.switches);
    }
}
