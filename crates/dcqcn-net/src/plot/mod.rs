//! Figures as SVG and PNG, drawn by `plotters` from one description ([`Figure`]).
//!
//! plotters lays the figure out and writes it as SVG (vector: lines and bars as paths and
//! rectangles, text as `<text>`). Text is measured with DejaVu Sans, whose bytes are compiled into
//! the binary (crate `dejavu`) and registered with plotters' `ab_glyph` font support; the SVG names
//! DejaVu Sans first, then generic sans-serif families, all narrower, so the layout still fits in a
//! viewer without it. The PNG is that SVG rasterised by `resvg` at [`PNG_SCALE`] pixels per unit,
//! with a font database holding only the embedded DejaVu Sans: no system font is ever looked up,
//! so every machine writes the same files, byte for byte.

use crate::out::OutFile;
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

mod text;
use text::*;

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

/// Where everything goes, in figure units: the size of the picture (at least what its labels
/// need, whatever the figure asked for), the title's lines, the legend or colour-scale column,
/// the y label column and each panel's title lines.
struct Layout {
    width: f64,
    height: f64,
    title: (Vec<String>, f64),
    head: f64,
    legend_w: f64,
    y_area: f64,
    captions: Vec<(Vec<String>, f64)>,
    caption_h: f64,
}

/// A panel's plot: space between its frame and the area's edges, and the x label band.
const MARGIN_LEFT: f64 = 6.0;
const MARGIN_RIGHT: f64 = 10.0;
const MARGIN_TOP: f64 = 4.0;
const X_AREA: f64 = 40.0;
const Y_AREA: f64 = 62.0;
/// The colour scale of a heat map: the bar's left edge and width in the legend column.
const BAR_X: f64 = 10.0;
const BAR_W: f64 = 14.0;

impl Heatmap {
    /// The colour scale's labels: both ends and the middle of the range.
    fn scale_labels(&self) -> [(f64, String); 3] {
        let (lo, hi) = self.range;
        [lo, (lo + hi) / 2.0, hi].map(|v| (v, format!("{v:.*}", self.decimals)))
    }
}

impl Figure {
    /// Lays the figure out (every text measured with the embedded font).
    fn layout(&self) -> Result<Layout, String> {
        font()?;
        let tick = text(12.0, BLACK);
        let desc = text(13.0, BLACK);
        let maps: Vec<&Heatmap> = self
            .panels
            .iter()
            .filter_map(|p| p.heatmap.as_ref())
            .collect();
        // The legend column: legend entries, or a heat map's colour scale.
        let mut legend_w: f64 = 0.0;
        for p in &self.panels {
            for (name, _, _) in p.legend() {
                let w = width_of(&name, &tick).min(MAX_LEGEND_ENTRY);
                legend_w = legend_w.max(w + 58.0);
            }
        }
        legend_w = if legend_w == 0.0 { 15.0 } else { legend_w };
        let scale = text(11.0, BLACK);
        for h in &maps {
            for (_, l) in h.scale_labels() {
                legend_w = legend_w.max(BAR_X + BAR_W + 6.0 + width_of(&l, &scale) + 8.0);
            }
        }
        // The y label column and the cells: as wide as the labels need, within bounds.
        let mut y_area = Y_AREA;
        let mut cell: f64 = 0.0;
        let mut rows: usize = 0;
        for h in &maps {
            let widest_y = h
                .y_labels
                .iter()
                .map(|l| width_of(l, &tick))
                .fold(0.0, f64::max)
                .min(MAX_Y_LABELS);
            y_area = y_area.max(widest_y + 9.0 + 13.0 * LINE + 8.0);
            let widest_x = h
                .x_labels
                .iter()
                .map(|l| width_of(l, &tick))
                .fold(0.0, f64::max);
            cell = cell.max((widest_x + 8.0).min(MAX_CELL) * h.x_labels.len().max(1) as f64);
            rows = rows.max(h.y_labels.len());
        }
        let descs = |f: &dyn Fn(&Panel) -> &String| {
            self.panels
                .iter()
                .map(|p| width_of(f(p), &desc))
                .fold(0.0, f64::max)
        };
        let (xdesc, ydesc) = (descs(&|p| &p.xlabel), descs(&|p| &p.ylabel));
        let plot_min_w = cell.max(xdesc + 10.0).max(120.0);
        let width = self
            .width
            .max(MARGIN_LEFT + y_area + plot_min_w + MARGIN_RIGHT + legend_w)
            .ceil();
        // Titles wrap within the picture (the figure's) or the plot column (a panel's).
        let title = fit(&self.title, 17.0, true, width - 16.0, MAX_TITLE_LINES);
        let head = 50.0 + (title.0.len() - 1) as f64 * title.1 * LINE;
        let captions: Vec<(Vec<String>, f64)> = self
            .panels
            .iter()
            .map(|p| {
                fit(
                    &p.title,
                    14.0,
                    false,
                    width - legend_w - 8.0,
                    MAX_TITLE_LINES,
                )
            })
            .collect();
        let caption_h = captions
            .iter()
            .map(|(l, z)| 8.0 + l.len() as f64 * z * LINE + 4.0)
            .fold(0.0, f64::max);
        // Each panel tall enough for its cells' labels, the rotated y label and the scale.
        let mut plot_min_h = ydesc + 10.0;
        if !maps.is_empty() {
            plot_min_h = plot_min_h.max(rows as f64 * 16.0).max(80.0);
        }
        let panel_height = self
            .panel_height
            .max(caption_h + MARGIN_TOP + plot_min_h + X_AREA)
            .ceil();
        Ok(Layout {
            width,
            height: head + self.panels.len() as f64 * panel_height,
            title,
            head,
            legend_w,
            y_area,
            captions,
            caption_h,
        })
    }

    /// The nominal size (the SVG's width and height).
    fn size(&self) -> Result<(u32, u32), String> {
        let l = self.layout()?;
        Ok((
            l.width.round().max(1.0) as u32,
            l.height.round().max(1.0) as u32,
        ))
    }

    /// Draws the figure on `root` (a canvas of the layout's size).
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        l: &Layout,
    ) -> Result<(), String> {
        font()?;
        root.fill(&RGBColor::from(WHITE)).map_err(err)?;
        let (head, body) = root.split_vertically(px(l.head));
        let (w, _) = head.dim_in_pixel();
        let (lines, size) = &l.title;
        for (k, line) in lines.iter().enumerate() {
            head.draw(&Text::new(
                line.clone(),
                (w as i32 / 2, px(27.0 + k as f64 * size * LINE)),
                bold(*size).pos(Pos::new(HPos::Center, VPos::Center)),
            ))
            .map_err(err)?;
        }
        if self.panels.is_empty() {
            return root.present().map_err(err);
        }
        // One legend column for all panels, as wide as the widest entry (or colour scale), so
        // the panels' x axes line up and no name is cut.
        let areas = body.split_evenly((self.panels.len(), 1));
        for ((p, area), caption) in self.panels.iter().zip(&areas).zip(&l.captions) {
            let (aw, _) = area.dim_in_pixel();
            let (column, legend) = area.split_horizontally(aw as i32 - px(l.legend_w));
            let (top, plot) = column.split_vertically(px(l.caption_h));
            let (cw, _) = top.dim_in_pixel();
            let (lines, size) = caption;
            for (k, line) in lines.iter().enumerate() {
                top.draw(&Text::new(
                    line.clone(),
                    (cw as i32 / 2, px(8.0 + (k as f64 + 0.5) * size * LINE)),
                    text(*size, BLACK).pos(Pos::new(HPos::Center, VPos::Center)),
                ))
                .map_err(err)?;
            }
            self.panel(p, &plot, &legend, l)?;
        }
        root.present().map_err(err)
    }

    fn panel<DB: DrawingBackend>(
        &self,
        p: &Panel,
        area: &DrawingArea<DB, Shift>,
        legend: &DrawingArea<DB, Shift>,
        l: &Layout,
    ) -> Result<(), String> {
        let (x0, x1) = p.x_range();
        let (y0, y1) = p.y_range();
        let bars = !p.bars.is_empty();
        let y_area = if p.heatmap.is_some() {
            l.y_area
        } else {
            Y_AREA
        };
        let mut chart = ChartBuilder::on(area)
            .margin_left(px(MARGIN_LEFT))
            .margin_right(px(MARGIN_RIGHT))
            .margin_top(px(MARGIN_TOP))
            .x_label_area_size(px(X_AREA))
            .y_label_area_size(px(y_area))
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(err)?;
        let (x_ticks, y_ticks) = (10, 7);
        let x_fmt = tick_format(x0, x1, x_ticks);
        let y_fmt = tick_format(y0, y1, y_ticks);
        let tick_font = text(12.0, BLACK);
        // One line each: shrunk, then cut, to the plot's width and height.
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        let plot_w = f64::from(xs.end - xs.start) / UNIT;
        let plot_h = f64::from(ys.end - ys.start) / UNIT;
        let one_line = |s: &str, room: f64| {
            let (lines, size) = fit(s, 13.0, false, room, 1);
            (lines.join(" "), size)
        };
        let (xdesc, xdesc_size) = one_line(&p.xlabel, plot_w);
        let (ydesc, ydesc_size) = one_line(&p.ylabel, plot_h);
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(xdesc)
            .y_desc(ydesc)
            .label_style(tick_font.clone())
            .axis_desc_style(text(xdesc_size.min(ydesc_size), BLACK))
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
            let cell_w_all = plot_w / h.x_labels.len().max(1) as f64;
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
                    let value = v.map_or("-".to_string(), |v| format!("{v:.*}", h.decimals));
                    let cell_h = plot_h / h.y_labels.len().max(1) as f64;
                    let (label, size) = fit(
                        &value,
                        10.0_f64.min(cell_h * 0.8),
                        false,
                        cell_w_all - 4.0,
                        1,
                    );
                    let label = label.join(" ");
                    chart
                        .draw_series(std::iter::once(
                            EmptyElement::at((x + 0.5, y + 0.5))
                                + Text::new(
                                    label,
                                    (0, 0),
                                    text(size, if dark { WHITE } else { BLACK })
                                        .pos(Pos::new(HPos::Center, VPos::Center)),
                                ),
                        ))
                        .map_err(err)?;
                }
            }
            // Labels wider than their cell (or the y label column) are shrunk, then cut.
            let cell_w = plot_w / h.x_labels.len().max(1) as f64 - 6.0;
            let y_room = l.y_area - 9.0 - 13.0 * LINE - 8.0;
            for (x, label) in h.x_labels.iter().enumerate() {
                let (lines, size) = fit(label, 12.0, false, cell_w, 1);
                chart
                    .draw_series(std::iter::once(
                        EmptyElement::at((x as f64 + 0.5, y0))
                            + Text::new(
                                lines.join(" "),
                                (0, px(6.0)),
                                text(size, BLACK).pos(Pos::new(HPos::Center, VPos::Top)),
                            ),
                    ))
                    .map_err(err)?;
            }
            for (y, label) in h.y_labels.iter().enumerate() {
                let (lines, size) = fit(label, 12.0, false, y_room, 1);
                chart
                    .draw_series(std::iter::once(
                        EmptyElement::at((x0, y as f64 + 0.5))
                            + Text::new(
                                lines.join(" "),
                                (-px(5.0), 0),
                                text(size, BLACK).pos(Pos::new(HPos::Right, VPos::Center)),
                            ),
                    ))
                    .map_err(err)?;
            }
            self.colour_scale(
                h,
                legend,
                ys.start - legend.get_base_pixel().1,
                ys.end - legend.get_base_pixel().1,
            )?;
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
            let name = cut(&name, &font, MAX_LEGEND_ENTRY);
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

    /// A heat map's colour scale in the legend column: a gradient bar from `top` to `bottom`
    /// (canvas units, relative to the column), the range's low end at the bottom, labelled at both
    /// ends and the middle.
    fn colour_scale<DB: DrawingBackend>(
        &self,
        h: &Heatmap,
        legend: &DrawingArea<DB, Shift>,
        top: i32,
        bottom: i32,
    ) -> Result<(), String> {
        const STEPS: i32 = 64;
        let (lo, hi) = h.range;
        let span = (bottom - top).max(1);
        let (x0, x1) = (px(BAR_X), px(BAR_X + BAR_W));
        for k in 0..STEPS {
            let y_hi = bottom - span * k / STEPS;
            let y_lo = bottom - span * (k + 1) / STEPS;
            let v = lo + (hi - lo) * (f64::from(k) + 0.5) / f64::from(STEPS);
            legend
                .draw(&Rectangle::new(
                    [(x0, y_lo), (x1, y_hi)],
                    RGBColor::from(colormap(v, lo, hi)).filled(),
                ))
                .map_err(err)?;
        }
        legend
            .draw(&Rectangle::new(
                [(x0, top), (x1, bottom)],
                stroke(BLACK, 1.0),
            ))
            .map_err(err)?;
        let font = text(11.0, BLACK);
        for (v, label) in h.scale_labels() {
            let u = if hi > lo { (v - lo) / (hi - lo) } else { 0.0 };
            let y = bottom - (u * f64::from(span)).round() as i32;
            legend
                .draw(&PathElement::new(
                    vec![(x1, y), (x1 + px(3.0), y)],
                    stroke(BLACK, 1.0),
                ))
                .map_err(err)?;
            legend
                .draw(&Text::new(
                    label,
                    (x1 + px(6.0), y),
                    font.pos(Pos::new(HPos::Left, VPos::Center)),
                ))
                .map_err(err)?;
        }
        Ok(())
    }

    /// The figure as SVG text: nominal width and height, a canvas of [`UNIT`] times that.
    pub fn svg(&self) -> Result<String, String> {
        let layout = self.layout()?;
        let (w, h) = (
            layout.width.round().max(1.0) as u32,
            layout.height.round().max(1.0) as u32,
        );
        let canvas = (w * UNIT as u32, h * UNIT as u32);
        let mut out = String::new();
        {
            let root = SVGBackend::with_string(&mut out, canvas).into_drawing_area();
            self.draw(&root, &layout)?;
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
        let (w, h) = self.size()?;
        let mut pm = Pixmap::new(w * PNG_SCALE, h * PNG_SCALE).ok_or("empty figure")?;
        // The tree is in nominal units (the SVG's width and height).
        let k = PNG_SCALE as f32;
        resvg::render(&tree, Transform::from_scale(k, k), &mut pm.as_mut());
        pm.encode_png().map_err(err)
    }

    /// Writes `<stem>.svg` and `<stem>.png` into `dir`; returns their paths.
    pub fn write(&self, dir: &Path, stem: &str) -> Result<Vec<String>, NetError> {
        let svg = OutFile::create(dir.join(format!("{stem}.svg")))?;
        let png = OutFile::create(dir.join(format!("{stem}.png")))?;
        self.write_into(svg, png)
    }

    /// Writes the SVG and the PNG into files already created; returns their paths.
    pub fn write_into(&self, mut svg: OutFile, mut png: OutFile) -> Result<Vec<String>, NetError> {
        let text = self.svg().map_err(|message| NetError::Figure {
            path: svg.name(),
            message,
        })?;
        svg.write(text.as_bytes())?;
        let bytes = self.png().map_err(|message| NetError::Png {
            path: png.name(),
            message,
        })?;
        png.write(&bytes)?;
        Ok(vec![svg.name(), png.name()])
    }
}

pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), NetError> {
    OutFile::create(path.to_path_buf())?.write(bytes)
}

/// A text and its extent: left, top, right, bottom (figure units).
#[cfg(test)]
pub(crate) type TextExtent = (String, [f32; 4]);

/// Every text of `fig` as resvg lays it out for the PNG (the embedded font, its shaping and
/// advances): its content and its extent in figure units (left, top, right, bottom), and the
/// picture's size.
#[cfg(test)]
pub(crate) fn text_extents(fig: &Figure) -> (Vec<TextExtent>, (f32, f32)) {
    fn walk(g: &usvg::Group, out: &mut Vec<TextExtent>) {
        for n in g.children() {
            match n {
                usvg::Node::Group(g) => walk(g, out),
                usvg::Node::Text(t) => {
                    let r = t.abs_bounding_box();
                    let s: String = t.chunks().iter().map(|c| c.text()).collect();
                    out.push((s, [r.left(), r.top(), r.right(), r.bottom()]));
                }
                _ => {}
            }
        }
    }
    let svg = fig.svg().unwrap();
    let opt = usvg::Options {
        font_family: DEJAVU.to_string(),
        fontdb: font_db(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&svg, &opt).unwrap();
    let mut out = Vec::new();
    walk(tree.root(), &mut out);
    (out, (tree.size().width(), tree.size().height()))
}

/// The texts of `fig` that reach outside the picture (half a unit of tolerance).
#[cfg(test)]
pub(crate) fn texts_outside(fig: &Figure) -> Vec<String> {
    let (texts, (w, h)) = text_extents(fig);
    assert!(!texts.is_empty(), "no text laid out");
    texts
        .into_iter()
        .filter(|(_, [l, t, r, b])| *l < -0.5 || *t < -0.5 || *r > w + 0.5 || *b > h + 0.5)
        .map(|(s, e)| format!("`{s}` at {e:?} in {w} x {h}"))
        .collect()
}

#[cfg(test)]
mod tests;
