//! The CSV files the experiments write (the `csv` crate; numbers formatted here, one row per
//! sample).

use crate::config::PS_PER_S;
use crate::emulated::Fig9Run;
use crate::sim::{register_gbps, RunResult};

/// A CSV of `header` and `rows`.
fn write(header: Vec<String>, rows: impl IntoIterator<Item = Vec<String>>) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in std::iter::once(header).chain(rows) {
        w.write_record(&r)
            .expect("writing CSV into memory cannot fail");
    }
    w.into_inner().expect("writing CSV into memory cannot fail")
}

/// The network's time series: one row per sample; per flow the payload throughput (Gb/s), Rc
/// and Rt (Gb/s), alpha, CNPs and CE-marked frames in the interval; per switch the uplink queue
/// (bytes), XOFF frames and marks in the interval, drops so far. `names` are the flows'.
pub fn time_series(names: &[String], r: &RunResult) -> Vec<u8> {
    let mut header = vec!["time_s".to_string()];
    for n in names {
        for c in ["gbps", "rc_gbps", "rt_gbps", "alpha", "cnps", "marked"] {
            header.push(format!("{n}_{c}"));
        }
    }
    for k in 0..r.switches.len() {
        for c in ["queue_bytes", "xoff", "marks", "drops"] {
            header.push(format!("sw{k}_{c}"));
        }
    }
    let rows = r.samples.iter().map(|s| {
        let mut row = vec![format!("{:.6}", s.t_ps as f64 / PS_PER_S as f64)];
        for f in &s.flows {
            row.extend([
                format!("{:.4}", f.payload_gbps),
                format!("{:.4}", register_gbps(f.rc_bytes_per_s)),
                format!("{:.4}", register_gbps(f.rt_bytes_per_s)),
                format!("{:.4}", f64::from(f.alpha) / 1024.0),
                f.cnps.to_string(),
                f.marked.to_string(),
            ]);
        }
        for w in &s.switches {
            row.extend([w.queue_bytes, w.xoff, w.marks, w.drops].map(|v| v.to_string()));
        }
        row
    });
    write(header, rows)
}

/// fig9's time series: per point the time (ms), the window's throughput, Rc and Rt (Gb/s),
/// alpha, and the CNPs so far; `cycle_ps` is the limiter's clock period.
pub fn fig9(run: &Fig9Run, cycle_ps: u64) -> Vec<u8> {
    let header = [
        "time_ms",
        "window_gbps",
        "rc_gbps",
        "rt_gbps",
        "alpha",
        "cnps",
    ];
    let ms = |c: u64| c as f64 * cycle_ps as f64 / 1e9;
    let mut seen = 0;
    let rows = run.points.iter().map(|p| {
        while seen < run.cnps.len() && run.cnps[seen].cycle <= p.cycle {
            seen += 1;
        }
        vec![
            format!("{:.4}", ms(p.cycle)),
            format!("{:.4}", p.window_gbps),
            format!("{:.4}", register_gbps(p.rc_bytes_per_s)),
            format!("{:.4}", register_gbps(p.rt_bytes_per_s)),
            format!("{:.4}", f64::from(p.alpha) / 1024.0),
            seen.to_string(),
        ]
    });
    write(header.map(String::from).to_vec(), rows)
}

/// Runs of one network side by side (the NSCC experiments): one row per sample, the runs'
/// samples aligned (the same duration and sample interval). Per run, its columns prefixed with
/// its label: per flow the payload throughput (Gb/s) and, for a run with NSCC samples, the
/// window and inflight (bytes); per switch the uplink queue (bytes) and marks in the interval;
/// with NSCC samples, the receiver's memory queue (bytes) and the penalised ACKs in the interval.
pub fn side_by_side(runs: &[(&str, &[String], &RunResult)]) -> Vec<u8> {
    let mut header = vec!["time_s".to_string()];
    for (label, names, r) in runs {
        let nscc = !r.nscc.is_empty();
        for n in names.iter() {
            header.push(format!("{label}_{n}_gbps"));
            if nscc {
                header.push(format!("{label}_{n}_cwnd_bytes"));
                header.push(format!("{label}_{n}_inflight_bytes"));
            }
        }
        for k in 0..r.switches.len() {
            header.push(format!("{label}_sw{k}_queue_bytes"));
            header.push(format!("{label}_sw{k}_marks"));
        }
        if nscc {
            header.push(format!("{label}_receiver_mem_bytes"));
            header.push(format!("{label}_penalised_acks"));
        }
    }
    let samples = runs.iter().map(|r| r.2.samples.len()).min().unwrap_or(0);
    let rows = (0..samples).map(|i| {
        let t = runs[0].2.samples[i].t_ps;
        let mut row = vec![format!("{:.6}", t as f64 / PS_PER_S as f64)];
        for (_, _, r) in runs {
            let s = &r.samples[i];
            let n = r.nscc.get(i);
            for (k, f) in s.flows.iter().enumerate() {
                row.push(format!("{:.4}", f.payload_gbps));
                if let Some(n) = n {
                    row.push(n.cwnd_bytes[k].to_string());
                    row.push(n.inflight_bytes[k].to_string());
                }
            }
            for w in &s.switches {
                row.push(w.queue_bytes.to_string());
                row.push(w.marks.to_string());
            }
            if let Some(n) = n {
                row.push(n.receiver_mem_bytes.to_string());
                row.push(n.penalised_acks.to_string());
            }
        }
        row
    });
    write(header, rows)
}
