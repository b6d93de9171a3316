//! Senders of the upstream SURF block (`profile = "surf"`): the parameter keys and their errors,
//! an incast of surf senders, profiles mixed in one file, and the emulated switch's cut record on
//! the upstream block. (One surf sender on an idle link: tests/net.rs, with ours.)

use dcqcn_harness::config_file::ConfigFileError;
use dcqcn_model::{Config, Inputs, Params};
use dcqcn_net::config::{apply_file, NetConfig, Profile, PS_PER_S};
use dcqcn_net::experiment::{by_name, senders_note};
use dcqcn_net::limiter::{Limiter, RESET_CYCLES};
use dcqcn_net::sim::{Network, RunResult};
use dcqcn_net::{csv_out, emulated, NetError};
use dcqcn_surf::model::{SurfLimiter, SurfParams};

const MS: u64 = PS_PER_S / 1000;
const L: u32 = 1_250_000_000;

fn fig12() -> NetConfig {
    by_name("fig12").unwrap().default_config()
}

fn run(cfg: &NetConfig) -> RunResult {
    Network::new(cfg.clone()).run(|_| {})
}

fn surf(mut c: NetConfig) -> NetConfig {
    for f in &mut c.flows {
        f.profile = Profile::Surf;
    }
    c
}

fn field_error(text: &str) -> (usize, String, String) {
    let mut c = fig12();
    match apply_file(&mut c, text, "p.toml") {
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
fn profile_keys_set_every_flow_or_one() {
    let mut c = fig12();
    apply_file(&mut c, "[sender]\nprofile = \"surf\"\n", "p.toml").unwrap();
    assert!(c.flows.iter().all(|f| f.profile == Profile::Surf));
    assert_eq!(senders_note(&c), " (senders: upstream SURF block)");
    let mut c = fig12();
    apply_file(
        &mut c,
        "[sender]\nprofile = \"surf\"\n[[flow]]\nprofile = \"ours\"\n[[flow]]\n[[flow]]\n",
        "p.toml",
    )
    .unwrap();
    let got: Vec<Profile> = c.flows.iter().map(|f| f.profile).collect();
    assert_eq!(got, [Profile::Ours, Profile::Surf, Profile::Surf]);
    assert_eq!(
        senders_note(&c),
        " (senders: 1 our block, 2 upstream SURF block)"
    );
    assert_eq!(senders_note(&fig12()), "");
}

#[test]
fn bad_profiles_name_their_key_and_line() {
    let (line, field, msg) = field_error("seed = 2\n[sender]\nprofile = \"upstream\"\n");
    assert_eq!((line, field.as_str()), (3, "sender.profile"));
    assert!(
        msg.contains("unknown profile `upstream` (known: ours, surf, mq, nscc)"),
        "{msg}"
    );
    let (line, field, _) = field_error("[[flow]]\n[[flow]]\nprofile = 3\n[[flow]]\n");
    assert_eq!((line, field.as_str()), (3, "flow[1].profile"));
    // Our registers upstream has no field for: refused at the key that chose upstream.
    let (line, field, msg) = field_error(
        "[sender]\nprofile = \"surf\"\n[[flow]]\n[flow.registers]\nbyte_en = true\n[[flow]]\n[[flow]]\n",
    );
    assert_eq!((line, field.as_str()), (2, "flow[0].registers.byte_en"));
    assert!(msg.contains("no byte counter"), "{msg}");
    let (line, field, msg) = field_error(
        "[[flow]]\n[[flow]]\n[[flow]]\nprofile = \"surf\"\n[flow.registers]\ncredit_cap = \"64KB\"\n",
    );
    assert_eq!((line, field.as_str()), (4, "flow[2].registers.credit_cap"));
    assert!(msg.contains("1048576"), "{msg}");
    let (_, field, _) = field_error(
        "[[flow]]\nprofile = \"surf\"\n[flow.registers]\ntimer_en = false\n[[flow]]\n[[flow]]\n",
    );
    assert_eq!(field, "flow[0].registers.timer_en");
}

/// Three surf senders into one port: the marks become CNPs, every sender's Rc comes down, the
/// queue stays below XOFF and nothing is dropped; the same seed gives the same CSV byte for byte.
#[test]
fn surf_incast_reacts_and_is_deterministic() {
    let mut c = surf(fig12());
    c.duration_ps = 20 * MS;
    let a = run(&c);
    let b = run(&c);
    let names: Vec<String> = c.flows.iter().map(|f| f.name.clone()).collect();
    assert_eq!(
        csv_out::time_series(&names, &a),
        csv_out::time_series(&names, &b)
    );
    assert_eq!(a.drops(), 0);
    for f in 0..3 {
        let cnps: u64 = a.samples.iter().map(|s| s.flows[f].cnps).sum();
        let lowest = a.samples.iter().map(|s| s.flows[f].rc_bytes_per_s).min();
        assert!(cnps > 0, "flow {f} saw no CNP");
        assert!(lowest.unwrap() < L / 2, "flow {f}: Rc never below L/2");
        // Each update of the increase process is counted.
        assert!(a.samples.last().unwrap().flows[f].inc_timer_fires > 0);
    }
    // Our senders on the same network give a different run: the profile is not ignored.
    let ours = run(&fig12_20ms());
    assert_ne!(
        csv_out::time_series(&names, &a),
        csv_out::time_series(&names, &ours)
    );
}

fn fig12_20ms() -> NetConfig {
    let mut c = fig12();
    c.duration_ps = 20 * MS;
    c
}

/// A surf limiter starts out of reset, configured: its registers are those of a `SurfLimiter`
/// given the same reset cycles and configuration, and its bucket is empty (the first frame is
/// upstream's free one, the second waits for tokens).
#[test]
fn surf_limiter_starts_out_of_reset_configured() {
    let regs = Config::paper_table2(&Params::DEFAULT);
    let Limiter::Surf(s) = Limiter::new(Profile::Surf, regs) else {
        panic!("a surf limiter")
    };
    let mut m = SurfLimiter::new(SurfParams::default());
    for _ in 0..RESET_CYCLES {
        m.step(&Inputs {
            rst: true,
            ..Inputs::default()
        });
    }
    assert_eq!(s.model.datapath().bucket.count, 0);
    assert_eq!(s.model.rate().regs.dec_interval, regs.dec_interval);
    assert_eq!(s.model.rate().regs.inc_interval, regs.inc_interval);
    assert_eq!(s.model.rate().regs.alpha_interval, regs.alpha_interval);
    assert!(s.model.rate().regs.clamp_tgt_rate);
    assert_eq!(s.model.datapath().bucket, m.datapath().bucket);
}

/// The emulated switch on the upstream block: the first CNP finds alpha = 1023/1024 and halves Rc
/// to upstream's 625,610,352 B/s (the product truncated, spec of rate_dec.rs), and the recorded
/// cut is the one the Rc register then shows.
#[test]
fn emulated_switch_records_upstream_cuts() {
    let regs = Config::paper_table2(&Params::DEFAULT);
    let sw = dcqcn_harness::emulated_switch::EmulatedSwitch::paper(5.0, &Params::DEFAULT);
    let run = emulated::run(Profile::Surf, regs, 4112, 12, 4, sw, 800_000, 100, |_| {});
    let first = run.cnps.first().expect("a CNP in 5 ms");
    assert_eq!(first.alpha, 1023);
    assert_eq!(
        (first.rc_before_bytes_per_s, first.rc_after_bytes_per_s),
        (L, 625_610_352)
    );
    let after = run
        .points
        .iter()
        .find(|p| p.cycle > first.cycle + 2)
        .unwrap();
    assert_eq!(after.rc_bytes_per_s, 625_610_352);
}
