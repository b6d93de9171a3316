//! The lazy sender schedule, the AdvCam funnel and parameter maps: the schedule changes nothing
//! in any experiment's results (and its bound is never beaten), the funnel's two modes behave
//! as PFC and DCQCN do, and a sweep's results do not depend on the number of threads.

use dcqcn_net::advcam;
use dcqcn_net::config::{NetConfig, PS_PER_S};
use dcqcn_net::csv_out;
use dcqcn_net::experiment::ALL;
use dcqcn_net::sim::{FlowSample, Network, RunResult, Sample, Schedule};
use dcqcn_net::sweep;

fn csv(cfg: &NetConfig, schedule: Schedule) -> (Vec<u8>, RunResult) {
    let mut net = Network::new(cfg.clone());
    net.set_schedule(schedule);
    let r = net.run(|_| {});
    let names: Vec<String> = cfg.flows.iter().map(|f| f.name.clone()).collect();
    (csv_out::time_series(&names, &r), r)
}

/// A small funnel: 3 leaves of 4 senders, 40 Gb/s uplinks.
fn small_funnel(ms: u64) -> NetConfig {
    let mut c = advcam::default_config(3, 4, 40_000_000_000);
    c.duration_ps = ms * PS_PER_S / 1000;
    c
}

#[test]
fn lazy_schedule_gives_every_experiment_the_same_csv() {
    let mut cfgs: Vec<(String, NetConfig)> = ALL
        .iter()
        .filter(|e| e.name() != "fig9")
        .map(|e| {
            let mut c = e.default_config();
            // Long enough for CNPs, pauses and a stop or two at the default seed.
            c.duration_ps = c.duration_ps.min(PS_PER_S / 20);
            (e.name().to_string(), c)
        })
        .collect();
    let f = small_funnel(20);
    cfgs.push(("funnel".into(), f.clone()));
    cfgs.push(("funnel, PFC only".into(), advcam::pfc_only(&f)));
    for (name, c) in cfgs {
        let (eager, re) = csv(&c, Schedule::Eager);
        let (checked, _) = csv(&c, Schedule::Checked);
        let (lazy, rl) = csv(&c, Schedule::Lazy);
        assert_eq!(eager, checked, "{name}");
        assert_eq!(eager, lazy, "{name}: the lazy schedule changed the CSV");
        assert_eq!(re.flow_payload_bytes, rl.flow_payload_bytes, "{name}");
        assert_eq!(re.switches, rl.switches, "{name}");
        assert!(rl.flow_frames.iter().sum::<u64>() > 0, "{name}: no traffic");
    }
}

#[test]
fn funnel_pfc_only_pauses_and_dcqcn_marks() {
    let out = advcam::run(&small_funnel(30), &mut |_| {});
    let (pfc, dcqcn) = (&out.modes[0].0, &out.modes[1].0);
    assert_eq!(pfc.mode, "PFC only");
    assert_eq!(pfc.ecn_marks + pfc.cnps, 0, "{pfc:?}");
    assert!(
        pfc.leaf_xoff > 0,
        "12 senders at 10 Gb/s into 40 Gb/s: {pfc:?}"
    );
    assert!(dcqcn.ecn_marks > 0 && dcqcn.cnps > 0, "{dcqcn:?}");
    for m in [pfc, dcqcn] {
        assert_eq!(m.drops, 0, "{m:?}");
        assert!(m.min_gbps <= m.median_gbps && m.median_gbps <= m.max_gbps);
        assert!(m.aggregate_gbps <= m.capacity_gbps * 1.001, "{m:?}");
        assert_eq!(m.flow_gbps.len(), 12);
    }
    // Deterministic: the same outputs byte for byte.
    let again = advcam::run(&small_funnel(30), &mut |_| {});
    assert_eq!(out.csv, again.csv);
    assert_eq!(out.flows_csv, again.flows_csv);
    assert_eq!(out.table, again.table);
}

/// A run of `flows` flows over `samples` 1 ms samples with the throughput and timer counter
/// each sample gets from `f(sample, flow)`.
fn synthetic(flows: usize, samples: u64, f: impl Fn(u64, usize) -> (f64, u32)) -> RunResult {
    RunResult {
        samples: (1..=samples)
            .map(|k| Sample {
                t_ps: k * PS_PER_S / 1000,
                flows: (0..flows)
                    .map(|i| {
                        let (g, t) = f(k, i);
                        FlowSample {
                            payload_gbps: g,
                            rc_bytes_per_s: 0,
                            rt_bytes_per_s: 0,
                            alpha: 0,
                            cnps: 1,
                            marked: 1,
                            inc_timer_fires: t,
                        }
                    })
                    .collect(),
                switches: vec![],
            })
            .collect(),
        nscc: vec![],
        receiver_mem_max_bytes: 0,
        flow_payload_bytes: vec![0; flows],
        flow_frames: vec![0; flows],
        flow_cnps: vec![0; flows],
        switches: vec![Default::default()],
        xoff_ps: vec![0],
        stepped_cycles: 0,
        skipped_cycles: 0,
        duration_ps: samples * PS_PER_S / 1000,
    }
}

#[test]
fn collapse_is_low_throughput_in_every_sample_and_the_timer_is_told_apart() {
    let mut cfg = small_funnel(20);
    cfg.leaves = vec![4];
    cfg.flows.truncate(4);
    cfg.link.uplink_rate_bits_per_s = None;
    // Fair share 9.80 / 4 = 2.45 Gb/s; 10 % is 0.245.
    let fair = advcam::capacity_gbps(&cfg) / 4.0;
    // Flow 0: 0.2 Gb/s, timer silent from sample 5 on: collapsed, silent. Flow 1: as low, but
    // its timer fires in the window (sample 15): collapsed, not silent. Flow 2: silent timer, a
    // fair share. Flow 3: low but above 10 % in one sample of the window.
    let r = synthetic(4, 20, |k, i| match i {
        0 => (0.2, if k < 5 { k as u32 } else { 5 }),
        1 => (0.2, if k < 15 { 3 } else { 4 }),
        2 => (fair, 7),
        _ => (if k == 17 { fair * 0.1 + 0.01 } else { 0.1 }, 2),
    });
    let m = sweep::measure(&cfg, &r);
    assert_eq!(m.collapse, 0.5, "{m:?}");
    assert_eq!(m.collapse_timer_silent, 0.25, "{m:?}");
    assert_eq!(m.timer_silent, 0.75, "{m:?}");
    // The window is the second half: a timer that fired only before it does not count, nor
    // does low throughput before it.
    let r = synthetic(4, 20, |k, _| {
        (if k <= 10 { 5.0 } else { 0.2 }, k.min(10) as u32)
    });
    let m = sweep::measure(&cfg, &r);
    assert_eq!((m.collapse, m.collapse_timer_silent), (1.0, 1.0));
    let r = synthetic(4, 20, |k, _| {
        (if k <= 10 { 5.0 } else { 0.2 }, k.min(11) as u32)
    });
    let m = sweep::measure(&cfg, &r);
    assert_eq!((m.collapse, m.collapse_timer_silent), (1.0, 0.0));
    let r = synthetic(4, 20, |k, _| (if k <= 11 { 5.0 } else { 0.2 }, 0));
    assert_eq!(sweep::measure(&cfg, &r).collapse, 0.0);
}

#[test]
fn converged_at_is_the_start_of_the_last_good_stretch() {
    // One flow takes everything up to sample 29, then all four share equally.
    let cap = 4.0;
    let r = synthetic(4, 60, |k, i| {
        if k < 30 {
            (if i == 0 { 4.0 } else { 0.0 }, 0)
        } else {
            (1.0, 0)
        }
    });
    // A 10-sample window with one unfair sample has means 1.3 / 0.9 / 0.9 / 0.9 (Jain 0.971),
    // with two 1.6 / 0.8 / 0.8 / 0.8 (Jain 0.893): the first good window is 29..=38, and every
    // later one is good.
    assert_eq!(advcam::converged_at(&r, cap), Some(0.038));
    // An aggregate below 90 % fails as well: 0.85 each from sample 50 on.
    let r = synthetic(4, 60, |k, _| (if k >= 50 { 0.85 } else { 1.0 }, 0));
    assert_eq!(advcam::converged_at(&r, cap), None);
    let r = synthetic(4, 60, |_, _| (1.0, 0));
    assert_eq!(advcam::converged_at(&r, cap), Some(0.010));
    // One empty sample at the end averages out within its window (0.9 x 4 = 90 %).
    let r = synthetic(4, 60, |k, _| (if k == 60 { 0.0 } else { 1.0 }, 0));
    assert_eq!(advcam::converged_at(&r, cap), Some(0.010));
}

#[test]
fn sweep_results_do_not_depend_on_the_thread_count() {
    let mut base = sweep::base_config("incast").unwrap();
    base.leaves = vec![3];
    base.flows.truncate(3);
    base.duration_ps = PS_PER_S / 200;
    let x = sweep::parse_axis("--x", "receiver.cnp_interval=4us..64us:3").unwrap();
    assert_eq!(x.values, ["4us", "16us", "64us"]);
    let y = sweep::parse_axis("--y", "switch.kmin=1KB,50KB").unwrap();
    let grid = sweep::plan(&base, x, y).unwrap();
    assert_eq!(grid.points[1][2].receiver.cnp_interval_ps, 64_000_000);
    assert_eq!(grid.points[1][2].switch.kmin_bytes, 50_000);
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let r = pool.install(|| sweep::run(&grid, &|_| {}));
        sweep::csv(&grid, &r)
    };
    let one = on(1);
    assert_eq!(one, on(2));
    assert_eq!(one, on(3));
    // Each point is the run of its own configuration.
    let r = Network::new(grid.points[1][0].clone()).run(|_| {});
    let m = sweep::measure(&grid.points[1][0], &r);
    let text = String::from_utf8(one).unwrap();
    let row = text.lines().nth(4).unwrap();
    assert!(
        row.starts_with(&format!("4us,50KB,{:.4},", m.throughput_gbps)),
        "{row}"
    );
}

#[test]
fn axis_ranges_and_registers() {
    let a = sweep::parse_axis("--y", "registers.inc_interval=100us..10000us:3").unwrap();
    assert_eq!(a.values, ["100us", "1000us", "10000us"]);
    let a = sweep::parse_axis("--y", "switch.kmin=1.5KB..15KB:2").unwrap();
    assert_eq!(a.values, ["1.5KB", "15KB"]);
    let a = sweep::parse_axis("--y", "switch.pause_quanta=10..40:4:lin").unwrap();
    assert_eq!(a.values, ["10", "20", "30", "40"]);
    let base = sweep::base_config("incast").unwrap();
    let a = sweep::parse_axis("--y", "registers.inc_interval=1ms").unwrap();
    let c = sweep::apply(&base, &a, "1ms").unwrap();
    assert!(c.flows.iter().all(|f| f.registers.inc_interval == 156_250));
    assert!(base
        .flows
        .iter()
        .all(|f| f.registers.inc_interval != 156_250));
}
