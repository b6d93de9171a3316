//! Simulated seconds per wall second of the network simulation, one core, in one run: `fig12`
//! (3 senders, one switch) and `fig5` (8 senders, two tiers), each for NET_BENCH_SECONDS of
//! simulated time (default 0.2 s) from the experiment's defaults. Also reports the share of
//! limiter cycles that the closed-form skip advanced, which is what sets the speed, and fig5 once
//! more with every cycle stepped (`fig5/step`), the speed without the skip. Then the AdvCam funnel
//! (256 senders under 16 leaves, 100 Gb/s uplinks, PFC + DCQCN) for a tenth of that time, and fig12
//! with the upstream SURF block as every sender (`fig12/surf`: no closed form, every cycle stepped).

use dcqcn_net::advcam;
use dcqcn_net::config::{NetConfig, Profile};
use dcqcn_net::experiment::by_name;
use dcqcn_net::sim::Network;
use std::time::Instant;

fn main() {
    let seconds: f64 = std::env::var("NET_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.2);
    println!("experiment  senders  simulated_s  wall_s  sim_s_per_wall_s  limiter_cycles  skipped");
    let fig = |name: &str| by_name(name).expect("built-in experiment").default_config();
    let step = |mut c: NetConfig| {
        c.sender.skip = false;
        c
    };
    let surf = |mut c: NetConfig| {
        for f in &mut c.flows {
            f.profile = Profile::Surf;
        }
        c
    };
    let funnel = advcam::default_config(
        advcam::DEFAULT_LEAVES,
        advcam::DEFAULT_PER_LEAF,
        advcam::DEFAULT_UPLINK_BITS_PER_S,
    );
    for (name, cfg, seconds) in [
        ("fig12", fig("fig12"), seconds),
        ("fig5", fig("fig5"), seconds),
        ("fig4", fig("fig4"), seconds),
        ("fig5/step", step(fig("fig5")), seconds),
        ("advcam", funnel, seconds / 10.0),
        ("fig12/surf", surf(fig("fig12")), seconds / 10.0),
    ] {
        let mut cfg = cfg;
        cfg.duration_ps = (seconds * 1e12) as u64;
        let n = cfg.flows.len();
        let t0 = Instant::now();
        let r = Network::new(cfg).run(|_| {});
        let wall = t0.elapsed().as_secs_f64();
        let total = r.stepped_cycles + r.skipped_cycles;
        println!(
            "{name:<10}  {n:>7}  {seconds:>11.3}  {wall:>6.2}  {:>16.3}  {total:>14}  {:>6.1} %",
            seconds / wall,
            100.0 * r.skipped_cycles as f64 / total.max(1) as f64
        );
    }
}
