//! Golden sets: what a set replays ([`SetDef`]: a built-in scenario, a canonical set or a saved
//! fuzz case), the canonical sets checked in under `golden/`, and [`generate`] / [`write_set`]
//! (`dcqcn golden gen`): the model run over the set, encoded as `vectors.txt`, `config.txt`,
//! `case.json` for a fuzz case, and the manifest.

use super::def::{SetDef, Source};
use super::format::{check_lines, cycle_values, Encoder, MAX_CYCLES, MAX_RUN_CYCLES, MODEL};
use super::manifest::Manifest;
use super::{io, GoldenError};
use crate::coverage::Coverage;
use crate::run::{run_model, RunSpec};
use crate::scenario;
use crate::stimulus::{CnpSpec, DataPattern, StimulusSpec};
use dcqcn_model::{regmap, Config, Features, Params};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The canonical sets checked in under `golden/`: built-in scenarios of `make cosim`, shortened,
/// some retuned so that their events happen within a short set, and with ramp payloads (compact
/// vectors). Fuzz cases come from the regression folder ([`canonical_with_cases`]).
pub fn canonical() -> Vec<SetDef> {
    // (set, scenario, cycles, description if retuned, retuning)
    type Tweak = fn(&mut StimulusSpec);
    let keep: Tweak = |_| {};
    let sets: [(&str, &str, u64, Option<&str>, Tweak); 12] = [
        (
            "paper-table2",
            "paper-table2",
            400_000,
            Some("Table II registers, saturating 4096 B RDMA WRITEs, the paper's emulated switch (5000-cycle window, 5 Gb/s, 50 us cooldown): decreases, alpha updates and the first 2 ms timer increase"),
            keep,
        ),
        ("upstream-reset", "upstream-reset", 200_000, None, keep),
        (
            "bypass",
            "bypass",
            100_000,
            Some("bypass toggled every 20k cycles on compressed intervals, CNPs every 3001 cycles throughout: counted, ignored while bypassed"),
            |s| {
                s.config = scenario::compressed(&Params::DEFAULT);
                s.axil.periodic[0].period = 20_000;
                s.cnp = CnpSpec::Periodic {
                    period: 3_001,
                    width: 2,
                };
            },
        ),
        (
            "backpressure-storm",
            "backpressure",
            100_000,
            Some("32 B beats, bursty downstream stalls (mean 20 ready / 200 stalled) against a 512 B credit cap, switch CNPs at 2 Gb/s, compressed intervals"),
            |s| {
                let p32 = Params::with_data_bytes(32).expect("a legal width");
                s.config = Config {
                    credit_cap: 512,
                    ..scenario::compressed(&p32)
                };
            },
        ),
        ("cnp-storm", "cnp-storm", 60_000, None, keep),
        (
            "regs-decerr",
            "regs-midrun",
            60_000,
            Some("readback of every word, rewrites mid-run, unmapped and read-only words (DECERR), slow bready/rready"),
            |s| {
                s.axil.read_prob = 0.05;
                s.axil.write_prob = 0.01;
                s.cnp = CnpSpec::Random {
                    prob: 0.002,
                    max_width: 3,
                };
            },
        ),
        (
            "reset-midframe",
            "reset-midframe",
            60_000,
            Some("synchronous resets of 1-20 cycles (mean every 8k cycles), mid-frame and mid-transaction; configuration reprogrammed"),
            |s| s.resets.mean_interval = 8_000,
        ),
        ("trigger-collisions", "trigger-collisions", 30_000, None, keep),
        ("random-frames-64b", "random-frames", 40_000, None, keep),
        (
            "rate-rules",
            "rate-rules",
            50_000,
            Some("extension rate rules (0x150-0x158): Rmax ceiling, rate on first CNP, min_dec_fac, initial alpha, i x R_HAI on compressed intervals with both triggers; bypass toggled every 10k cycles, Rmax rewritten every 7k and the rule word every 6k cycles"),
            |s| {
                for (w, period) in s.axil.periodic.iter_mut().zip([10_000, 7_000, 6_000]) {
                    w.period = period;
                }
            },
        ),
        (
            "schemes",
            "schemes",
            50_000,
            Some("control schemes (0x15C-0x160, spec 4.9) switched every 4k cycles: hardware DCQCN, firmware rate, DCQCN observing, firmware only, the gate mask; the firmware rate rewritten every 6.5k cycles (0, in range, above L)"),
            |s| {
                for (w, period) in s.axil.periodic.iter_mut().zip([4_000, 6_500]) {
                    w.period = period;
                }
            },
        ),
        (
            "trace",
            "trace",
            50_000,
            Some("event trace (0x170-0x18C, spec 4.10): armed from the start, window modes switched with and without clears every 8k cycles, disarmed spells; entry k selected every 100 cycles and random reads of every word"),
            |s| {
                for (w, period) in s.axil.periodic.iter_mut().zip([8_000, 100]) {
                    w.period = period;
                }
            },
        ),
    ];
    let mut sets: Vec<SetDef> = sets
        .into_iter()
        .map(|(name, from, cycles, description, tweak)| {
            let sc = scenario::by_name(from).expect("a built-in scenario");
            let mut stimulus = sc.stimulus.clone();
            tweak(&mut stimulus);
            if let Some(t) = stimulus.traffic.as_mut() {
                t.data = DataPattern::Ramp;
            }
            SetDef {
                name: name.to_string(),
                description: description.unwrap_or(sc.description).to_string(),
                params: sc.params(),
                stimulus,
                seed: 1,
                cycles,
                source: Source::Canonical(name.to_string()),
            }
        })
        .collect();
    sets.push(base_absent());
    sets
}

/// The canonical set of the base configuration (spec 2): readback and rewrites of every word,
/// the absent features' words among them (they answer DECERR there), on the base block; the other
/// sets are recorded on the full block and say in their manifest whether the base one produces
/// the same vectors.
fn base_absent() -> SetDef {
    let sc = scenario::by_name("regs-midrun").expect("a built-in scenario");
    let mut stimulus = sc.stimulus.clone();
    stimulus.axil.read_prob = 0.05;
    stimulus.axil.write_prob = 0.01;
    stimulus.axil.rule_words = true;
    stimulus.axil.scheme_words = true;
    stimulus.axil.trace_words = true;
    stimulus.cnp = CnpSpec::Random {
        prob: 0.002,
        max_width: 3,
    };
    SetDef {
        name: "base-absent".into(),
        description: "the base block (no rate rules, control schemes or trace): readback and rewrites of every word, the absent features' words 0x150-0x18C among them (DECERR, read 0, no effect), unmapped and read-only words, slow bready/rready".into(),
        params: sc
            .params()
            .with_features(Features::BASE)
            .expect("the base configuration is legal"),
        stimulus,
        seed: 1,
        cycles: 60_000,
        source: Source::Canonical("base-absent".into()),
    }
}

/// The canonical sets plus one per saved fuzz regression in `regressions_dir` (if it exists).
pub fn canonical_with_cases(regressions_dir: &Path) -> Result<Vec<SetDef>, GoldenError> {
    let mut sets = canonical();
    let mut files: Vec<PathBuf> = match std::fs::read_dir(regressions_dir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect(),
        Err(_) => Vec::new(),
    };
    files.sort();
    for f in files {
        sets.push(SetDef::from_case_file(&f)?);
    }
    Ok(sets)
}

/// A canonical set by name.
pub fn canonical_set(name: &str) -> Result<SetDef, GoldenError> {
    let mut all = canonical();
    match all.iter().position(|s| s.name == name) {
        Some(k) => Ok(all.swap_remove(k)),
        None => Err(GoldenError::UnknownSet {
            name: name.to_string(),
            known: all.into_iter().map(|s| s.name).collect(),
        }),
    }
}

/// The files of one generated set, in memory.
pub struct GeneratedSet {
    pub files: Vec<(&'static str, Vec<u8>)>,
    /// The functional-coverage bins of `make cosim` that the set reaches.
    pub coverage: Coverage,
    pub cycles: u64,
    pub templates_defined: u64,
    /// The feature configurations whose block produces these vectors (spec 2), the set's own
    /// first: the manifest's `builds`.
    pub builds: Vec<Features>,
}

impl GeneratedSet {
    /// The size of every file together.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|(_, b)| b.len() as u64).sum()
    }
}

/// The model run of a set (no RTL).
pub(crate) fn run_spec(def: &SetDef) -> RunSpec {
    RunSpec {
        scenario: def.name.clone(),
        params: def.params,
        stimulus: def.stimulus.clone(),
        seed: def.seed,
        cycles: def.cycles,
        variant: String::new(),
        replay: String::new(),
        rtl_init_seed: 0,
        initial_state: None,
    }
}

/// Runs the model over the set and encodes it.
pub fn generate(def: &SetDef) -> Result<GeneratedSet, GoldenError> {
    let db = def.params.data_bytes();
    if !(1..=MAX_RUN_CYCLES).contains(&def.cycles) {
        return Err(GoldenError::File {
            file: def.name.clone(),
            reason: format!(
                "{} cycles: `golden gen` and `golden verify` run 1 to {MAX_RUN_CYCLES} cycles per set (the format holds up to {MAX_CYCLES}; docs/golden-format.md)",
                def.cycles
            ),
        });
    }
    if def.stimulus.resets.initial_cycles == 0 {
        return Err(GoldenError::File {
            file: def.name.clone(),
            reason: "a golden set must start with at least one reset cycle (HDL registers power up undefined)".into(),
        });
    }
    let comments = vec![
        format!("set {}: {}", def.name, def.description),
        format!("generated by {MODEL}; see docs/golden-format.md"),
    ];
    let mut enc = Encoder::new(db, &comments);
    let mut coverage = Coverage::new();
    run_model(&run_spec(def), |_, i, out, m| {
        enc.push(&cycle_values(i, &m.snapshot(out), db));
        coverage.sample(i, out, m);
    });
    let v = enc.finish();
    // spec 2: the feature configurations whose block produces these vectors too (the set's own
    // first): the same stimulus on each other one, compared byte for byte
    let mut builds = vec![def.params.features()];
    for other in [Features::FULL, Features::BASE] {
        if builds.contains(&other) {
            continue;
        }
        let params = def
            .params
            .with_features(other)
            .expect("a built configuration");
        let mut enc = Encoder::new(db, &comments);
        run_model(
            &RunSpec {
                params,
                ..run_spec(def)
            },
            |_, i, out, m| {
                enc.push(&cycle_values(i, &m.snapshot(out), db));
            },
        );
        if enc.finish().text == v.text {
            builds.push(other);
        }
    }

    let mut config = String::from(
        "# register writes (full strobes) that program the configuration after each reset\n",
    );
    for (addr, data) in def.stimulus.config.register_writes(&def.params) {
        let name = regmap::lookup(addr).map_or("?", |r| r.1);
        let _ = writeln!(config, "w {addr:03x} {data:08x} f {name}");
    }

    let mut files: Vec<(&'static str, Vec<u8>)> = vec![
        ("vectors.txt", v.text.into_bytes()),
        ("config.txt", config.into_bytes()),
    ];
    if let Source::Case(saved) = &def.source {
        let mut json = serde_json::to_string_pretty(saved).expect("a case serialises");
        json.push('\n');
        files.push(("case.json", json.into_bytes()));
    }
    let manifest = Manifest::for_set(def, v.cycles, &coverage, &builds, &files);
    files.push(("manifest.txt", manifest.render().into_bytes()));
    for (name, bytes) in &files {
        check_lines(&format!("{}/{name}", def.name), bytes)?;
    }
    Ok(GeneratedSet {
        files,
        coverage,
        cycles: v.cycles,
        templates_defined: v.templates_defined,
        builds,
    })
}

/// Writes a generated set into `dir` (created if missing).
pub fn write_set(dir: &Path, set: &GeneratedSet) -> Result<(), GoldenError> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    for (name, bytes) in &set.files {
        let p = dir.join(name);
        std::fs::write(&p, bytes).map_err(io(&p))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::golden::format::Decoder;

    /// Decoding the encoded file gives back the model's values, cycle for cycle, for the first
    /// 20k cycles of every canonical set (every beat width, `c` and `r` records, evictions).
    #[test]
    fn round_trip_is_exact() {
        let mut records = (0, 0);
        for mut def in canonical() {
            def.cycles = def.cycles.min(20_000);
            let db = def.params.data_bytes();
            let g = generate(&def).expect("generates");
            let text = std::str::from_utf8(&g.files[0].1).expect("text");
            records.0 += text.matches("\nc ").count();
            records.1 += text.matches("\nr ").count();
            let mut d = Decoder::new("t", text).expect("valid");
            run_model(&run_spec(&def), |k, i, out, m| {
                let want = cycle_values(i, &m.snapshot(out), db);
                let got = d.next_cycle().expect("valid").expect("a cycle");
                assert_eq!(got, &want[..], "{} cycle {k}", def.name);
            });
            assert!(d.next_cycle().expect("valid").is_none());
        }
        assert!(records.0 > 100 && records.1 > 100, "{records:?}");
    }

    #[test]
    fn generation_is_byte_identical() {
        let mut small = canonical_set("cnp-storm").expect("a canonical set");
        small.cycles = 3_000;
        let a = generate(&small).expect("generates");
        let b = generate(&small).expect("generates");
        assert_eq!(a.files, b.files);
    }

    #[test]
    fn sets_by_name_and_from_case_files() {
        assert_eq!(canonical_set("bypass").expect("known").name, "bypass");
        let e = canonical_set("nope").expect_err("unknown").to_string();
        assert!(
            e.contains("unknown golden set `nope`") && e.contains("paper-table2"),
            "{e}"
        );
        let dir =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../dcqcn-cosim/tests/fuzz-regressions");
        let d = SetDef::from_case_file(&dir.join("mutant-gate-strict.json")).expect("a case");
        assert_eq!(d.name, "fuzz-mutant-gate-strict");
        assert!(matches!(d.source, Source::Case(_)));
        let all = canonical_with_cases(&dir).expect("loads");
        assert!(all.iter().any(|s| s.name == "fuzz-mutant-gate-strict"));
        assert_eq!(all.len(), canonical().len() + 6);
    }
}
