//! Text and styles: the embedded font registered with plotters and for resvg, figure units to
//! canvas units, the text and stroke styles, tick label formats, and text measured, cut and wrapped
//! to fit its space.

use super::*;

/// Registers the embedded DejaVu Sans with plotters once.
pub(super) fn font() -> Result<(), String> {
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
pub(super) fn px(v: f64) -> i32 {
    (v * UNIT).round() as i32
}

pub(super) fn text(size: f64, color: Rgb) -> TextStyle<'static> {
    (FAMILY, size * UNIT)
        .into_font()
        .color(&RGBColor::from(color))
}

pub(super) fn bold(size: f64) -> TextStyle<'static> {
    (FAMILY, size * UNIT, FontStyle::Bold)
        .into_font()
        .color(&RGBColor::from(BLACK))
}

pub(super) fn stroke(color: Rgb, width: f64) -> ShapeStyle {
    RGBColor::from(color).stroke_width((width * UNIT).round().max(1.0) as u32)
}

/// The embedded fonts for resvg, with DejaVu Sans as every generic sans-serif family.
pub(super) fn font_db() -> Arc<fontdb::Database> {
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
pub(super) fn tick_format(lo: f64, hi: f64, hint: usize) -> impl Fn(&f64) -> String {
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

pub(super) fn err<E: std::fmt::Display>(e: E) -> String {
    e.to_string()
}

/// The smallest text size (figure units) a title or label is shrunk to before it is cut.
pub(super) const MIN_TEXT: f64 = 7.0;
/// Widest heat-map cell and widest y label column (figure units): longer labels are shrunk, then
/// cut with an ellipsis (the CSV holds them whole), so that a grid of long labels stays a
/// picture of bounded size.
pub(super) const MAX_CELL: f64 = 100.0;
pub(super) const MAX_Y_LABELS: f64 = 160.0;
/// Widest legend entry (figure units); a longer name is cut with an ellipsis.
pub(super) const MAX_LEGEND_ENTRY: f64 = 300.0;
/// Lines a figure title or a panel title may wrap onto.
pub(super) const MAX_TITLE_LINES: usize = 3;
/// Line height as a multiple of the text size.
pub(super) const LINE: f64 = 1.25;

/// Width of `s` set in `style`, figure units, from the embedded font's glyph advances (what
/// plotters lays the text out with).
pub(super) fn width_of(s: &str, style: &TextStyle) -> f64 {
    match style.font.box_size(s) {
        Ok((w, _)) => f64::from(w) / UNIT,
        // Not measurable (no glyphs): the widest a DejaVu Sans glyph is, in ems.
        Err(_) => s.chars().count() as f64 * style.font.get_size() / UNIT,
    }
}

/// `s` cut to at most `max_w` figure units in `style`, ending with an ellipsis if cut.
pub(super) fn cut(s: &str, style: &TextStyle, max_w: f64) -> String {
    if width_of(s, style) <= max_w {
        return s.to_string();
    }
    let chars: Vec<char> = s.chars().collect();
    let with = |n: usize| chars[..n].iter().collect::<String>() + "…";
    // The most characters that fit with the ellipsis (0 when even "…" does not).
    let (mut lo, mut hi) = (0, chars.len());
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if width_of(&with(mid), style) <= max_w {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    if lo == 0 && width_of("…", style) > max_w {
        String::new()
    } else {
        with(lo)
    }
}

/// `s` set within `max_w` figure units: as it is at `size` if it fits; else wrapped at spaces onto
/// at most `max_lines` lines, the size reduced (down to [`MIN_TEXT`]) while a word is wider than
/// a line, a word still too wide cut, and a last line cut if lines remain. Returns the lines and
/// the size.
pub(super) fn fit(
    s: &str,
    size: f64,
    heavy: bool,
    max_w: f64,
    max_lines: usize,
) -> (Vec<String>, f64) {
    let style = |z: f64| if heavy { bold(z) } else { text(z, BLACK) };
    if s.is_empty() || width_of(s, &style(size)) <= max_w {
        return (vec![s.to_string()], size);
    }
    let widest = s
        .split(' ')
        .map(|w| width_of(w, &style(size)))
        .fold(0.0, f64::max);
    let size = if widest > max_w {
        (size * max_w / widest).clamp(MIN_TEXT, size)
    } else {
        size
    };
    let st = style(size);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split(' ').filter(|w| !w.is_empty()) {
        let word = cut(word, &st, max_w);
        let joined = if line.is_empty() {
            word.clone()
        } else {
            format!("{line} {word}")
        };
        if line.is_empty() || width_of(&joined, &st) <= max_w {
            line = joined;
        } else {
            lines.push(std::mem::replace(&mut line, word));
        }
    }
    lines.push(line);
    if lines.len() > max_lines {
        let rest = lines.split_off(max_lines - 1).join(" ");
        lines.push(cut(&rest, &st, max_w));
    }
    (lines, size)
}
