//! NSCC senders on the network (`profile = "nscc"`, crate::nscc): seed 004's seven-flow incast
//! converges to fair shares, the receiver's penalty keeps its memory queue lower than without,
//! the NSCC experiments are deterministic, the lazy, eager and checked schedules agree, and the
//! new keys of the parameter file are read and checked.

use dcqcn_harness::config_file::ConfigFileError;
use dcqcn_net::config::{apply_file, NetConfig, Profile, PS_PER_S};
use dcqcn_net::csv_out;
use dcqcn_net::experiment::{by_name, jain, plan, Overrides};
use dcqcn_net::sim::{Network, RunResult, Schedule};
use dcqcn_net::NetError;

const MS: u64 = PS_PER_S / 1000;

/// nscc-incast's network for 20 ms (its defaults run 50 ms; 20 already settle).
fn incast() -> NetConfig {
    let mut c = by_name("nscc-incast").unwrap().default_config();
    c.duration_ps = 20 * MS;
    c
}

fn run(cfg: &NetConfig) -> RunResult {
    Network::new(cfg.clone()).run(|_| {})
}

/// Per-flow payload throughput over the second half of the run, Gb/s.
fn second_half_gbps(cfg: &NetConfig, r: &RunResult) -> Vec<f64> {
    let half = r.samples.len() / 2;
    (0..cfg.flows.len())
        .map(|f| {
            let late = &r.samples[half..];
            late.iter().map(|s| s.flows[f].payload_gbps).sum::<f64>() / late.len() as f64
        })
        .collect()
}

fn mean_memory(r: &RunResult) -> f64 {
    let late = &r.nscc[r.nscc.len() / 2..];
    late.iter()
        .map(|s| s.receiver_mem_bytes as f64)
        .sum::<f64>()
        / late.len() as f64
}

#[test]
fn seven_flow_incast_converges_to_fair_shares_at_the_memory_rate() {
    let cfg = incast();
    assert_eq!(cfg.flows.len(), 7);
    let r = run(&cfg);
    let v = second_half_gbps(&cfg, &r);
    let j = jain(&v);
    assert!(j >= 0.999, "Jain's index {j}: {v:?}");
    // The memory is the bottleneck: together the flows get most of its 70 Gb/s (the penalty
    // overshoots a little: at least 90 %), and no more.
    let sum: f64 = v.iter().sum();
    assert!((63.0..=70.5).contains(&sum), "aggregate {sum} Gb/s");
    assert_eq!(r.drops(), 0);
    // The penalty is what holds them: ACKs with rcv_cwnd_pend went out in every 1 ms window of
    // the second half.
    let late = &r.nscc[r.nscc.len() / 2..];
    for w in late.chunks(10) {
        assert!(w.iter().map(|s| s.penalised_acks).sum::<u64>() > 0);
    }
}

#[test]
fn the_penalty_keeps_the_memory_queue_lower_than_without() {
    let with = incast();
    let mut without = with.clone();
    without.receiver.rcv_cwnd_pend = 0;
    let (a, b) = (run(&with), run(&without));
    assert_eq!(b.nscc.iter().map(|s| s.penalised_acks).sum::<u64>(), 0);
    let (ma, mb) = (mean_memory(&a), mean_memory(&b));
    assert!(ma < mb, "mean memory queue {ma} with, {mb} without");
    assert!(
        a.receiver_mem_max_bytes < b.receiver_mem_max_bytes,
        "peak {} with, {} without",
        a.receiver_mem_max_bytes,
        b.receiver_mem_max_bytes
    );
    // Without the penalty nothing tells the senders about the memory: they fill the link, and
    // the queue grows by what the link brings above the drain rate.
    let sum: f64 = second_half_gbps(&without, &b).iter().sum();
    assert!(sum > 95.0, "aggregate without the penalty {sum} Gb/s");
    // (98 − 70) Gb/s for 20 ms is 70 MB; with the penalty, the queue is back under the
    // threshold on average.
    assert!(ma < with.receiver.mem_threshold_bytes as f64, "{ma}");
    let end = b.nscc.last().unwrap().receiver_mem_bytes;
    assert!(
        end > 60_000_000,
        "memory queue at the end without: {end} bytes"
    );
}

fn csv_of(name: &str, duration_ms: u64) -> Vec<u8> {
    let e = by_name(name).unwrap();
    let mut cfg = e.default_config();
    cfg.duration_ps = duration_ms * MS;
    e.run(&cfg, &mut |_| {}).csv
}

#[test]
fn nscc_experiments_are_deterministic() {
    let a = csv_of("nscc-incast", 10);
    assert_eq!(a, csv_of("nscc-incast", 10));
    let b = csv_of("nscc-fig12", 20);
    assert_eq!(b, csv_of("nscc-fig12", 20));
    let text = String::from_utf8(b).unwrap();
    assert!(text.starts_with("time_s,nscc_flow_a_gbps,nscc_flow_a_cwnd_bytes,"));
    assert!(text.lines().next().unwrap().contains(",dcqcn_flow_a_gbps,"));
}

#[test]
fn schedules_agree_on_nscc_senders() {
    let mut c = incast();
    c.duration_ps = 5 * MS;
    let names: Vec<String> = c.flows.iter().map(|f| f.name.clone()).collect();
    let csv = |s: Schedule| {
        let mut n = Network::new(c.clone());
        n.set_schedule(s);
        let r = n.run(|_| {});
        csv_out::side_by_side(&[("x", &names, &r)])
    };
    let lazy = csv(Schedule::Lazy);
    assert_eq!(lazy, csv(Schedule::Eager));
    assert_eq!(lazy, csv(Schedule::Checked));
}

#[test]
fn nscc_and_dcqcn_senders_share_a_network() {
    let mut c = by_name("fig12").unwrap().default_config();
    c.duration_ps = 20 * MS;
    c.flows[1].profile = Profile::Nscc;
    let r = run(&c);
    // Both kinds of flow get through; only the DCQCN flows get CNPs.
    assert!(r.flow_payload_bytes.iter().all(|&b| b > 0));
    assert_eq!(r.flow_cnps[1], 0);
    assert_eq!(r.nscc.len(), r.samples.len());
    assert_eq!(r.nscc[0].cwnd_bytes[0], 0, "flow_a is a DCQCN flow");
    assert!(r.nscc[0].cwnd_bytes[1] > 0);
}

fn field_error(text: &str) -> (usize, String, String) {
    let mut c = incast();
    match apply_file(&mut c, text, "bad.toml") {
        Err(NetError::File(ConfigFileError::Field {
            line,
            field,
            message,
            ..
        })) => (line, field, message),
        other => panic!("expected a field error, got {other:?}"),
    }
}

#[test]
fn parameter_file_keys_are_read_and_checked() {
    let mut c = by_name("fig12").unwrap().default_config();
    apply_file(
        &mut c,
        "[sender]\nprofile = \"nscc\"\n[receiver]\nmem_drain_rate = \"5Gbps\"\nmem_threshold = \"32KB\"\nrcv_cwnd_pend = 127\n[nscc]\nbase_rtt = \"12us\"\ntrimming = true\n",
        "good.toml",
    )
    .unwrap();
    assert!(c.flows.iter().all(|f| f.profile == Profile::Nscc));
    assert_eq!(c.receiver.mem_drain_bits_per_s, Some(5_000_000_000));
    assert_eq!(c.receiver.mem_threshold_bytes, 32_000);
    assert_eq!(c.receiver.rcv_cwnd_pend, 127);
    assert_eq!(c.nscc.base_rtt_ps, Some(12_000_000));
    assert!(c.nscc.trimming);
    let (line, field, msg) = field_error("[receiver]\nrcv_cwnd_pend = 128\n");
    assert_eq!((line, field.as_str()), (2, "receiver.rcv_cwnd_pend"));
    assert!(msg.contains("0..=127"), "{msg}");
    let (line, field, _) = field_error("[receiver]\nmem_drain_rate = \"1bps\"\n");
    assert_eq!((line, field.as_str()), (2, "receiver.mem_drain_rate"));
    // 1 ns of base RTT rounds to 0 cycles: no registers for it.
    let (line, field, msg) = field_error("[nscc]\nbase_rtt = \"1ns\"\n");
    assert_eq!((line, field.as_str()), (2, "nscc.base_rtt"));
    assert!(msg.contains("NSCC registers"), "{msg}");
}

#[test]
fn an_nscc_sender_needs_the_network() {
    let o = Overrides {
        profile: Some(Profile::Nscc),
        ..Overrides::default()
    };
    match plan("fig9", &o) {
        Err(NetError::Flag { flag, message }) => {
            assert_eq!(flag, "--profile");
            assert!(message.starts_with("nscc: fig9"), "{message}");
        }
        Err(e) => panic!("expected a flag error, got {e}"),
        Ok(_) => panic!("expected a flag error"),
    }
    assert!(plan("nscc-incast", &Overrides::default()).is_ok());
    assert!(plan("nscc-fig12", &Overrides::default()).is_ok());
}
