//! The model's speed at QPS = 1024 with traffic on every QP (spec-mq: the lockstep runs millions
//! of cycles). Ignored by default; run in release:
//! `cargo test --release -p dcqcn-model --test mq_speed -- --ignored --nocapture`.

use std::collections::VecDeque;
use std::time::Instant;

use dcqcn_model::mq::{MqBlock, MqInputs, MqParams, QpEvent};

/// Steps `cycles` cycles of mixed traffic after reset: a request every cycle (QPs in a stride over all 1024),
/// a report for every grant 20 cycles after it, a CNP every 64 cycles; returns grants seen.
fn run(b: &mut MqBlock, cycles: u64) -> u64 {
    let mut pending: VecDeque<(u64, u16, u16)> = VecDeque::new();
    let mut grants = 0;
    let qps = u64::from(b.params().qps());
    for t in 0..cycles {
        let mut i = MqInputs {
            req: QpEvent {
                valid: true,
                qp: ((t * 37) % qps) as u16,
                bytes: 64 + (t % 1024) as u16,
            },
            ..MqInputs::default()
        };
        if t % 64 == 0 {
            i.cnp = QpEvent {
                valid: true,
                qp: ((t / 64 * 101) % qps) as u16,
                bytes: 0,
            };
        }
        if pending.front().is_some_and(|p| p.0 <= t) {
            let (_, qp, bytes) = pending.pop_front().unwrap();
            i.rpt = QpEvent {
                valid: true,
                qp,
                bytes,
            };
        }
        let o = b.step(&i);
        if o.m_grant_valid {
            grants += 1;
            pending.push_back((t + 20, o.m_grant_qp, o.m_grant_bytes));
        }
    }
    grants
}

#[test]
#[ignore]
fn speed_at_qps_1024() {
    let mut b = MqBlock::new(MqParams::DEFAULT);
    // The port limiter off, so that the picker grants nearly every cycle.
    b.state_mut().regs.cfg.speed_limiter_en = false;
    let n = 5_000_000;
    let t0 = Instant::now();
    let grants = run(&mut b, n);
    let s = t0.elapsed().as_secs_f64();
    println!(
        "QPS 1024: {n} cycles in {s:.3} s = {:.2} M cycles/s, {grants} grants",
        n as f64 / s / 1e6
    );
    assert!(grants > n / 5);
    let mut b = MqBlock::new(MqParams::DEFAULT);
    let t0 = Instant::now();
    for _ in 0..200_000 {
        let _ = b.step_obs(&MqInputs::default());
    }
    let s = t0.elapsed().as_secs_f64();
    println!("step_obs: {:.3} M cycles/s", 0.2 / s);
}
