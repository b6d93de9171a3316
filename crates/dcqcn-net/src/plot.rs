//! Figures as SVG and PNG, drawn by `plotters` from one description ([`Figure`]).
//!
//! plotters lays the figure out and writes it as SVG (vector: lines and bars as paths and
//! rectangles, text as `<text>`). Text is measured with DejaVu Sans, whose bytes are compiled into
//! the binary (crate `dejavu`) and registered with plotters' `ab_glyph` font support; the SVG names
//! DejaVu Sans first, then generic sans-serif families, all narrower, so the layout still fits in a
//! viewer without it. The PNG is that SVG rasterised by `resvg` at [`PNG_SCALE`] pixels per unit,
//! with a font database holding only the embedded DejaVu Sans: no system font is ever looked up,
//! so every machine writes the same files, byte for byte.

use crate::NetError;
use plotters::coord::ranged1d::Ranged;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::{DashedPathElement, EmptyElement, PathElement, Rectangle, Text};
use plotters::prelude::{
    ChartBuilder, DashedLineSeries, DrawingArea, DrawingBackend, IntoDrawingArea, IntoFont,
    LineSeries, SVGBackend,
};
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{Color, FontStyle, RGBColor, ShapeStyle, TextStyle};
use resvg::tiny_skia::{Pixmap, Transform};
use resvg::usvg::{self, fontdb};
use std::path::Path;
use std::sync::{Arc, OnceLock};

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
const WHITE: Rgb = Rgb(255, 255, 255);
const GRID: Rgb = Rgb(225, 225, 225);

/// Colours for series in order.
pub const PALETTE: [Rgb; 10] = [
    BLUE, ORANGE, GREEN, RED, PURPLE, BROWN, PINK, GREY, OLIVE, CYAN,
];

/// The PNG's pixels per figure unit (the SVG's nominal pixels).
pub const PNG_SCALE: u32 = 2;
/// SVG user units per figure unit: plotters places everything on whole user units, so drawing
/// on a canvas twice the nominal size (shown at the nominal size through the `viewBox`) keeps
/// half-unit detail in the curves and stroke widths such as 1.5.
const UNIT: f64 = 2.0;

/// The family every text names: the key of the embedded font in plotters' registry, which is
/// also the SVG's `font-family` list.
const FAMILY: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";
/// The embedded font's own family name (the PNG's font database knows only it).
const DEJAVU: &str = "DejaVu Sans";

impl From<Rgb> for RGBColor {
    fn from(c: Rgb) -> RGBColor {
        RGBColor(c.0, c.1, c.2)
    }
}

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
    /// A grid of coloured cells instead of series and bars.
    pub heatmap: Option<Heatmap>,
}

/// A heat map: one cell per (x, y) label pair, coloured on [`colormap`] over `range` and
/// labelled with its value.
#[derive(Clone, Debug, Default)]
pub struct Heatmap {
    pub x_labels: Vec<String>,
    pub y_labels: Vec<String>,
    /// `values[y][x]`; `None`: no value (drawn grey).
    pub values: Vec<Vec<Option<f64>>>,
    /// The values at the two ends of the colour scale.
    pub range: (f64, f64),
    /// Decimals of the cell labels.
    pub decimals: usize,
}

/// The colour of `v` on a dark-blue, teal, green, yellow scale over `lo..=hi` (clamped).
pub fn colormap(v: f64, lo: f64, hi: f64) -> Rgb {
    const STOPS: [Rgb; 5] = [
        Rgb(68, 1, 84),
        Rgb(59, 82, 139),
        Rgb(33, 145, 140),
        Rgb(94, 201, 98),
        Rgb(253, 231, 37),
    ];
    let u = if hi > lo {
        ((v - lo) / (hi - lo)).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let pos = u * (STOPS.len() - 1) as f64;
    let k = (pos.floor() as usize).min(STOPS.len() - 2);
    let f = pos - k as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    let (a, b) = (STOPS[k], STOPS[k + 1]);
    Rgb(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// A figure: a title over panels stacked vertically, each `panel_height` high, with their
/// legends to the right of the plots. Sizes are in SVG units (the PNG's pixels / [`PNG_SCALE`]).
#[derive(Clone, Debug)]
pub struct Figure {
    pub title: String,
    pub width: f64,
    pub panel_height: f64,
    pub panels: Vec<Panel>,
}

/// One legend line: name, colour, dashed.
type LegendEntry = (String, Rgb, bool);

impl Panel {
    fn legend(&self) -> Vec<LegendEntry> {
        let paper = self
            .bars
            .iter()
            .any(|b| b.reference.is_some())
            .then(|| ("paper".to_string(), BLACK, true));
        self.series
            .iter()
            .map(|s| (s.name.clone(), s.color, s.dashed))
            .chain(paper)
            .collect()
    }

    /// The x range: the heat map's or the bars' slots, or the series' extent.
    fn x_range(&self) -> (f64, f64) {
        if let Some(h) = &self.heatmap {
            return (0.0, h.x_labels.len().max(1) as f64);
        }
        if !self.bars.is_empty() {
            return (0.0, self.bars.len() as f64);
        }
        let (mut a, mut z) = (f64::MAX, f64::MIN);
        for q in self.series.iter().flat_map(|s| &s.points) {
            a = a.min(q.0);
            z = z.max(q.0);
        }
        if a >= z {
            (0.0, 1.0)
        } else {
            (a, z)
        }
    }

    /// The y range: fixed, or from 0 to 8 % above the highest value.
    fn y_range(&self) -> (f64, f64) {
        if let Some(h) = &self.heatmap {
            return (0.0, h.y_labels.len().max(1) as f64);
        }
        self.y_range.unwrap_or_else(|| {
            let mut z: f64 = 0.0;
            for q in self.series.iter().flat_map(|s| &s.points) {
                z = z.max(q.1);
            }
            for bar in &self.bars {
                z = z.max(bar.value).max(bar.reference.unwrap_or(0.0));
            }
            for h in &self.hlines {
                z = z.max(h.0);
            }
            (0.0, if z <= 0.0 { 1.0 } else { z * 1.08 })
        })
    }
}

/// Registers the embedded DejaVu Sans with plotters once.
fn font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            let fonts = [
                (FontStyle::Normal, dejavu::sans::regular()),
                (FontStyle::Bold, dejavu::sans::bold()),
            ];
            for (style, bytes) in fonts {
                plotters::style::register_font(FAMILY, style, bytes).map_err(|_| {
                    format!(
                        "the embedded DejaVu Sans ({}) is not a font",
                        style.as_str()
                    )
                })?;
            }
            Ok(())
        })
        .clone()
}

/// Figure units to canvas units.
fn px(v: f64) -> i32 {
    (v * UNIT).round() as i32
}

fn text(size: f64, color: Rgb) -> TextStyle<'static> {
    (FAMILY, size * UNIT)
        .into_font()
        .color(&RGBColor::from(color))
}

fn bold(size: f64) -> TextStyle<'static> {
    (FAMILY, size * UNIT, FontStyle::Bold)
        .into_font()
        .color(&RGBColor::from(BLACK))
}

fn stroke(color: Rgb, width: f64) -> ShapeStyle {
    RGBColor::from(color).stroke_width((width * UNIT).round().max(1.0) as u32)
}

/// The embedded fonts for resvg, with DejaVu Sans as every generic sans-serif family.
fn font_db() -> Arc<fontdb::Database> {
    static DB: OnceLock<Arc<fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = fontdb::Database::new();
        for bytes in [dejavu::sans::regular(), dejavu::sans::bold()] {
            db.load_font_source(fontdb::Source::Binary(Arc::new(bytes)));
        }
        db.set_sans_serif_family(DEJAVU);
        Arc::new(db)
    })
    .clone()
}

/// A formatter for the tick labels plotters puts on `lo..hi` with `hint` labels: the fewest
/// decimals that write every label exactly, the same for all (0.8, 1.0, 1.2; 0, 50, 100).
fn tick_format(lo: f64, hi: f64, hint: usize) -> impl Fn(&f64) -> String {
    let ticks = RangedCoordf64::from(lo..hi).key_points(hint);
    let tolerance = (hi - lo).abs() * 1e-9;
    let decimals = (0..=9)
        .find(|&d| {
            ticks.iter().all(|t| {
                format!("{t:.d$}")
                    .parse::<f64>()
                    .is_ok_and(|v| (v - t).abs() <= tolerance)
            })
        })
        .unwrap_or(9);
    move |v: &f64| format!("{v:.decimals$}")
}

fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

impl Figure {
    fn height(&self) -> f64 {
        50.0 + self.panels.len() as f64 * self.panel_height
    }

    /// The nominal size (the SVG's width and height).
    fn size(&self) -> (u32, u32) {
        (
            self.width.round().max(1.0) as u32,
            self.height().round().max(1.0) as u32,
        )
    }

    /// Draws the figure on `root`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), String> {
        font()?;
        root.fill(&RGBColor::from(WHITE)).map_err(err)?;
        let (head, body) = root.split_vertically(px(50.0));
        let (w, _) = head.dim_in_pixel();
        head.draw(&Text::new(
            self.title.clone(),
            (w as i32 / 2, px(27.0)),
            bold(17.0).pos(Pos::new(HPos::Center, VPos::Center)),
        ))
        .map_err(err)?;
        if self.panels.is_empty() {
            return Ok(());
        }
        // One legend column for all panels, as wide as the widest entry, so the panels' x axes
        // line up and no name is cut.
        let entry = text(12.0, BLACK);
        let mut widest = 0;
        for p in &self.panels {
            for (name, _, _) in p.legend() {
                widest = widest.max(root.estimate_text_size(&name, &entry).map_err(err)?.0);
            }
        }
        let legend_w = if widest == 0 {
            px(15.0)
        } else {
            widest as i32 + px(58.0)
        };
        let areas = body.split_evenly((self.panels.len(), 1));
        for (p, area) in self.panels.iter().zip(&areas) {
            let (aw, _) = area.dim_in_pixel();
            let (plot, legend) = area.split_horizontally(aw as i32 - legend_w);
            self.panel(p, &plot, &legend)?;
        }
        root.present().map_err(err)
    }

    fn panel<DB: DrawingBackend>(
        &self,
        p: &Panel,
        area: &DrawingArea<DB, Shift>,
        legend: &DrawingArea<DB, Shift>,
    ) -> Result<(), String> {
        let (x0, x1) = p.x_range();
        let (y0, y1) = p.y_range();
        let bars = !p.bars.is_empty();
        let mut chart = ChartBuilder::on(area)
            .caption(&p.title, text(14.0, BLACK))
            .margin_left(px(6.0))
            .margin_right(px(10.0))
            .margin_top(px(8.0))
            .x_label_area_size(px(40.0))
            .y_label_area_size(px(62.0))
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
        let (x_ticks, y_ticks) = (10, 7);
        let x_fmt = tick_format(x0, x1, x_ticks);
        let y_fmt = tick_format(y0, y1, y_ticks);
        let tick_font = text(12.0, BLACK);
        let desc_font = text(13.0, BLACK);
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(&p.xlabel)
            .y_desc(&p.ylabel)
            .label_style(tick_font.clone())
            .axis_desc_style(desc_font)
            .bold_line_style(stroke(GRID, 1.0))
            .light_line_style(RGBColor::from(WHITE).mix(0.0))
            .axis_style(stroke(BLACK, 1.0))
            .set_all_tick_mark_size(px(4.0))
            .x_labels(x_ticks)
            .y_labels(y_ticks)
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt);
        if bars {
            // Categories: no numeric ticks; each bar is labelled below its slot.
            mesh.disable_x_mesh().x_labels(0);
        }
        if p.heatmap.is_some() {
            // Categories on both axes, labelled at their slots below.
            mesh.disable_mesh().x_labels(0).y_labels(0);
        }
        mesh.draw().map_err(err)?;
        let clamp = |y: f64| y.clamp(y0, y1);
        // Frame the plot on all four sides.
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(x0, y1), (x1, y1), (x1, y0)],
                stroke(BLACK, 1.0),
            )))
            .map_err(err)?;
        if let Some(h) = &p.heatmap {
            for (y, row) in h.values.iter().enumerate() {
                for (x, v) in row.iter().enumerate() {
                    let (x, y) = (x as f64, y as f64);
                    let fill = v.map_or(GRID, |v| colormap(v, h.range.0, h.range.1));
                    chart
                        .draw_series(std::iter::once(Rectangle::new(
                            [(x, y), (x + 1.0, y + 1.0)],
                            RGBColor::from(fill).filled(),
                        )))
                        .map_err(err)?;
                    let dark =
                        u32::from(fill.0) * 299 + u32::from(fill.1) * 587 + u32::from(fill.2) * 114
                            < 128_000;
                    let label = v.map_or("-".to_string(), |v| format!("{v:.*}", h.decimals));
                    chart
                        .draw_series(std::iter::once(
                            EmptyElement::at((x + 0.5, y + 0.5))
                                + Text::new(
                                    label,
                                    (0, 0),
                                    text(10.0, if dark { WHITE } else { BLACK })
                                        .pos(Pos::new(HPos::Center, VPos::Center)),
                                ),
                        ))
                        .map_err(err)?;
                }
            }
            for (x, l) in h.x_labels.iter().enumerate() {
                chart
                    .draw_series(std::iter::once(
                        EmptyElement::at((x as f64 + 0.5, y0))
                            + Text::new(
                                l.clone(),
                                (0, px(6.0)),
                                tick_font.pos(Pos::new(HPos::Center, VPos::Top)),
                            ),
                    ))
                    .map_err(err)?;
            }
            for (y, l) in h.y_labels.iter().enumerate() {
                chart
                    .draw_series(std::iter::once(
                        EmptyElement::at((x0, y as f64 + 0.5))
                            + Text::new(
                                l.clone(),
                                (-px(5.0), 0),
                                tick_font.pos(Pos::new(HPos::Right, VPos::Center)),
                            ),
                    ))
                    .map_err(err)?;
            }
        }
        for (k, bar) in p.bars.iter().enumerate() {
            let x = k as f64;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x + 0.15, y0), (x + 0.85, clamp(bar.value))],
                    RGBColor::from(bar.color).filled(),
                )))
                .map_err(err)?;
            let under = EmptyElement::at((x + 0.5, y0))
                + Text::new(
                    bar.label.clone(),
                    (0, px(6.0)),
                    tick_font.pos(Pos::new(HPos::Center, VPos::Top)),
                );
            // Above the bar, or above the paper's dash where that is higher.
            let top = clamp(bar.value.max(bar.reference.unwrap_or(f64::MIN)));
            let over = EmptyElement::at((x + 0.5, top))
                + Text::new(
                    format!("{:.2}", bar.value),
                    (0, -px(3.0)),
                    text(11.0, BLACK).pos(Pos::new(HPos::Center, VPos::Bottom)),
                );
            chart.draw_series([under, over]).map_err(err)?;
            if let Some(rv) = bar.reference {
                chart
                    .draw_series(std::iter::once(DashedPathElement::new(
                        vec![(x + 0.08, clamp(rv)), (x + 0.92, clamp(rv))],
                        px(6.0),
                        px(4.0),
                        stroke(BLACK, 2.0),
                    )))
                    .map_err(err)?;
            }
        }
        for (y, c, label) in &p.hlines {
            let y = clamp(*y);
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(x0, y), (x1, y)],
                    px(6.0),
                    px(4.0),
                    stroke(*c, 1.2),
                ))
                .map_err(err)?;
            chart
                .draw_series(std::iter::once(
                    EmptyElement::at((x1, y))
                        + Text::new(
                            label.clone(),
                            (-px(4.0), -px(3.0)),
                            text(11.0, *c).pos(Pos::new(HPos::Right, VPos::Bottom)),
                        ),
                ))
                .map_err(err)?;
        }
        for (x, c) in &p.vlines {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(*x, y0), (*x, y1)],
                    px(6.0),
                    px(4.0),
                    stroke(*c, 1.0),
                ))
                .map_err(err)?;
        }
        for series in &p.series {
            if series.points.len() < 2 {
                continue;
            }
            let pts = series.points.iter().map(|&(x, y)| (x, clamp(y)));
            let style = stroke(series.color, series.width);
            if series.dashed {
                chart
                    .draw_series(DashedLineSeries::new(pts, px(6.0), px(4.0), style))
                    .map_err(err)?;
            } else {
                chart
                    .draw_series(LineSeries::new(pts, style))
                    .map_err(err)?;
            }
        }
        // The legend, beside the plot's top edge.
        let (_, ys) = chart.plotting_area().get_pixel_range();
        let top = ys.start - legend.get_base_pixel().1 + px(8.0);
        let font = text(12.0, BLACK);
        for (k, (name, c, dashed)) in p.legend().into_iter().enumerate() {
            let y = top + k as i32 * px(18.0);
            let line = vec![(px(6.0), y), (px(36.0), y)];
            if dashed {
                legend
                    .draw(&DashedPathElement::new(
                        line,
                        px(6.0),
                        px(4.0),
                        stroke(c, 2.0),
                    ))
                    .map_err(err)?;
            } else {
                legend
                    .draw(&PathElement::new(line, stroke(c, 2.0)))
                    .map_err(err)?;
            }
            legend
                .draw(&Text::new(
                    name,
                    (px(42.0), y),
                    font.pos(Pos::new(HPos::Left, VPos::Center)),
                ))
                .map_err(err)?;
        }
        Ok(())
    }

    /// The figure as SVG text: nominal width and height, a canvas of [`UNIT`] times that.
    pub fn svg(&self) -> Result<String, String> {
        let (w, h) = self.size();
        let canvas = (w * UNIT as u32, h * UNIT as u32);
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, canvas).into_drawing_area();
            self.draw(&root)?;
        }
        let drawn = format!(r#"<svg width="{}" height="{}" "#, canvas.0, canvas.1);
        if !out.starts_with(&drawn) {
            return Err(format!("plotters wrote an SVG header other than `{drawn}`"));
        }
        Ok(format!(r#"<svg width="{w}" height="{h}" "#) + &out[drawn.len()..])
    }

    /// The SVG rasterised at [`PNG_SCALE`] pixels per unit.
    pub fn png(&self) -> Result<Vec<u8>, String> {
        let svg = self.svg()?;
        let opt = usvg::Options {
            font_family: DEJAVU.to_string(),
            fontdb: font_db(),
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_str(&svg, &opt).map_err(err)?;
        let (w, h) = self.size();
        let mut pm = Pixmap::new(w * PNG_SCALE, h * PNG_SCALE).ok_or("empty figure")?;
        // The tree is in nominal units (the SVG's width and height).
        let k = PNG_SCALE as f32;
        resvg::render(&tree, Transform::from_scale(k, k), &mut pm.as_mut());
        pm.encode_png().map_err(err)
    }

    /// Writes `<stem>.svg` and `<stem>.png` into `dir`; returns their paths.
    pub fn write(&self, dir: &Path, stem: &str) -> Result<Vec<String>, NetError> {
        let svg = dir.join(format!("{stem}.svg"));
        let png = dir.join(format!("{stem}.png"));
        let text = self.svg().map_err(|message| NetError::Figure {
            path: svg.display().to_string(),
            message,
        })?;
        write_file(&svg, text.as_bytes())?;
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn output_is_the_same_byte_for_byte() {
        let fig = sample();
        assert_eq!(fig.svg().unwrap(), fig.svg().unwrap());
        assert_eq!(fig.png().unwrap(), fig.png().unwrap());
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
}
