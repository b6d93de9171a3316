use super::*;

#[test]
fn long_titles_and_labels_stay_inside_a_narrow_figure() {
    let mut fig = sample();
    fig.width = 320.0;
    fig.title = "a figure title much longer than the figure is wide, in words ".repeat(4)
        + &"x".repeat(300);
    fig.panels[0].title = "a panel title that will not fit on one line of this panel".into();
    fig.panels[0].series[0].name = "n".repeat(500);
    fig.panels[0].xlabel = "an x axis description wider than the plot is, by far".into();
    let outside = texts_outside(&fig);
    assert!(outside.is_empty(), "{outside:#?}");
    let (texts, _) = text_extents(&fig);
    assert!(
        texts.iter().any(|(s, _)| s.starts_with("a figure title")),
        "the title is drawn"
    );
}

#[test]
fn fit_wraps_then_shrinks_then_cuts() {
    font().unwrap();
    let (lines, size) = fit("short", 17.0, true, 500.0, 3);
    assert_eq!((lines, size), (vec!["short".to_string()], 17.0));
    let (lines, size) = fit("one two three four five six", 14.0, false, 80.0, 3);
    assert!(lines.len() > 1 && lines.len() <= 3, "{lines:?}");
    assert_eq!(size, 14.0);
    let (lines, size) = fit(&"w".repeat(200), 14.0, false, 80.0, 3);
    assert_eq!(size, MIN_TEXT);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].ends_with('…'), "{lines:?}");
    assert!(width_of(&lines[0], &text(size, BLACK)) <= 80.0);
}

/// Two panels: three series (one dashed) with a threshold and markers, then bars with the
/// paper's values; a long legend name that the old fixed legend column cut off.
fn sample() -> Figure {
    let wave = |k: f64| -> Vec<(f64, f64)> {
        (0..200)
            .map(|i| {
                let t = i as f64 * 0.006;
                (t, 5.0 + k * (t * 9.0).sin())
            })
            .collect()
    };
    let lines = Panel {
        title: "per-flow throughput".into(),
        xlabel: "time (s)".into(),
        ylabel: "throughput (Gb/s)".into(),
        series: vec![
            Series::new("flow_a", BLUE, wave(1.0)),
            Series::new("flow_b", ORANGE, wave(2.0)),
            Series::new("aggregate window throughput", BLACK, wave(3.0)).dashed(),
        ],
        vlines: vec![(0.4, GREY), (0.8, GREY)],
        hlines: vec![(9.0, RED, "threshold".into())],
        y_range: Some((0.0, 10.5)),
        ..Panel::default()
    };
    let bars = Panel {
        title: "mean per sender".into(),
        xlabel: "sender node".into(),
        ylabel: "mean (Gb/s)".into(),
        bars: (0..4)
            .map(|k| Bar {
                label: format!("n{k}"),
                value: 1.0 + k as f64 * 0.25,
                color: PALETTE[k],
                reference: Some(1.1),
            })
            .collect(),
        ..Panel::default()
    };
    Figure {
        title: "sample figure".into(),
        width: 900.0,
        panel_height: 280.0,
        panels: vec![lines, bars],
    }
}

fn hex(c: Rgb) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The `<text>` elements of `svg`: (x, y, content).
fn texts(svg: &str) -> Vec<(f64, f64, String)> {
    svg.split("<text ")
        .skip(1)
        .map(|t| {
            let t = format!(" {t}");
            let attr = |name: &str| -> f64 {
                let at = t.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                t[at..at + t[at..].find('"').unwrap()].parse().unwrap()
            };
            let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            (attr("x"), attr("y"), body.trim().to_string())
        })
        .collect()
}

#[test]
fn svg_has_the_series_labels_legend_and_ticks() {
    let fig = sample();
    let svg = fig.svg().unwrap();
    assert!(
        svg.starts_with(r#"<svg width="900" height="610" viewBox="0 0 1800 1220""#),
        "{}",
        &svg[..200]
    );
    // One polyline per solid series, with every point.
    for s in &fig.panels[0].series[..2] {
        let lines: Vec<&str> = svg
            .split("<polyline")
            .filter(|l| l.contains(&format!("stroke=\"{}\"", hex(s.color))))
            .collect();
        assert_eq!(
            lines.len(),
            2,
            "{}: the series and its legend swatch",
            s.name
        );
        let points = lines.iter().map(|l| l.matches(',').count()).max().unwrap();
        assert_eq!(points, s.points.len(), "{}", s.name);
    }
    let names: Vec<String> = texts(&svg).into_iter().map(|t| t.2).collect();
    for want in [
        "sample figure",
        "per-flow throughput",
        "time (s)",
        "throughput (Gb/s)",
        "flow_a",
        "flow_b",
        "aggregate window throughput",
        "threshold",
        "mean per sender",
        "sender node",
        "mean (Gb/s)",
        "paper",
        "n0",
        "n3",
        "1.75",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "no text `{want}` in {names:?}"
        );
    }
    // Ticks: every label of an axis has the same number of decimals (x: 0.2 .. 1.0; y: 2 .. 10).
    for want in ["0.2", "1.0", "2", "10"] {
        assert!(
            names.iter().any(|n| n == want),
            "no tick {want} in {names:?}"
        );
    }
    assert!(!names.iter().any(|n| n == "1" || n == "10.0"), "{names:?}");
    // Four bars with the fill colours of the palette.
    for c in &PALETTE[..4] {
        assert!(svg.contains(&format!("fill=\"{}\"", hex(*c))), "bar {c:?}");
    }
}

#[test]
fn legend_is_not_clipped() {
    font().unwrap();
    let fig = sample();
    let svg = fig.svg().unwrap();
    let style = text(12.0, BLACK);
    for name in ["flow_a", "aggregate window throughput", "paper"] {
        let (x, _, _) = texts(&svg).into_iter().find(|t| t.2 == name).unwrap();
        let (w, _) = style.font.box_size(name).unwrap();
        assert!(
            x + w as f64 <= fig.width * UNIT,
            "{name}: ends at {} of {}",
            x + w as f64,
            fig.width * UNIT
        );
    }
}

#[test]
fn png_is_the_svg_at_twice_the_size_with_text_drawn() {
    let fig = sample();
    let bytes = fig.png().unwrap();
    let pm = Pixmap::decode_png(&bytes).unwrap();
    assert_eq!((pm.width(), pm.height()), (1800, 1220));
    let px = |x: u32, y: u32| {
        let p = pm.pixel(x, y).unwrap();
        (p.red(), p.green(), p.blue(), p.alpha())
    };
    assert_eq!(px(0, 0), (255, 255, 255, 255));
    // The drawing covers the whole image: no pixel left transparent.
    assert!(pm.pixels().iter().all(|p| p.alpha() == 255));
    assert_eq!(px(1799, 1219), (255, 255, 255, 255));
    // The title band holds dark pixels: the embedded font was found and drawn.
    let dark = |y0: u32, y1: u32| {
        (y0..y1)
            .flat_map(|y| (0..pm.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| px(x, y).0 < 100)
            .count()
    };
    assert!(dark(0, 90) > 500, "title: {} dark pixels", dark(0, 90));
    let mut untitled = fig.clone();
    untitled.title.clear();
    let blank = Pixmap::decode_png(&untitled.png().unwrap()).unwrap();
    assert!(blank.pixels()[..90 * 1800].iter().all(|p| p.red() == 255));
    // Every colour of the figure is drawn.
    for c in [BLUE, ORANGE, RED, GREEN, GREY] {
        let n = pm
            .pixels()
            .iter()
            .filter(|p| (p.red(), p.green(), p.blue()) == (c.0, c.1, c.2))
            .count();
        assert!(n > 50, "{c:?}: {n} pixels");
    }
}

/// `sample()` built a second way: every point computed in reverse order and on another thread, the
/// panels and series assembled in another order, the same values in the end.
fn sample_built_otherwise() -> Figure {
    std::thread::spawn(|| {
        let mut fig = sample();
        for panel in fig.panels.iter_mut().rev() {
            for series in panel.series.iter_mut().rev() {
                let k = match series.name.as_str() {
                    "flow_a" => 1.0,
                    "flow_b" => 2.0,
                    _ => 3.0,
                };
                let mut points: Vec<(f64, f64)> = (0..200)
                    .rev()
                    .map(|i| {
                        let t = i as f64 * 0.006;
                        (t, 5.0 + k * (t * 9.0).sin())
                    })
                    .collect();
                points.reverse();
                series.points = points;
            }
        }
        fig
    })
    .join()
    .unwrap()
}

/// The environment variable that makes [`output_is_the_same_byte_for_byte`] the child: it writes
/// the sample's SVG and PNG into that folder and returns.
const CHILD_OUT: &str = "DCQCN_PLOT_DETERMINISM_OUT";

/// The same figure, drawn in this process and in a fresh one (its own font registration and
/// font database, another environment: one test thread, no font configuration, another locale
/// and time zone), from data built two ways, gives the same bytes; and a figure that differs in
/// one point gives other bytes (the comparison sees the data).
#[test]
fn output_is_the_same_byte_for_byte() {
    if let Some(dir) = std::env::var_os(CHILD_OUT) {
        let dir = std::path::PathBuf::from(dir);
        let fig = sample_built_otherwise();
        std::fs::write(dir.join("sample.svg"), fig.svg().unwrap()).unwrap();
        std::fs::write(dir.join("sample.png"), fig.png().unwrap()).unwrap();
        return;
    }
    let dir = std::env::temp_dir().join(format!("dcqcn-plot-determinism-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "plot::tests::output_is_the_same_byte_for_byte",
            "--test-threads=1",
        ])
        .env(CHILD_OUT, &dir)
        .env("FONTCONFIG_FILE", "/dev/null")
        .env("LC_ALL", "C")
        .env("TZ", "Pacific/Chatham")
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert!(
        child.status.success(),
        "the child render failed: {}\n{}{}",
        child.status,
        String::from_utf8_lossy(&child.stdout),
        String::from_utf8_lossy(&child.stderr)
    );
    let child_svg = std::fs::read_to_string(dir.join("sample.svg")).unwrap();
    let child_png = std::fs::read(dir.join("sample.png")).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();

    let fig = sample();
    let svg = fig.svg().unwrap();
    assert!(svg.len() > 10_000, "a whole figure: {} bytes", svg.len());
    assert!(svg == child_svg, "the SVG differs from a fresh process's");
    assert!(
        fig.png().unwrap() == child_png,
        "the PNG differs from a fresh process's"
    );

    let mut moved = sample();
    moved.panels[0].series[0].points[100].1 += 1.0;
    assert_ne!(moved.svg().unwrap(), svg, "one point moved, same SVG");
}

#[test]
fn tick_labels_share_their_decimals() {
    let f = tick_format(0.0, 1.2, 10);
    assert_eq!((f(&0.2), f(&1.0)), ("0.2".to_string(), "1.0".to_string()));
    let f = tick_format(0.0, 170.0, 7);
    assert_eq!((f(&50.0), f(&150.0)), ("50".to_string(), "150".to_string()));
    let f = tick_format(0.0, 0.2, 10);
    assert_eq!(f(&0.1), "0.10");
}
