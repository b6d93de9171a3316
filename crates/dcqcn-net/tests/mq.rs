//! NIC senders on the multi-QP block (`profile = "mq"`, crate::nic): the grants of all QPs fit
//! the link, a QP's CNPs cut that QP alone, the mq-incast experiment is deterministic and its
//! schedules agree, and bad NIC configurations are refused naming their key.

use dcqcn_harness::config_file::ConfigFileError;
use dcqcn_model::mq::MqParams;
use dcqcn_net::config::{apply_file, NetConfig, Profile, PS_PER_S};
use dcqcn_net::csv_out;
use dcqcn_net::experiment::{by_name, plan, Overrides};
use dcqcn_net::nic::{NicDeparture, NicSender, TX_SLOTS};
use dcqcn_net::sim::{Network, RunResult, Schedule};
use dcqcn_net::NetError;

const MS: u64 = PS_PER_S / 1000;
const CYCLE_PS: u64 = 6_400;

fn mq_incast() -> NetConfig {
    by_name("mq-incast").unwrap().default_config()
}

/// A NIC of `qps` QPs with the default network's frame and link, every flow on from time 0.
fn nic(qps: usize) -> (NicSender, NetConfig) {
    let c = mq_incast();
    let p = c.link.mq_params(qps as u32).unwrap();
    (NicSender::new(p, &c.flows[..qps], &c.frame, &c.link), c)
}

#[test]
fn grants_of_all_qps_add_up_to_the_link_and_no_more() {
    let (mut n, c) = nic(16);
    let mut out: Vec<NicDeparture> = Vec::new();
    let t = 4 * MS;
    n.advance_to(t, &mut out);
    let cycles = t / CYCLE_PS;
    assert_eq!(n.stepped_cycles, cycles);
    let block = n.block().state();
    // Every grant the block counted reached a QP's tally, and no request was ever refused.
    let grants: u64 = n.grants.iter().sum();
    assert_eq!(grants, u64::from(block.regs.cnt.cnt_grant));
    assert_eq!(block.regs.cnt.cnt_req_drop, 0);
    // The wire: one frame after another, never two at once, and busy nearly all the time.
    let wire_ps = c.link.ser_ps(u64::from(c.frame.wire_bytes()));
    let frames = out.len() as u64;
    assert_eq!(frames, n.frames_sent);
    for w in out.windows(2) {
        assert!(w[1].0 - w[0].0 >= wire_ps, "{w:?}");
    }
    assert!(frames * wire_ps <= t + wire_ps, "{frames} frames in {t} ps");
    assert!(
        frames * wire_ps * 100 >= t * 99,
        "{frames} frames: the link idles"
    );
    // Granted bytes: at most the line rate (the speed limiter, spec-mq 4.5: LINE_WIN bytes per
    // 1024 cycles plus its 64 KiB cap) and at most a full transmit queue ahead of the wire.
    let granted: u64 = n.granted_bytes.iter().sum();
    let p = MqParams::with_qps(16).unwrap();
    let cap = u64::from(block.regs.cfg.credit_cap);
    assert!(granted <= u64::from(p.line_win()) * cycles / 1024 + cap + 65_535);
    assert!(grants >= frames && grants <= frames + TX_SLOTS as u64);
    // Round robin among 16 QPs that always have a request: equal shares within one grant.
    let (lo, hi) = (
        n.grants.iter().min().unwrap(),
        n.grants.iter().max().unwrap(),
    );
    assert!(hi - lo <= 1, "{:?}", n.grants);
}

#[test]
fn a_qps_cnps_cut_that_qp_and_not_the_others() {
    let (mut n, _) = nic(8);
    let mut out = Vec::new();
    n.advance_to(MS, &mut out);
    let before = n.grants.clone();
    // CNPs for QP 5 every 50 us for 2 ms.
    for k in 0..40u64 {
        let t = MS + k * 50_000_000;
        n.advance_to(t, &mut out);
        n.cnp(t, 5);
    }
    n.advance_to(3 * MS, &mut out);
    let line = MqParams::DEFAULT.line_rate();
    for q in 0..8u16 {
        let v = n.view(q);
        if q == 5 {
            assert!(v.rc < line / 8, "QP 5 Rc {}", v.rc);
            assert!(v.alpha > 0);
        } else {
            assert_eq!(v.rc, line, "QP {q} was cut");
        }
    }
    assert_eq!(n.cnps_received, 40);
    assert_eq!(n.block().state().regs.cnt.cnt_cnp, 40);
    // Grants in the last two ms: QP 5 far below each other QP.
    let got: Vec<u64> = n.grants.iter().zip(&before).map(|(a, b)| a - b).collect();
    let least = got
        .iter()
        .enumerate()
        .filter(|(q, _)| *q != 5)
        .map(|(_, g)| *g)
        .min()
        .unwrap();
    assert!(got[5] * 2 < least, "{got:?}");
    // The others took what QP 5 left: the wire stayed full.
    let total: u64 = got.iter().sum();
    let wire_frames = 2 * MS / 3_343_000;
    assert!(total + 2 >= wire_frames, "{got:?}");
}

fn short(mut c: NetConfig) -> NetConfig {
    c.duration_ps = 4 * MS;
    c
}

fn csv(c: &NetConfig, r: &RunResult) -> Vec<u8> {
    let names: Vec<String> = c.flows.iter().map(|f| f.name.clone()).collect();
    csv_out::time_series(&names, r)
}

#[test]
fn mq_incast_is_deterministic_and_its_schedules_agree() {
    let c = short(mq_incast());
    assert_eq!((c.flows.len(), c.senders(), c.sender.qps), (64, 4, 16));
    let a = Network::new(c.clone()).run(|_| {});
    let b = Network::new(c.clone()).run(|_| {});
    let ca = csv(&c, &a);
    assert_eq!(ca, csv(&c, &b));
    let mut eager = Network::new(c.clone());
    eager.set_schedule(Schedule::Checked);
    let e = eager.run(|_| {});
    assert_eq!(ca, csv(&c, &e));
    // Every QP delivered, no drop, the bottleneck full but not beyond the link's payload rate.
    assert!(a.flow_payload_bytes.iter().all(|&b| b > 0));
    assert_eq!(a.drops(), 0);
    let bits: u64 = a.flow_payload_bytes.iter().sum::<u64>() * 8;
    let line_bits = 10e9 * 4096.0 / 4178.0 * 0.004;
    assert!((bits as f64) <= line_bits, "{bits} bits");
    assert!((bits as f64) > 0.9 * line_bits, "{bits} bits");
    // Every stepped cycle is a block cycle of one of the four NICs.
    assert_eq!(a.stepped_cycles, 4 * c.duration_ps / CYCLE_PS);
    assert_eq!(a.skipped_cycles, 0);
    // The incast marked and cut: CNPs reached the NICs.
    assert!(a.flow_cnps.iter().sum::<u64>() > 0);
}

#[test]
fn a_single_qp_nic_per_sender_runs_any_network_experiment() {
    let o = Overrides {
        profile: Some(Profile::Mq),
        duration_s: Some(0.004),
        ..Overrides::default()
    };
    let (_, c) = plan("fig12", &o).unwrap().remove(0);
    assert!(c.is_nic());
    assert_eq!((c.flows.len(), c.sender.qps), (3, 1));
    let r = Network::new(c).run(|_| {});
    assert!(r.flow_payload_bytes.iter().all(|&b| b > 0));
    // fig9 has no network: refused, naming the flag.
    match plan("fig9", &o) {
        Err(NetError::Flag { flag, .. }) => assert_eq!(flag, "--profile"),
        other => panic!("{:?}", other.map(|_| ())),
    }
}

fn field_error(text: &str) -> (usize, String, String) {
    let mut c = mq_incast();
    match apply_file(&mut c, text, "n.toml") {
        Err(NetError::File(ConfigFileError::Field {
            line,
            field,
            message,
            ..
        })) => (line, field, message),
        other => panic!("{text:?}: {:?}", other.map(|_| ())),
    }
}

#[test]
fn bad_nic_configurations_name_their_key() {
    let (line, field, msg) = field_error("seed = 3\n[sender]\nqps = 0\n");
    assert_eq!((line, field.as_str()), (3, "sender.qps"));
    assert!(msg.contains("1..=4096"), "{msg}");
    let (line, field, _) = field_error("[sender]\nqps = 4097\n");
    assert_eq!((line, field.as_str()), (2, "sender.qps"));
    let (line, field, msg) = field_error("[topology]\nleaves = [0]\n");
    assert_eq!((line, field.as_str()), (2, "topology.leaves"));
    assert!(msg.contains("at least one per leaf"), "{msg}");
    let (_, field, _) = field_error("[topology]\nleaves = []\n");
    assert_eq!(field, "topology.leaves");
    // Several QPs per sender without the NIC profile.
    let (line, field, msg) = field_error("[sender]\nprofile = \"ours\"\n");
    assert_eq!((line, field.as_str()), (0, "sender.qps"));
    assert!(msg.contains("need profile \"mq\""), "{msg}");
    // A link beyond the block's 32-bit LINE_RATE.
    let (line, field, _) = field_error("[link]\nrate = \"40Gbps\"\n");
    assert_eq!((line, field.as_str()), (2, "link.rate"));
    // Fewer QPs: the flows follow, renamed by NIC and QP.
    let mut c = mq_incast();
    apply_file(
        &mut c,
        "[sender]\nqps = 3\n[topology]\nleaves = [2]\n",
        "n.toml",
    )
    .unwrap();
    let names: Vec<&str> = c.flows.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        ["nic0_qp0", "nic0_qp1", "nic0_qp2", "nic1_qp0", "nic1_qp1", "nic1_qp2"]
    );
}
