//! The drawing toolkit behind the chart functions, generic over plotters' backends so one
//! drawing makes the PNG and the SVG. Every chart shares one frame: a title that
//! shrinks (then wraps) to fit, the plot, a legend panel on the right when colours
//! stand for something (so it never hides data), and the footer. Text is never cut
//! short: it shrinks, wraps onto a second line, or (a category label under a narrow
//! bar) turns to read upwards, and the label areas grow to hold it.

use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::Footer;

/// A drawing area with pixel coordinates.
pub(super) type Area<DB> = DrawingArea<DB, Shift>;
/// A backend's drawing error.
pub(super) type Failure<DB> = DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>;
/// What drawing a chart gives.
pub(super) type Drawn<DB> = Result<(), Failure<DB>>;

/// A chart's plane with numbers on both axes.
pub(super) type Plane<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

pub(super) const FONT: &str = "sans-serif";
pub(super) const INK: RGBColor = RGBColor(33, 33, 33);
const MUTED: RGBColor = RGBColor(90, 90, 90);
pub(super) const GRID: RGBColor = RGBColor(222, 222, 222);
/// Bins outside a histogram's numbered scale (`undecided`, `none`).
pub(super) const APART: RGBColor = RGBColor(160, 160, 160);

/// Okabe and Ito's colour-blind-safe palette, most distinct first.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),   // blue
    RGBColor(230, 159, 0),   // orange
    RGBColor(0, 158, 115),   // bluish green
    RGBColor(213, 94, 0),    // vermilion
    RGBColor(86, 180, 233),  // sky blue
    RGBColor(204, 121, 167), // reddish purple
    RGBColor(240, 228, 66),  // yellow
    RGBColor(110, 110, 110), // grey
];

// Font sizes in pixels, all even: plotters' ab_glyph text truncates half a pixel
// differently above and below the baseline at odd sizes, which lifts full stops and
// lowers digits by one pixel in the PNG ("97·3%").
const TITLE_SIZES: (f64, f64) = (26.0, 14.0);
pub(super) const AXIS_SIZE: f64 = 18.0;
pub(super) const TICK_SIZE: f64 = 16.0;
pub(super) const LABEL_SIZES: (f64, f64) = (16.0, 12.0);
pub(super) const NOTE_SIZES: (f64, f64) = (14.0, 10.0);
pub(super) const VALUE_SIZE: f64 = 12.0;

const TITLE_HEIGHT: u32 = 56;
const FOOTER_HEIGHT: u32 = 30;
pub(super) const PAD: i32 = 16;

/// The `i`th colour: the palette, then hues a golden angle apart in two lightnesses.
pub(super) fn colour(i: usize) -> RGBColor {
    match PALETTE.get(i) {
        Some(&c) => c,
        None => {
            let hue = (i as f64 * 0.381_966_011_250_105).fract();
            let lightness = if i.is_multiple_of(2) { 0.38 } else { 0.62 };
            let c = HSLColor(hue, 0.65, lightness).to_backend_color().rgb;
            RGBColor(c.0, c.1, c.2)
        }
    }
}

/// Black or white, whichever reads better on `c`.
pub(super) fn contrast(c: RGBColor) -> RGBColor {
    let luma = 0.299 * f64::from(c.0) + 0.587 * f64::from(c.1) + 0.114 * f64::from(c.2);
    if luma > 150.0 { INK } else { WHITE }
}

pub(super) fn text(size: f64, c: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    (FONT, size).into_font().color(&c).pos(Pos::new(h, v))
}

pub(super) fn bold(size: f64, c: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    FontDesc::from((FONT, size, FontStyle::Bold)).color(&c).pos(Pos::new(h, v))
}

/// How wide `s` is in `style`, in pixels.
pub(super) fn width_of<DB: DrawingBackend>(area: &Area<DB>, s: &str, style: &TextStyle) -> Result<u32, Failure<DB>> {
    Ok(area.estimate_text_size(s, style)?.0)
}

/// `s` broken at spaces into lines at most `width` pixels wide; a word wider than
/// `width` on its own is broken between characters, so nothing is ever dropped.
fn wrap<DB: DrawingBackend>(
    area: &Area<DB>,
    s: &str,
    width: u32,
    style: &TextStyle,
) -> Result<Vec<String>, Failure<DB>> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split_whitespace() {
        let joined = if line.is_empty() { word.to_string() } else { format!("{line} {word}") };
        if width_of(area, &joined, style)? <= width {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        // The word alone, broken between characters while it is too wide.
        for c in word.chars() {
            let longer = format!("{line}{c}");
            if !line.is_empty() && width_of(area, &longer, style)? > width {
                lines.push(std::mem::replace(&mut line, c.to_string()));
            } else {
                line = longer;
            }
        }
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    Ok(lines)
}

/// `s` set to fit `width` pixels, whole: on one line at the largest even size from
/// `max` down to `min`; else on two lines at the largest size that holds them; else
/// wrapped onto as many lines as it takes at `min`. Returns the lines and their style.
pub(super) fn fit<DB: DrawingBackend>(
    area: &Area<DB>,
    s: &str,
    width: u32,
    (max, min): (f64, f64),
    style: impl Fn(f64) -> TextStyle<'static>,
) -> Result<(Vec<String>, TextStyle<'static>), Failure<DB>> {
    for most in [1, 2] {
        let mut size = max;
        while size >= min {
            let st = style(size);
            let lines = wrap(area, s, width, &st)?;
            if lines.len() <= most {
                return Ok((lines, st));
            }
            size -= 2.0;
        }
    }
    let st = style(min);
    Ok((wrap(area, s, width, &st)?, st))
}

/// The height of one line of text at `size`, with its leading.
pub(super) fn line_height(size: f64) -> i32 {
    size as i32 + 4
}

/// Draws `lines` one under another, the first at `y` (each line placed by `style`'s
/// anchor, so a centred style centres the block on `y`).
fn draw_lines<DB: DrawingBackend>(
    area: &Area<DB>,
    lines: &[String],
    style: &TextStyle,
    (x, y): (i32, i32),
) -> Drawn<DB> {
    let step = line_height(style.font.get_size());
    let first = match style.pos.v_pos {
        VPos::Center => y - step * (lines.len() as i32 - 1) / 2,
        VPos::Top => y,
        VPos::Bottom => y - step * (lines.len() as i32 - 1),
    };
    for (k, line) in lines.iter().enumerate() {
        area.draw_text(line, style, (x, first + step * k as i32))?;
    }
    Ok(())
}

/// A marker's shape; each series gets its own, so series read apart without colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Marker {
    Circle,
    Square,
    Triangle,
    Diamond,
    TriangleDown,
    Cross,
    Plus,
    Pentagon,
}

const MARKERS: [Marker; 8] = [
    Marker::Circle,
    Marker::Square,
    Marker::Triangle,
    Marker::Diamond,
    Marker::TriangleDown,
    Marker::Cross,
    Marker::Plus,
    Marker::Pentagon,
];

/// Dash patterns in pixels, on and off in turn: solid, dashed, dotted, dash-dot, long
/// dash, dash-dot-dot, short dash, dash-dash-dot.
const DASHES: [&[f64]; 8] = [
    &[],
    &[12.0, 6.0],
    &[3.0, 5.0],
    &[14.0, 5.0, 3.0, 5.0],
    &[24.0, 7.0],
    &[10.0, 4.0, 3.0, 4.0, 3.0, 4.0],
    &[6.0, 5.0],
    &[12.0, 4.0, 12.0, 4.0, 3.0, 4.0],
];

/// How one series looks: colour, marker and dash pattern, each distinct from the
/// other series' for the first eight (and the pairs differ for more).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Look {
    pub colour: RGBColor,
    pub marker: Marker,
    pub dash: &'static [f64],
}

/// The `i`th series' look.
pub(super) fn look(i: usize) -> Look {
    Look { colour: colour(i), marker: MARKERS[i % MARKERS.len()], dash: DASHES[(i + i / DASHES.len()) % DASHES.len()] }
}

/// The "on" runs of the polyline `points` under the dash `pattern` (solid when empty),
/// the pattern running on across corners.
pub(super) fn dashes(points: &[(i32, i32)], pattern: &[f64]) -> Vec<Vec<(i32, i32)>> {
    if pattern.is_empty() || points.len() < 2 {
        return vec![points.to_vec()];
    }
    let at = |p: (f64, f64)| (p.0.round() as i32, p.1.round() as i32);
    let (mut k, mut left) = (0, pattern[0]);
    let mut runs: Vec<Vec<(i32, i32)>> = Vec::new();
    let mut run = vec![points[0]];
    for pair in points.windows(2) {
        let (a, b) = ((f64::from(pair[0].0), f64::from(pair[0].1)), (f64::from(pair[1].0), f64::from(pair[1].1)));
        let length = (b.0 - a.0).hypot(b.1 - a.1);
        if length == 0.0 {
            continue;
        }
        let mut done = 0.0;
        while length - done > left {
            done += left;
            let t = done / length;
            let p = at((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t));
            if k % 2 == 0 {
                run.push(p);
                runs.push(std::mem::take(&mut run));
            } else {
                run = vec![p];
            }
            k = (k + 1) % pattern.len();
            left = pattern[k];
        }
        left -= length - done;
        if k % 2 == 0 {
            run.push(pair[1]);
        }
    }
    if run.len() >= 2 {
        runs.push(run);
    }
    runs
}

/// Draws `points` (pixels) as a line in `look`'s colour and dash pattern.
pub(super) fn dashed_line<DB: DrawingBackend>(
    root: &Area<DB>,
    points: &[(i32, i32)],
    look: &Look,
    width: u32,
) -> Drawn<DB> {
    for run in dashes(points, look.dash) {
        root.draw(&PathElement::new(run, look.colour.stroke_width(width)))?;
    }
    Ok(())
}

/// Draws `look`'s marker centred on `(x, y)` (pixels), `r` pixels from its centre to
/// its edge, filled in its colour with a white rim so it stands off its own line.
pub(super) fn marker<DB: DrawingBackend>(root: &Area<DB>, look: &Look, (x, y): (i32, i32), r: i32) -> Drawn<DB> {
    let c = look.colour;
    let outline = |root: &Area<DB>, mut points: Vec<(i32, i32)>| -> Drawn<DB> {
        root.draw(&Polygon::new(points.clone(), c.filled()))?;
        points.push(points[0]);
        root.draw(&PathElement::new(points, WHITE.stroke_width(1)))
    };
    match look.marker {
        Marker::Circle => {
            root.draw(&Circle::new((x, y), r, c.filled()))?;
            root.draw(&Circle::new((x, y), r, WHITE.stroke_width(1)))
        }
        Marker::Square => {
            let s = r - 1;
            outline(root, vec![(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)])
        }
        Marker::Triangle => outline(root, vec![(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)]),
        Marker::TriangleDown => outline(root, vec![(x, y + r + 1), (x + r + 1, y - r), (x - r - 1, y - r)]),
        Marker::Diamond => outline(root, vec![(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)]),
        Marker::Pentagon => {
            let corner = |k: i32| {
                let a = std::f64::consts::TAU * f64::from(k) / 5.0;
                let r = f64::from(r + 1);
                (x + (r * a.sin()).round() as i32, y - (r * a.cos()).round() as i32)
            };
            outline(root, (0..5).map(corner).collect())
        }
        Marker::Cross | Marker::Plus => {
            let s = r;
            let strokes = match look.marker {
                Marker::Cross => [[(x - s, y - s), (x + s, y + s)], [(x - s, y + s), (x + s, y - s)]],
                _ => [[(x - s - 1, y), (x + s + 1, y)], [(x, y - s - 1), (x, y + s + 1)]],
            };
            for stroke in strokes {
                root.draw(&PathElement::new(stroke.to_vec(), WHITE.stroke_width(5)))?;
            }
            for stroke in strokes {
                root.draw(&PathElement::new(stroke.to_vec(), c.stroke_width(3)))?;
            }
            Ok(())
        }
    }
}

/// Draws an error bar (pixels): a vertical stroke from `low` to `high` at `x` with caps
/// `cap` pixels either side, over a white halo so it reads on any bar colour. Nothing
/// is drawn for an interval of no height (an exact value).
pub(super) fn whisker<DB: DrawingBackend>(
    root: &Area<DB>,
    x: i32,
    (low, high): (i32, i32),
    cap: i32,
    c: RGBColor,
) -> Drawn<DB> {
    whisker_of(root, x, (low, high), cap, c, 2)
}

/// [`whisker`] with strokes `width` pixels wide (and no caps when `cap` is 0), for bars
/// too narrow for the usual one.
pub(super) fn whisker_of<DB: DrawingBackend>(
    root: &Area<DB>,
    x: i32,
    (low, high): (i32, i32),
    cap: i32,
    c: RGBColor,
    width: u32,
) -> Drawn<DB> {
    if low == high {
        return Ok(());
    }
    let mut strokes = vec![vec![(x, low), (x, high)]];
    if cap > 0 {
        strokes.extend([vec![(x - cap, low), (x + cap, low)], vec![(x - cap, high), (x + cap, high)]]);
    }
    for s in &strokes {
        root.draw(&PathElement::new(s.clone(), WHITE.mix(0.9).stroke_width(width + 3)))?;
    }
    for s in strokes {
        root.draw(&PathElement::new(s, c.stroke_width(width)))?;
    }
    Ok(())
}

/// How a legend row marks its entry.
pub(super) enum Mark {
    /// A filled square (a bar or segment colour).
    Swatch(RGBColor),
    /// A series: a short line in its dash pattern over its translucent band, with its
    /// marker.
    Series(Look),
    /// A grey translucent band with a whisker: the intervals of lines.
    Band,
    /// A dark whisker: the intervals of bars or edges.
    Whisker,
}

/// Title, footer and (for a non-empty `legend`) the legend panel; returns the plot's area.
pub(super) fn frame<DB: DrawingBackend>(
    root: &Area<DB>,
    title: &str,
    footer: &Footer,
    legend: &[(String, Mark)],
) -> Result<Area<DB>, Failure<DB>> {
    root.fill(&WHITE)?;
    let (w, h) = root.dim_in_pixel();
    let inner = w.saturating_sub(2 * PAD as u32);
    let (top, rest) = root.split_vertically(TITLE_HEIGHT);
    let (lines, style) = fit(root, title, inner, TITLE_SIZES, |s| bold(s, INK, HPos::Center, VPos::Center))?;
    draw_lines(&top, &lines, &style, (w as i32 / 2, TITLE_HEIGHT as i32 / 2))?;
    let (body, foot) = rest.split_vertically(h.saturating_sub(TITLE_HEIGHT + FOOTER_HEIGHT));
    foot.draw(&PathElement::new(vec![(PAD, 0), (w as i32 - PAD, 0)], GRID.stroke_width(1)))?;
    let (lines, style) = fit(root, &footer.0, inner, NOTE_SIZES, |s| text(s, MUTED, HPos::Left, VPos::Center))?;
    draw_lines(&foot, &lines, &style, (PAD, FOOTER_HEIGHT as i32 / 2))?;
    if legend.is_empty() {
        return Ok(body);
    }
    let width = legend_width(root, legend)?;
    let (plot, side) = body.split_horizontally(w - width);
    draw_legend(root, &side, legend)?;
    Ok(plot)
}

/// The plane of a chart whose x axis holds categories (bars, bins): no x mesh or x
/// ticks (the categories are labelled by [`draw_labels`]), `x_desc` under them where
/// given, and y ticks read by `y_reads`. Returns the plane to draw on.
pub(super) fn categories<'a, DB: DrawingBackend>(
    plot: &'a Area<DB>,
    label_height: u32,
    (x, y): (std::ops::Range<f64>, std::ops::Range<f64>),
    (x_desc, y_desc): (Option<&str>, &str),
    y_reads: &dyn Fn(&f64) -> String,
) -> Result<Plane<'a, DB>, Failure<DB>> {
    let mut chart = ChartBuilder::on(plot)
        .margin(12)
        .margin_right(24)
        .x_label_area_size(label_height)
        .y_label_area_size(76)
        .build_cartesian_2d(x, y)?;
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh().x_labels(0).y_desc(y_desc).y_label_formatter(y_reads);
    if let Some(x_desc) = x_desc {
        mesh.x_desc(x_desc);
    }
    mesh.axis_desc_style((FONT, AXIS_SIZE).into_font().color(&INK))
        .label_style((FONT, TICK_SIZE).into_font().color(&INK))
        .bold_line_style(GRID)
        .max_light_lines(0)
        .draw()?;
    Ok(chart)
}

/// A legend panel's width: its longest label on one line, between a seventh and a third
/// of the chart (a longer label wraps).
pub(super) fn legend_width<DB: DrawingBackend>(root: &Area<DB>, legend: &[(String, Mark)]) -> Result<u32, Failure<DB>> {
    let w = root.dim_in_pixel().0;
    let style = text(LABEL_SIZES.0, INK, HPos::Left, VPos::Center);
    let mut widest = 0;
    for (label, _) in legend {
        widest = widest.max(width_of(root, label, &style)?);
    }
    Ok((widest + 60 + PAD as u32).clamp(w / 7, w / 3))
}

/// Draws `legend` down `side`: each mark, and its label beside it at the largest size
/// from 16 down to 10 at which every label fits on one line and every entry fits the
/// panel's height; failing that, wrapped at the largest size at which they fit the
/// height (at the smallest, they may run past its foot).
pub(super) fn draw_legend<DB: DrawingBackend>(
    root: &Area<DB>,
    side: &Area<DB>,
    legend: &[(String, Mark)],
) -> Drawn<DB> {
    let (width, height) = side.dim_in_pixel();
    let room = width.saturating_sub(56 + PAD as u32 / 2);
    let label = |s: f64| text(s, INK, HPos::Left, VPos::Center);
    let sizes: Vec<f64> =
        (0..).map(|k| LABEL_SIZES.0 - 2.0 * f64::from(k)).take_while(|s| *s >= NOTE_SIZES.1).collect();
    let mut options = Vec::new();
    for &size in &sizes {
        let set: Vec<Vec<String>> =
            legend.iter().map(|(l, _)| wrap(root, l, room, &label(size))).collect::<Result<_, _>>()?;
        let lines: usize = set.iter().map(Vec::len).sum();
        let fits = lines as i32 * line_height(size) + legend.len() as i32 * 12 <= height as i32 - 30;
        options.push((size, lines == legend.len(), fits, set));
    }
    let chosen = options
        .iter()
        .position(|(_, flat, fits, _)| *flat && *fits)
        .or_else(|| options.iter().position(|(_, _, fits, _)| *fits))
        .unwrap_or(options.len() - 1);
    let (size, _, _, set) = options.swap_remove(chosen);
    let step = line_height(size);
    let mut y = 24;
    for ((_, mark), lines) in legend.iter().zip(&set) {
        let rows = lines.len() as i32 * step;
        let mid = y + rows / 2;
        let (x0, x1) = (8, 48);
        match mark {
            Mark::Swatch(c) => side.draw(&Rectangle::new([(x0 + 10, mid - 9), (x0 + 28, mid + 9)], c.filled()))?,
            Mark::Series(look) => {
                side.draw(&Rectangle::new([(x0, mid - 7), (x1, mid + 7)], look.colour.mix(0.15).filled()))?;
                let base = side.get_base_pixel();
                let line = [(base.0 + x0, base.1 + mid), (base.0 + x1, base.1 + mid)];
                dashed_line(root, &line, look, 3)?;
                marker(root, look, (base.0 + (x0 + x1) / 2, base.1 + mid), 5)?;
            }
            Mark::Band => {
                side.draw(&Rectangle::new([(x0, mid - 7), (x1, mid + 7)], INK.mix(0.15).filled()))?;
                let base = side.get_base_pixel();
                whisker(root, base.0 + (x0 + x1) / 2, (base.1 + mid + 9, base.1 + mid - 9), 4, MUTED)?;
            }
            Mark::Whisker => {
                let base = side.get_base_pixel();
                whisker(root, base.0 + (x0 + x1) / 2, (base.1 + mid + 9, base.1 + mid - 9), 5, INK)?;
            }
        }
        draw_lines(side, lines, &label(size), (x1 + 8, y + step / 2))?;
        y += rows + 12;
    }
    Ok(())
}

/// A number for an axis: no trailing zeros, never "-0".
pub(super) fn number(v: f64) -> String {
    if v.abs() < 1e-12 {
        return "0".into();
    }
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A probability for an axis: "40%", "2.5%".
pub(super) fn axis_percent(v: f64) -> String {
    format!("{}%", number(v * 100.0))
}

/// A difference of probabilities in percentage points, signed: "+12.5 pp", "0", "−3 pp".
pub(super) fn points(v: f64) -> String {
    let pp = v * 100.0;
    if pp.abs() < 5e-4 {
        return "0".into();
    }
    let sign = if pp > 0.0 { "+" } else { "\u{2212}" };
    format!("{sign}{} pp", number(pp.abs()))
}

/// A difference of probabilities with two decimals of a percentage point: "+12.48 pp".
pub(super) fn points_precise(v: f64) -> String {
    let pp = v * 100.0;
    let sign = if pp > 0.005 {
        "+"
    } else if pp < -0.005 {
        "\u{2212}"
    } else {
        ""
    };
    format!("{sign}{:.2} pp", pp.abs())
}

/// The plotting width of a chart on `plot` built with the margins and y label area all
/// bar charts here use, divided among `span` slots.
pub(super) fn slot_width<DB: DrawingBackend>(plot: &Area<DB>, span: f64) -> u32 {
    let inner = plot.dim_in_pixel().0.saturating_sub(12 + 24 + 76);
    (f64::from(inner) / span.max(1.0)).floor() as u32
}

/// How a chart's category labels are set: all the same way, so they read as one row.
pub(super) struct LabelPlan {
    /// Per label, per line of it: the physical lines it is wrapped into.
    lines: Vec<Vec<Vec<String>>>,
    /// The first line's size (later lines, the notes, are two pixels smaller).
    size: f64,
    /// Whether the labels are turned to read upwards.
    rotated: bool,
    /// The height they take under the axis, in pixels.
    pub height: u32,
}

/// Plans `labels` (per category: a name, then any notes) under slots `slot` pixels wide:
/// flat, each line wrapped at spaces onto at most two, at the largest size from 16 down
/// to 12 at which all fit; otherwise turned to read upwards, a line per column, as large as the
/// slot allows (nothing is ever cut short: at the smallest size they may touch).
pub(super) fn plan_labels<DB: DrawingBackend>(
    root: &Area<DB>,
    labels: &[Vec<String>],
    slot: u32,
) -> Result<LabelPlan, Failure<DB>> {
    let room = slot.saturating_sub(6);
    let style = |size: f64, k: usize| text(if k == 0 { size } else { size - 2.0 }, INK, HPos::Center, VPos::Top);
    let mut size = LABEL_SIZES.0;
    'sizes: while size >= LABEL_SIZES.1 {
        let mut lines = Vec::new();
        let mut height = 0;
        for label in labels {
            let mut wrapped = Vec::new();
            let mut h = 0;
            for (k, line) in label.iter().enumerate() {
                let st = style(size, k);
                let w = wrap(root, line, room, &st)?;
                // Two lines at most, and never a word broken between characters.
                let whole = w.join(" ") == line.split_whitespace().collect::<Vec<_>>().join(" ");
                if w.len() > 2 || !whole {
                    size -= 2.0;
                    continue 'sizes;
                }
                h += w.len() as i32 * line_height(st.font.get_size());
                wrapped.push(w);
            }
            height = height.max(h);
            lines.push(wrapped);
        }
        return Ok(LabelPlan { lines, size, rotated: false, height: 8 + height as u32 });
    }
    let columns = labels.iter().map(Vec::len).max().unwrap_or(1) as u32;
    let mut size = NOTE_SIZES.0;
    while size > NOTE_SIZES.1 && columns * line_height(size) as u32 > slot {
        size -= 2.0;
    }
    let mut longest = 0;
    for label in labels {
        for (k, line) in label.iter().enumerate() {
            longest = longest.max(width_of(root, line, &style(size, k))?);
        }
    }
    let lines = labels.iter().map(|l| l.iter().map(|line| vec![line.clone()]).collect()).collect();
    Ok(LabelPlan { lines, size, rotated: true, height: 12 + longest })
}

/// Writes the planned labels under the plot, each centred on its pixel `(x, y)`: the
/// name dark, notes muted and smaller.
pub(super) fn draw_labels<DB: DrawingBackend>(root: &Area<DB>, plan: &LabelPlan, at: &[(i32, i32)]) -> Drawn<DB> {
    for ((x, y), label) in at.iter().zip(&plan.lines) {
        let mut top = y + 8;
        let step = line_height(plan.size);
        let left = x - step * (label.len() as i32 - 1) / 2;
        for (k, lines) in label.iter().enumerate() {
            let (size, c) = if k == 0 { (plan.size, INK) } else { (plan.size - 2.0, MUTED) };
            if plan.rotated {
                let style = text(size, c, HPos::Right, VPos::Center).transform(FontTransform::Rotate270);
                root.draw_text(&lines[0], &style, (left + step * k as i32, y + 8))?;
            } else {
                let style = text(size, c, HPos::Center, VPos::Top);
                draw_lines(root, lines, &style, (*x, top))?;
                top += lines.len() as i32 * line_height(size);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_eight_looks_differ_in_marker_and_in_dash_as_well_as_colour() {
        let looks: Vec<Look> = (0..8).map(look).collect();
        for (i, a) in looks.iter().enumerate() {
            for b in &looks[i + 1..] {
                assert_ne!(a.marker, b.marker);
                assert_ne!(a.dash, b.dash);
                assert_ne!(a.colour, b.colour);
            }
        }
        // Beyond eight the pairs still differ: series 8 has series 0's marker but not its dash.
        assert_eq!(look(8).marker, look(0).marker);
        assert_ne!(look(8).dash, look(0).dash);
    }

    #[test]
    fn dashes_keep_their_pattern_across_corners() {
        // Pattern 4 on, 3 off along 10 px right then 10 px down (20 px): on 0..4, off
        // 4..7, on 7..11 (round the corner: 7..10 right, then 1 px down), off 11..14,
        // on 14..18 (4..8 px down), off 18..20.
        let runs = dashes(&[(0, 0), (10, 0), (10, 10)], &[4.0, 3.0]);
        assert_eq!(runs, vec![vec![(0, 0), (4, 0)], vec![(7, 0), (10, 0), (10, 1)], vec![(10, 4), (10, 8)]]);
        // Solid is the whole line.
        assert_eq!(dashes(&[(0, 0), (10, 0)], &[]), vec![vec![(0, 0), (10, 0)]]);
    }

    #[test]
    fn differences_read_in_signed_percentage_points() {
        assert_eq!(points(0.125), "+12.5 pp");
        assert_eq!(points(-0.03), "\u{2212}3 pp");
        assert_eq!(points(0.0), "0");
        assert_eq!(points_precise(0.12480), "+12.48 pp");
        assert_eq!(points_precise(-0.0004), "\u{2212}0.04 pp");
    }
}
