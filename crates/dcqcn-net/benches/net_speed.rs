//! Simulated seconds per wall second of the network simulation, one core, in one run: `fig12`
//! (3 senders, one switch) and `fig5` (8 senders, two tiers), each for NET_BENCH_SECONDS of
//! simulated time (default 0.2 s) from the experiment's defaults. Also reports the share of
//! limiter cycles that the closed-form skip advanced, which is what sets the speed, and fig5 once
//! more with every cycle stepped (`fig5/step`), the speed without the skip.

use dcqcn_net::experiment::by_name;
use dcqcn_net::sim::Network;
use std::time::Instant;

fn main() {
    let seconds: f64 = std::env::var("NET_BENCH_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.2);
    println!("experiment  senders  simulated_s  wall_s  sim_s_per_wall_s  limiter_cycles  skipped");
    for (name, skip) in [
        ("fig12", true),
        ("fig5", true),
        ("fig4", true),
        ("fig5", false),
    ] {
        let mut cfg = by_name(name).expect("built-in experiment").default_config();
        cfg.duration_ps = (seconds * 1e12) as u64;
        cfg.sender.skip = skip;
        let name = if skip {
            name.to_string()
        } else {
            format!("{name}/step")
        };
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
