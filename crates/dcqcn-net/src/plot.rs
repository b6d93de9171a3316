//! Figures as SVG and PNG from one display list, with no system fonts: the SVG names a generic
//! sans-serif family (any viewer has one), the PNG draws text with the public-domain 8x8 bitmap
//! font of the `font8x8` crate, so a headless machine renders the same figure.

use crate::NetError;
use font8x8::UnicodeFonts;
use std::fmt::Write;
use std::path::Path;
use tiny_skia::{Paint, PathBuilder, Pixmap, Rect, Stroke, StrokeDash, Transform};

/// An RGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

pub const BLUE: Rgb = Rgb(31, 119, 180);
pub const ORANGE: Rgb = Rgb(255, 127, 14);
pub const GREEN: Rgb = Rgb(44, 160, 44);
pub const RED: Rgb = Rgb(214, 39, 40);
pub const PURPLE: Rgb = Rgb(148, 103, 189);
pub const BROWN: Rgb = Rgb(140, 86, 75);
pub const PINK: Rgb = Rgb(227, 119, 194);
pub const GREY: Rgb = Rgb(127, 127, 127);
pub const OLIVE: Rgb = Rgb(188, 189, 34);
pub const CYAN: Rgb = Rgb(23, 190, 207);
pub const BLACK: Rgb = Rgb(0, 0, 0);
const LIGHT: Rgb = Rgb(225, 225, 225);

/// Colours for series in order.
pub const PALETTE: [Rgb; 10] = [
    BLUE, ORANGE, GREEN, RED, PURPLE, BROWN, PINK, GREY, OLIVE, CYAN,
];

/// A line series.
#[derive(Clone, Debug)]
pub struct Series {
    pub name: String,
    pub color: Rgb,
    pub dashed: bool,
    pub width: f64,
    pub points: Vec<(f64, f64)>,
}

impl Series {
    pub fn new(name: &str, color: Rgb, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.to_string(),
            color,
            dashed: false,
            width: 1.5,
            points,
        }
    }
    pub fn dashed(mut self) -> Series {
        self.dashed = true;
        self
    }
}

/// A bar with an optional reference value drawn as a marker (the paper's number).
#[derive(Clone, Debug)]
pub struct Bar {
    pub label: String,
    pub value: f64,
    pub color: Rgb,
    pub reference: Option<f64>,
}

/// One panel of a figure: line series or bars.
#[derive(Clone, Debug, Default)]
pub struct Panel {
    pub title: String,
    pub xlabel: String,
    pub ylabel: String,
    pub series: Vec<Series>,
    pub bars: Vec<Bar>,
    /// Vertical marker lines (x, colour), dashed.
    pub vlines: Vec<(f64, Rgb)>,
    /// Horizontal reference lines (y, colour, label), dashed.
    pub hlines: Vec<(f64, Rgb, String)>,
    /// Fixed y range; default from the data (from 0).
    pub y_range: Option<(f64, f64)>,
}

#[derive(Clone, Debug)]
pub struct Figure {
    pub title: String,
    pub width: f64,
    pub panel_height: f64,
    pub panels: Vec<Panel>,
}

#[derive(Clone, Debug)]
enum Prim {
    Line {
        pts: Vec<(f64, f64)>,
        color: Rgb,
        width: f64,
        dashed: bool,
    },
    Rect {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        color: Rgb,
    },
    /// anchor: 0 start, 1 middle, 2 end; rotated: vertical, reading upward.
    Text {
        x: f64,
        y: f64,
        size: f64,
        anchor: u8,
        rotated: bool,
        color: Rgb,
        text: String,
    },
}

/// A "nice" tick step for a span.
fn tick_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(1e-12);
    let mag = 10f64.powf(raw.log10().floor());
    let f = raw / mag;
    let nice = if f < 1.5 {
        1.0
    } else if f < 3.5 {
        2.0
    } else if f < 7.5 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

fn fmt_tick(v: f64, step: f64) -> String {
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10().floor()) as usize
    };
    format!("{v:.decimals$}")
}

impl Figure {
    fn height(&self) -> f64 {
        50.0 + self.panels.len() as f64 * self.panel_height
    }

    fn display_list(&self) -> Vec<Prim> {
        let mut d = vec![Prim::Rect {
            x: 0.0,
            y: 0.0,
            w: self.width,
            h: self.height(),
            color: Rgb(255, 255, 255),
        }];
        d.push(Prim::Text {
            x: self.width / 2.0,
            y: 26.0,
            size: 16.0,
            anchor: 1,
            rotated: false,
            color: BLACK,
            text: self.title.clone(),
        });
        for (k, p) in self.panels.iter().enumerate() {
            let top = 50.0 + k as f64 * self.panel_height;
            self.panel(&mut d, p, top);
        }
        d
    }

    fn panel(&self, d: &mut Vec<Prim>, p: &Panel, top: f64) {
        let (l, r) = (75.0, self.width - 200.0);
        let (t, b) = (top + 22.0, top + self.panel_height - 45.0);
        let text = |d: &mut Vec<Prim>, x, y, size, anchor, s: String| {
            d.push(Prim::Text {
                x,
                y,
                size,
                anchor,
                rotated: false,
                color: BLACK,
                text: s,
            })
        };
        text(d, (l + r) / 2.0, top + 14.0, 13.0, 1, p.title.clone());
        // Data ranges.
        let bars = !p.bars.is_empty();
        let (x0, x1) = if bars {
            (0.0, p.bars.len() as f64)
        } else {
            let xs = p.series.iter().flat_map(|s| s.points.iter().map(|q| q.0));
            let (mut a, mut z) = (f64::MAX, f64::MIN);
            for x in xs {
                a = a.min(x);
                z = z.max(x);
            }
            if a >= z {
                (0.0, 1.0)
            } else {
                (a, z)
            }
        };
        let (y0, y1) = p.y_range.unwrap_or_else(|| {
            let mut z: f64 = 0.0;
            for s in &p.series {
                for q in &s.points {
                    z = z.max(q.1);
                }
            }
            for bar in &p.bars {
                z = z.max(bar.value).max(bar.reference.unwrap_or(0.0));
            }
            for h in &p.hlines {
                z = z.max(h.0);
            }
            (0.0, if z <= 0.0 { 1.0 } else { z * 1.08 })
        });
        let sx = |x: f64| l + (x - x0) / (x1 - x0) * (r - l);
        let sy = |y: f64| b - (y.clamp(y0, y1) - y0) / (y1 - y0) * (b - t);
        // Grid and ticks.
        let ys = tick_step(y1 - y0, 5.0);
        let mut y = (y0 / ys).ceil() * ys;
        while y <= y1 + 1e-9 {
            d.push(Prim::Line {
                pts: vec![(l, sy(y)), (r, sy(y))],
                color: LIGHT,
                width: 1.0,
                dashed: false,
            });
            text(d, l - 6.0, sy(y) + 4.0, 11.0, 2, fmt_tick(y, ys));
            y += ys;
        }
        if !bars {
            let xs = tick_step(x1 - x0, 8.0);
            let mut x = (x0 / xs).ceil() * xs;
            while x <= x1 + 1e-9 {
                d.push(Prim::Line {
                    pts: vec![(sx(x), t), (sx(x), b)],
                    color: LIGHT,
                    width: 1.0,
                    dashed: false,
                });
                text(d, sx(x), b + 16.0, 11.0, 1, fmt_tick(x, xs));
                x += xs;
            }
        }
        d.push(Prim::Line {
            pts: vec![(l, t), (l, b), (r, b), (r, t), (l, t)],
            color: BLACK,
            width: 1.0,
            dashed: false,
        });
        text(d, (l + r) / 2.0, b + 34.0, 12.0, 1, p.xlabel.clone());
        d.push(Prim::Text {
            x: l - 48.0,
            y: (t + b) / 2.0,
            size: 12.0,
            anchor: 1,
            rotated: true,
            color: BLACK,
            text: p.ylabel.clone(),
        });
        // Bars.
        for (k, bar) in p.bars.iter().enumerate() {
            let w = (r - l) / p.bars.len() as f64;
            let x = l + k as f64 * w + w * 0.15;
            d.push(Prim::Rect {
                x,
                y: sy(bar.value),
                w: w * 0.7,
                h: b - sy(bar.value),
                color: bar.color,
            });
            text(d, x + w * 0.35, b + 16.0, 11.0, 1, bar.label.clone());
            text(
                d,
                x + w * 0.35,
                sy(bar.value) - 4.0,
                10.0,
                1,
                format!("{:.2}", bar.value),
            );
            if let Some(rv) = bar.reference {
                d.push(Prim::Line {
                    pts: vec![(x - 4.0, sy(rv)), (x + w * 0.7 + 4.0, sy(rv))],
                    color: BLACK,
                    width: 2.0,
                    dashed: true,
                });
            }
        }
        // Reference lines, markers, series.
        for (y, c, label) in &p.hlines {
            d.push(Prim::Line {
                pts: vec![(l, sy(*y)), (r, sy(*y))],
                color: *c,
                width: 1.2,
                dashed: true,
            });
            d.push(Prim::Text {
                x: r - 4.0,
                y: sy(*y) - 4.0,
                size: 10.0,
                anchor: 2,
                rotated: false,
                color: *c,
                text: label.clone(),
            });
        }
        for (x, c) in &p.vlines {
            d.push(Prim::Line {
                pts: vec![(sx(*x), t), (sx(*x), b)],
                color: *c,
                width: 1.0,
                dashed: true,
            });
        }
        for s in &p.series {
            let pts: Vec<(f64, f64)> = s.points.iter().map(|&(x, y)| (sx(x), sy(y))).collect();
            if pts.len() >= 2 {
                d.push(Prim::Line {
                    pts,
                    color: s.color,
                    width: s.width,
                    dashed: s.dashed,
                });
            }
        }
        // Legend.
        let mut ly = t + 8.0;
        let legend: Vec<(String, Rgb, bool)> = p
            .series
            .iter()
            .map(|s| (s.name.clone(), s.color, s.dashed))
            .chain(
                p.bars
                    .iter()
                    .any(|b| b.reference.is_some())
                    .then(|| ("paper".to_string(), BLACK, true)),
            )
            .collect();
        for (name, c, dashed) in legend {
            d.push(Prim::Line {
                pts: vec![(r + 10.0, ly), (r + 34.0, ly)],
                color: c,
                width: 2.0,
                dashed,
            });
            text(d, r + 40.0, ly + 4.0, 11.0, 0, name);
            ly += 16.0;
        }
    }

    /// The figure as SVG text.
    pub fn svg(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="DejaVu Sans, Arial, Helvetica, sans-serif">"#,
            w = self.width,
            h = self.height()
        );
        for p in self.display_list() {
            match p {
                Prim::Line {
                    pts,
                    color,
                    width,
                    dashed,
                } => {
                    let mut path = String::new();
                    for (k, (x, y)) in pts.iter().enumerate() {
                        let _ =
                            write!(path, "{}{:.1},{:.1}", if k == 0 { "M" } else { " L" }, x, y);
                    }
                    let _ = writeln!(
                        s,
                        r#"<path d="{path}" fill="none" stroke="rgb({},{},{})" stroke-width="{width}"{}/>"#,
                        color.0,
                        color.1,
                        color.2,
                        if dashed {
                            r#" stroke-dasharray="6,4""#
                        } else {
                            ""
                        }
                    );
                }
                Prim::Rect { x, y, w, h, color } => {
                    let _ = writeln!(
                        s,
                        r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" fill="rgb({},{},{})"/>"#,
                        color.0, color.1, color.2
                    );
                }
                Prim::Text {
                    x,
                    y,
                    size,
                    anchor,
                    rotated,
                    color,
                    text,
                } => {
                    let a = ["start", "middle", "end"][anchor as usize];
                    let rot = if rotated {
                        format!(r#" transform="rotate(-90 {x:.1} {y:.1})""#)
                    } else {
                        String::new()
                    };
                    let _ = writeln!(
                        s,
                        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size}" text-anchor="{a}" fill="rgb({},{},{})"{rot}>{}</text>"#,
                        color.0,
                        color.1,
                        color.2,
                        escape(&text)
                    );
                }
            }
        }
        s.push_str("</svg>\n");
        s
    }

    /// The figure rasterised (same layout as the SVG).
    pub fn png(&self) -> Result<Vec<u8>, String> {
        let (w, h) = (self.width.ceil() as u32, self.height().ceil() as u32);
        let mut pm = Pixmap::new(w, h).ok_or("empty figure")?;
        for p in self.display_list() {
            match p {
                Prim::Line {
                    pts,
                    color,
                    width,
                    dashed,
                } => {
                    let mut pb = PathBuilder::new();
                    for (k, &(x, y)) in pts.iter().enumerate() {
                        if k == 0 {
                            pb.move_to(x as f32, y as f32);
                        } else {
                            pb.line_to(x as f32, y as f32);
                        }
                    }
                    let Some(path) = pb.finish() else { continue };
                    let stroke = Stroke {
                        width: width as f32,
                        dash: if dashed {
                            StrokeDash::new(vec![6.0, 4.0], 0.0)
                        } else {
                            None
                        },
                        ..Stroke::default()
                    };
                    pm.stroke_path(&path, &paint(color), &stroke, Transform::identity(), None);
                }
                Prim::Rect { x, y, w, h, color } => {
                    if let Some(r) = Rect::from_xywh(x as f32, y as f32, w as f32, h as f32) {
                        pm.fill_rect(r, &paint(color), Transform::identity(), None);
                    }
                }
                Prim::Text {
                    x,
                    y,
                    size,
                    anchor,
                    rotated,
                    color,
                    text,
                } => bitmap_text(&mut pm, x, y, size, anchor, rotated, color, &text),
            }
        }
        pm.encode_png().map_err(|e| e.to_string())
    }

    /// Writes `<stem>.svg` and `<stem>.png` into `dir`; returns their paths.
    pub fn write(&self, dir: &Path, stem: &str) -> Result<Vec<String>, NetError> {
        let svg = dir.join(format!("{stem}.svg"));
        let png = dir.join(format!("{stem}.png"));
        write_file(&svg, self.svg().as_bytes())?;
        let bytes = self.png().map_err(|message| NetError::Png {
            path: png.display().to_string(),
            message,
        })?;
        write_file(&png, &bytes)?;
        Ok(vec![svg.display().to_string(), png.display().to_string()])
    }
}

pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), NetError> {
    std::fs::write(path, bytes).map_err(|source| NetError::Write {
        path: path.display().to_string(),
        source,
    })
}

fn paint(c: Rgb) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color_rgba8(c.0, c.1, c.2, 255);
    p.anti_alias = true;
    p
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Draws `text` with the 8x8 font scaled to about `size` pixels per em; `y` is the baseline.
#[allow(clippy::too_many_arguments)]
fn bitmap_text(
    pm: &mut Pixmap,
    x: f64,
    y: f64,
    size: f64,
    anchor: u8,
    rotated: bool,
    color: Rgb,
    text: &str,
) {
    let dot = (size / 9.0) as f32;
    let advance = 8.0 * dot;
    let width = advance * text.chars().count() as f32;
    let x0 = match anchor {
        0 => 0.0,
        1 => -width / 2.0,
        _ => -width,
    };
    // Glyphs are laid out from (0, 0) at the baseline and moved into place by one transform.
    let tf = if rotated {
        Transform::from_rotate(-90.0).post_translate(x as f32, y as f32)
    } else {
        Transform::from_translate(x as f32, y as f32)
    };
    let p = paint(color);
    for (k, ch) in text.chars().enumerate() {
        let glyph = font8x8::BASIC_FONTS
            .get(ch)
            .or_else(|| font8x8::LATIN_FONTS.get(ch))
            .or_else(|| font8x8::GREEK_FONTS.get(ch))
            .unwrap_or([0; 8]);
        let gx = x0 + k as f32 * advance;
        for (row, bits) in glyph.iter().enumerate() {
            for col in 0..8 {
                if bits >> col & 1 == 1 {
                    let r =
                        Rect::from_xywh(gx + col as f32 * dot, (row as f32 - 7.0) * dot, dot, dot);
                    if let Some(r) = r {
                        pm.fill_rect(r, &p, tf, None);
                    }
                }
            }
        }
    }
}
