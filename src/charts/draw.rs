//! The drawings behind the chart functions, generic over plotters' backends so one
//! drawing makes the PNG and the SVG. Every chart shares one frame: a title that
//! shrinks to fit, the plot, a legend panel on the right when colours stand for
//! something (so it never hides data), and the footer.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{Chart, Footer, Point, Series, percent};

/// A drawing area with pixel coordinates.
type Area<DB> = DrawingArea<DB, Shift>;
/// A backend's drawing error.
type Failure<DB> = DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>;
/// What drawing a chart gives.
pub(super) type Drawn<DB> = Result<(), Failure<DB>>;

const FONT: &str = "sans-serif";
const INK: RGBColor = RGBColor(33, 33, 33);
const MUTED: RGBColor = RGBColor(90, 90, 90);
const GRID: RGBColor = RGBColor(222, 222, 222);
/// Bins outside a histogram's numbered scale (`undecided`, `none`).
const APART: RGBColor = RGBColor(160, 160, 160);

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
const AXIS_SIZE: f64 = 18.0;
const TICK_SIZE: f64 = 16.0;
const LABEL_SIZES: (f64, f64) = (16.0, 10.0);
const NOTE_SIZES: (f64, f64) = (14.0, 10.0);
const VALUE_SIZE: f64 = 12.0;

const TITLE_HEIGHT: u32 = 56;
const FOOTER_HEIGHT: u32 = 30;
const PAD: i32 = 16;

/// The `i`th colour: the palette, then hues a golden angle apart in two lightnesses.
fn colour(i: usize) -> RGBColor {
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
fn contrast(c: RGBColor) -> RGBColor {
    let luma = 0.299 * f64::from(c.0) + 0.587 * f64::from(c.1) + 0.114 * f64::from(c.2);
    if luma > 150.0 { INK } else { WHITE }
}

fn text(size: f64, c: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    (FONT, size).into_font().color(&c).pos(Pos::new(h, v))
}

fn bold(size: f64, c: RGBColor, h: HPos, v: VPos) -> TextStyle<'static> {
    FontDesc::from((FONT, size, FontStyle::Bold)).color(&c).pos(Pos::new(h, v))
}

/// `s` at the largest even size from `max` down to `min` at which it is at most
/// `width` pixels wide, cut short with an ellipsis if even `min` is too wide.
fn fit<DB: DrawingBackend>(
    area: &Area<DB>,
    s: &str,
    width: u32,
    (max, min): (f64, f64),
    style: impl Fn(f64) -> TextStyle<'static>,
) -> Result<(String, TextStyle<'static>), Failure<DB>> {
    let mut size = max;
    loop {
        let st = style(size);
        if area.estimate_text_size(s, &st)?.0 <= width {
            return Ok((s.to_string(), st));
        }
        if size - 2.0 < min {
            break;
        }
        size -= 2.0;
    }
    let st = style(min);
    let chars: Vec<char> = s.chars().collect();
    for keep in (1..chars.len()).rev() {
        let cut = format!("{}…", chars[..keep].iter().collect::<String>().trim_end());
        if area.estimate_text_size(&cut, &st)?.0 <= width {
            return Ok((cut, st));
        }
    }
    Ok(("…".into(), st))
}

/// How a legend row marks its entry.
enum Mark {
    /// A filled square (a bar or segment colour).
    Swatch(RGBColor),
    /// A line over its translucent band.
    Line(RGBColor),
    /// A grey translucent band: the intervals.
    Band,
}

/// Title, footer and (for a non-empty `legend`) the legend panel; returns the plot's area.
fn frame<DB: DrawingBackend>(
    root: &Area<DB>,
    title: &str,
    footer: &Footer,
    legend: &[(String, Mark)],
) -> Result<Area<DB>, Failure<DB>> {
    root.fill(&WHITE)?;
    let (w, h) = root.dim_in_pixel();
    let inner = w.saturating_sub(2 * PAD as u32);
    let (top, rest) = root.split_vertically(TITLE_HEIGHT);
    let (title, style) = fit(root, title, inner, TITLE_SIZES, |s| bold(s, INK, HPos::Center, VPos::Center))?;
    top.draw_text(&title, &style, (w as i32 / 2, TITLE_HEIGHT as i32 / 2))?;
    let (body, foot) = rest.split_vertically(h.saturating_sub(TITLE_HEIGHT + FOOTER_HEIGHT));
    foot.draw(&PathElement::new(vec![(PAD, 0), (w as i32 - PAD, 0)], GRID.stroke_width(1)))?;
    let (line, style) = fit(root, &footer.0, inner, NOTE_SIZES, |s| text(s, MUTED, HPos::Left, VPos::Center))?;
    foot.draw_text(&line, &style, (PAD, FOOTER_HEIGHT as i32 / 2))?;
    if legend.is_empty() {
        return Ok(body);
    }
    // As wide as the longest label, between a seventh and a third of the chart.
    let label = |s: f64| text(s, INK, HPos::Left, VPos::Center);
    let widest = legend
        .iter()
        .map(|(l, _)| root.estimate_text_size(l, &label(LABEL_SIZES.0)).map(|s| s.0))
        .try_fold(0, |a, b| -> Result<u32, Failure<DB>> { Ok(a.max(b?)) })?;
    let width = (widest + 44 + PAD as u32).clamp(w / 7, w / 3);
    let (plot, side) = body.split_horizontally(w - width);
    let (_, side_h) = side.dim_in_pixel();
    let row = (side_h.saturating_sub(40) / legend.len() as u32).clamp(12, 28) as i32;
    for (k, (name, mark)) in legend.iter().enumerate() {
        let y = 24 + row / 2 + k as i32 * row;
        let half = (row / 2 - 3).clamp(4, 8);
        let swatch = [(8, y - half), (8 + 2 * half + 4, y + half)];
        match mark {
            Mark::Swatch(c) => side.draw(&Rectangle::new(swatch, c.filled()))?,
            Mark::Line(c) => {
                side.draw(&Rectangle::new(swatch, c.mix(0.2).filled()))?;
                side.draw(&PathElement::new(vec![(8, y), (8 + 2 * half + 4, y)], c.stroke_width(3)))?;
            }
            Mark::Band => side.draw(&Rectangle::new(swatch, INK.mix(0.15).filled()))?,
        }
        let room = width.saturating_sub(44 + PAD as u32 / 2);
        let (name, style) = fit(root, name, room, LABEL_SIZES, label)?;
        side.draw_text(&name, &style, (36, y))?;
    }
    Ok(plot)
}

/// A number for an axis: no trailing zeros, never "-0".
fn number(v: f64) -> String {
    if v.abs() < 1e-12 {
        return "0".into();
    }
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// A probability for an axis: "40%", "2.5%".
fn axis_percent(v: f64) -> String {
    format!("{}%", number(v * 100.0))
}

/// Writes each `(centre, lines)` under the plot at pixel `centre`, each line fitted to
/// `slot` pixels: the first line dark, any second line muted and smaller.
fn category_labels<DB: DrawingBackend>(root: &Area<DB>, labels: &[((i32, i32), Vec<String>)], slot: u32) -> Drawn<DB> {
    for ((x, y), lines) in labels {
        for (k, line) in lines.iter().enumerate() {
            let (size, c) = if k == 0 { (LABEL_SIZES, INK) } else { (NOTE_SIZES, MUTED) };
            let (line, style) = fit(root, line, slot, size, |s| text(s, c, HPos::Center, VPos::Top))?;
            root.draw_text(&line, &style, (*x, y + 8 + 20 * k as i32))?;
        }
    }
    Ok(())
}

/// Kill probability against range: lines over translucent interval bands.
pub(super) struct Lines<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub series: &'a [Series],
    pub footer: &'a Footer,
}

impl Chart for Lines<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Drawn<DB> {
        let mut legend: Vec<(String, Mark)> =
            self.series.iter().enumerate().map(|(i, s)| (s.label.clone(), Mark::Line(colour(i)))).collect();
        legend.push(("95% interval".into(), Mark::Band));
        let plot = frame(root, self.title, self.footer, &legend)?;

        let xs = self.series.iter().flat_map(|s| s.points.iter().map(|p| p.x));
        let (mut lo, mut hi) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
        if lo == hi {
            (lo, hi) = (lo - 1.0, hi + 1.0);
        }
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .margin_right(24)
            .x_label_area_size(56)
            .y_label_area_size(76)
            .build_cartesian_2d(lo..hi, 0.0..1.0)?;
        chart
            .configure_mesh()
            .x_desc(self.x_label)
            .y_desc("kill probability")
            .x_label_formatter(&|v| number(*v))
            .y_label_formatter(&|v| axis_percent(*v))
            .axis_desc_style((FONT, AXIS_SIZE).into_font().color(&INK))
            .label_style((FONT, TICK_SIZE).into_font().color(&INK))
            .bold_line_style(GRID)
            .max_light_lines(0)
            .draw()?;

        let sorted: Vec<Vec<Point>> = self
            .series
            .iter()
            .map(|s| {
                let mut points = s.points.clone();
                points.sort_by(|a, b| a.x.total_cmp(&b.x));
                points
            })
            .collect();
        // Every band first, so no band veils another series' line.
        for (i, points) in sorted.iter().enumerate() {
            let c = colour(i);
            if let [only] = points.as_slice() {
                let whisker = vec![(only.x, only.low), (only.x, only.high)];
                chart.draw_series(std::iter::once(PathElement::new(whisker, c.mix(0.5).stroke_width(6))))?;
                continue;
            }
            let band: Vec<(f64, f64)> =
                points.iter().map(|p| (p.x, p.high)).chain(points.iter().rev().map(|p| (p.x, p.low))).collect();
            chart.draw_series(std::iter::once(Polygon::new(band, c.mix(0.2).filled())))?;
        }
        for (i, points) in sorted.iter().enumerate() {
            let c = colour(i);
            chart.draw_series(LineSeries::new(points.iter().map(|p| (p.x, p.p)), c.stroke_width(3)))?;
            chart.draw_series(points.iter().map(|p| Circle::new((p.x, p.p), 4, c.filled())))?;
        }
        Ok(())
    }
}

/// Outcome distributions as stacked bars.
pub(super) struct Stacked<'a> {
    pub title: &'a str,
    pub bars: &'a [(String, Vec<(String, f64)>)],
    pub footer: &'a Footer,
}

impl Chart for Stacked<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Drawn<DB> {
        // Each outcome keeps one colour in every bar, in order of first appearance.
        let mut outcomes: Vec<&str> = Vec::new();
        for (_, segments) in self.bars {
            for (o, _) in segments {
                if !outcomes.contains(&o.as_str()) {
                    outcomes.push(o);
                }
            }
        }
        let index = |o: &str| outcomes.iter().position(|k| *k == o).unwrap_or(0);
        let legend: Vec<(String, Mark)> =
            outcomes.iter().enumerate().map(|(i, o)| (o.to_string(), Mark::Swatch(colour(i)))).collect();
        let plot = frame(root, self.title, self.footer, &legend)?;

        let n = self.bars.len() as f64;
        // At least three slots wide, so one or two bars do not fill the chart.
        let pad = (n.max(3.0) - n) / 2.0;
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .margin_right(24)
            .x_label_area_size(44)
            .y_label_area_size(76)
            .build_cartesian_2d(-pad..n + pad, 0.0..1.0)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_desc("probability")
            .y_label_formatter(&|v| axis_percent(*v))
            .axis_desc_style((FONT, AXIS_SIZE).into_font().color(&INK))
            .label_style((FONT, TICK_SIZE).into_font().color(&INK))
            .bold_line_style(GRID)
            .max_light_lines(0)
            .draw()?;

        let slot = (chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0).max(1) as u32;
        let mut labels = Vec::new();
        for (i, (label, segments)) in self.bars.iter().enumerate() {
            let (x0, x1) = (i as f64 + 0.2, i as f64 + 0.8);
            let mut base = 0.0;
            for (outcome, p) in segments {
                let c = colour(index(outcome));
                let top = (base + p).min(1.0);
                chart.draw_series(std::iter::once(Rectangle::new([(x0, base), (x1, top)], c.filled())))?;
                chart.draw_series(std::iter::once(Rectangle::new([(x0, base), (x1, top)], WHITE.stroke_width(1))))?;
                let (left, low) = chart.backend_coord(&(x0, base));
                let (right, high) = chart.backend_coord(&(x1, top));
                let share = percent(*p);
                let style = text(NOTE_SIZES.0, contrast(c), HPos::Center, VPos::Center);
                let (tw, _) = root.estimate_text_size(&share, &style)?;
                if low - high >= 18 && tw + 6 <= (right - left) as u32 {
                    root.draw_text(&share, &style, ((left + right) / 2, (low + high) / 2))?;
                }
                base = top;
            }
            labels.push((chart.backend_coord(&(i as f64 + 0.5, 0.0)), vec![label.clone()]));
        }
        category_labels(root, &labels, slot.saturating_sub(4))
    }
}

/// Bars with their intervals as error bars.
pub(super) struct Bars<'a> {
    pub title: &'a str,
    pub y_label: &'a str,
    pub bars: &'a [(String, Point)],
    pub footer: &'a Footer,
}

impl Chart for Bars<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Drawn<DB> {
        let plot = frame(root, self.title, self.footer, &[])?;
        let probabilities = self.bars.iter().all(|(_, p)| p.low >= 0.0 && p.high <= 1.0);
        let (lo, hi) = if probabilities {
            (0.0, 1.0)
        } else {
            let lo = self.bars.iter().map(|(_, p)| p.low).fold(0.0, f64::min);
            let hi = self.bars.iter().map(|(_, p)| p.high).fold(f64::NEG_INFINITY, f64::max);
            let hi = if hi > lo { hi + 0.1 * (hi - lo) } else { lo + 1.0 };
            (lo, hi)
        };
        let show = |v: f64| if probabilities { percent(v) } else { number(v) };
        let n = self.bars.len() as f64;
        let pad = (n.max(3.0) - n) / 2.0;
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .margin_right(24)
            .x_label_area_size(64)
            .y_label_area_size(76)
            .build_cartesian_2d(-pad..n + pad, lo..hi)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .y_desc(self.y_label)
            .y_label_formatter(&|v| if probabilities { axis_percent(*v) } else { number(*v) })
            .axis_desc_style((FONT, AXIS_SIZE).into_font().color(&INK))
            .label_style((FONT, TICK_SIZE).into_font().color(&INK))
            .bold_line_style(GRID)
            .max_light_lines(0)
            .draw()?;

        let slot = (chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0).max(1) as u32;
        let mut labels = Vec::new();
        for (i, (label, p)) in self.bars.iter().enumerate() {
            let (x0, x1, mid) = (i as f64 + 0.22, i as f64 + 0.78, i as f64 + 0.5);
            let c = colour(i);
            chart.draw_series(std::iter::once(Rectangle::new([(x0, lo.max(0.0).min(p.p)), (x1, p.p)], c.filled())))?;
            let whisker = INK.stroke_width(2);
            let (cap0, cap1) = (mid - 0.08, mid + 0.08);
            chart.draw_series([
                PathElement::new(vec![(mid, p.low), (mid, p.high)], whisker),
                PathElement::new(vec![(cap0, p.low), (cap1, p.low)], whisker),
                PathElement::new(vec![(cap0, p.high), (cap1, p.high)], whisker),
            ])?;
            let value = format!("{} ({} to {})", show(p.p), show(p.low), show(p.high));
            labels.push((chart.backend_coord(&(mid, lo)), vec![label.clone(), value]));
        }
        category_labels(root, &labels, slot.saturating_sub(4))
    }
}

/// Shares of trials per bin.
pub(super) struct Histogram<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub bins: &'a [(String, f64)],
    pub footer: &'a Footer,
}

impl Chart for Histogram<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Drawn<DB> {
        let plot = frame(root, self.title, self.footer, &[])?;
        let most = self.bins.iter().map(|(_, p)| *p).fold(0.0, f64::max);
        let top = if most > 0.0 { (most * 1.15).min(1.0) } else { 1.0 };
        let n = self.bins.len() as f64;
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .margin_right(24)
            .x_label_area_size(60)
            .y_label_area_size(76)
            .build_cartesian_2d(0.0..n, 0.0..top)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(0)
            .x_desc(self.x_label)
            .y_desc("share of trials")
            .y_label_formatter(&|v| axis_percent(*v))
            .axis_desc_style((FONT, AXIS_SIZE).into_font().color(&INK))
            .label_style((FONT, TICK_SIZE).into_font().color(&INK))
            .bold_line_style(GRID)
            .max_light_lines(0)
            .draw()?;

        let slot = (chart.backend_coord(&(1.0, 0.0)).0 - chart.backend_coord(&(0.0, 0.0)).0).max(1) as u32;
        let plot_top = chart.backend_coord(&(0.0, top)).1;
        let mut labels = Vec::new();
        for (i, (label, p)) in self.bins.iter().enumerate() {
            let numbered = label.trim().parse::<f64>().is_ok();
            let c = if numbered { colour(0) } else { APART };
            let (x0, x1) = (i as f64 + 0.04, i as f64 + 0.96);
            chart.draw_series(std::iter::once(Rectangle::new([(x0, 0.0), (x1, *p)], c.filled())))?;
            let (x, y) = chart.backend_coord(&(i as f64 + 0.5, *p));
            let share = percent(*p);
            // Above the bar, or inside its top when the bar reaches the top of the plot.
            let (style, at) = match y - 18 >= plot_top {
                true => (text(VALUE_SIZE, INK, HPos::Center, VPos::Bottom), (x, y - 3)),
                false => (text(VALUE_SIZE, contrast(c), HPos::Center, VPos::Top), (x, y + 3)),
            };
            if *p > 0.0 && root.estimate_text_size(&share, &style)?.0 + 2 <= slot {
                root.draw_text(&share, &style, at)?;
            }
            labels.push((chart.backend_coord(&(i as f64 + 0.5, 0.0)), vec![label.clone()]));
        }
        category_labels(root, &labels, slot.saturating_sub(2))
    }
}
