//! Step lines: probabilities (or differences of them) measured at chosen `x` (ranges,
//! turns) and held from each measured `x` to the next, with their intervals as bands
//! that step with the line and as whiskers at the measured points. Series read apart
//! by colour, marker and dash together; many series split into a grid of panels that
//! share their axes.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::draw::{
    AXIS_SIZE, Area, Drawn, GRID, INK, Look, Mark, PAD, TICK_SIZE, axis_percent, bold, dashed_line, draw_legend, frame,
    look, marker, number, points, text, whisker,
};
use super::{Chart, Footer, PANELS_ABOVE, Panel, Point};

/// What the y axis holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scale {
    /// Probabilities, 0..1, read as percentages.
    Probability,
    /// Differences of probabilities, signed, read in percentage points, with a line at zero.
    Difference,
}

/// Step lines in one plot, or in a grid of panels when there are many.
pub(super) struct Steps<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub panels: &'a [Panel],
    pub scale: Scale,
    /// Written in the plot's corner away from the line (one plot only).
    pub note: Option<&'a str>,
    pub footer: &'a Footer,
}

/// A series ready to draw: its look and its points sorted by `x`.
type Line = (Look, Vec<Point>);

/// How one plot of the chart is set out.
struct Axes<'a> {
    /// The panel's title above it.
    caption: Option<&'a str>,
    /// Whether the x (y) tick labels are written: only along the grid's outer edges.
    x_ticks: bool,
    y_ticks: bool,
    /// Axis descriptions, for a lone plot (a grid writes them once for all panels).
    x_desc: Option<&'a str>,
    y_desc: Option<&'a str>,
    /// Small margins and label areas, for a panel of a grid.
    compact: bool,
}

impl Chart for Steps<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Drawn<DB> {
        let used: Vec<&Panel> = self.panels.iter().filter(|p| !p.series.is_empty()).collect();
        let total: usize = used.iter().map(|p| p.series.len()).sum();
        let intervals = used.iter().flat_map(|p| &p.series).flat_map(|s| &s.points).any(|p| p.high > p.low);
        if total <= PANELS_ABOVE || used.len() == 1 {
            return self.one_plot(root, &used, intervals);
        }
        // A look per distinct label, kept in every panel, so the legend names each once.
        let mut labels: Vec<&str> = Vec::new();
        for s in used.iter().flat_map(|p| &p.series) {
            if !labels.contains(&s.label.as_str()) {
                labels.push(&s.label);
            }
        }
        let mut legend: Vec<(String, Mark)> =
            labels.iter().enumerate().map(|(i, l)| (l.to_string(), Mark::Series(look(i)))).collect();
        if intervals {
            legend.push(("95% interval".into(), Mark::Band));
        }
        let n = used.len();
        let cols = (1..=n).find(|c| c * c >= n).unwrap_or(n);
        let rows = n.div_ceil(cols);
        // A grid with a cell to spare holds the legend there, and the plots take the width.
        let spare = rows * cols > n;
        let plot = frame(root, self.title, self.footer, if spare { &[] } else { &legend })?;
        let (w, h) = plot.dim_in_pixel();
        let (left, rest) = plot.split_horizontally(30);
        let (cells, bottom) = rest.split_vertically(h.saturating_sub(34));
        let desc = text(AXIS_SIZE, INK, HPos::Center, VPos::Center);
        left.draw_text(self.y_label, &desc.transform(FontTransform::Rotate270), (15, h as i32 / 2))?;
        bottom.draw_text(self.x_label, &desc, ((w as i32 - 30) / 2, 17))?;
        let cells = cells.split_evenly((rows, cols));
        for (k, panel) in used.iter().enumerate() {
            let lines: Vec<Line> = panel
                .series
                .iter()
                .map(|s| (look(labels.iter().position(|l| *l == s.label).unwrap_or(0)), sorted(&s.points)))
                .collect();
            let axes = Axes {
                caption: Some(&panel.title),
                x_ticks: k + cols >= n,
                y_ticks: k % cols == 0,
                x_desc: None,
                y_desc: None,
                compact: true,
            };
            self.plot(root, &cells[k], &lines, &axes)?;
        }
        if spare {
            draw_legend(root, &cells[n], &legend)?;
        }
        Ok(())
    }
}

impl Steps<'_> {
    /// Every series in one plot with the legend beside it; series of several panels are
    /// named "label (panel)".
    fn one_plot<DB: DrawingBackend>(&self, root: &Area<DB>, used: &[&Panel], intervals: bool) -> Drawn<DB> {
        let named = used.len() > 1;
        let mut legend = Vec::new();
        let mut lines = Vec::new();
        for (i, (panel, s)) in used.iter().flat_map(|p| p.series.iter().map(move |s| (p, s))).enumerate() {
            let label = match named && !panel.title.is_empty() {
                true => format!("{} ({})", s.label, panel.title),
                false => s.label.clone(),
            };
            legend.push((label, Mark::Series(look(i))));
            lines.push((look(i), sorted(&s.points)));
        }
        if intervals {
            legend.push(("95% interval".into(), Mark::Band));
        }
        let plot = frame(root, self.title, self.footer, &legend)?;
        let axes = Axes {
            caption: None,
            x_ticks: true,
            y_ticks: true,
            x_desc: Some(self.x_label),
            y_desc: Some(self.y_label),
            compact: false,
        };
        self.plot(root, &plot, &lines, &axes)
    }

    /// The x and y ranges every plot shares: the measured `x` with a little room either
    /// side; 0..1 for probabilities, the values and zero with room for differences.
    fn ranges(&self) -> ((f64, f64), (f64, f64)) {
        let all = || self.panels.iter().flat_map(|p| &p.series).flat_map(|s| &s.points);
        let (lo, hi) = all().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), p| (a.min(p.x), b.max(p.x)));
        let x = if lo == hi { (lo - 1.0, hi + 1.0) } else { (lo - 0.03 * (hi - lo), hi + 0.03 * (hi - lo)) };
        let y = match self.scale {
            Scale::Probability => (0.0, 1.0),
            Scale::Difference => {
                let (lo, hi) = all().fold((0.0_f64, 0.0_f64), |(a, b), p| (a.min(p.low), b.max(p.high)));
                let span = if hi > lo { hi - lo } else { 0.1 };
                (lo - 0.08 * span, hi + 0.08 * span)
            }
        };
        (x, y)
    }

    /// Draws one plot of `lines` into `area`: axes, bands, step lines, whiskers, markers
    /// and (for a lone plot) the note.
    fn plot<DB: DrawingBackend>(&self, root: &Area<DB>, area: &Area<DB>, lines: &[Line], axes: &Axes) -> Drawn<DB> {
        let area = match axes.caption {
            Some(caption) => {
                let (head, rest) = area.split_vertically(26);
                let w = head.dim_in_pixel().0 as i32;
                head.draw_text(caption, &bold(TICK_SIZE, INK, HPos::Center, VPos::Center), (w / 2 + 28, 14))?;
                rest
            }
            None => area.clone(),
        };
        let ((x0, x1), (y0, y1)) = self.ranges();
        let (w, h) = area.dim_in_pixel();
        let mut builder = ChartBuilder::on(&area);
        match axes.compact {
            true => builder.margin(6).margin_right(14).x_label_area_size(30).y_label_area_size(64),
            false => builder.margin(12).margin_right(24).x_label_area_size(56).y_label_area_size(76),
        };
        let mut chart = builder.build_cartesian_2d(x0..x1, y0..y1)?;
        let whole = self.panels.iter().flat_map(|p| &p.series).flat_map(|s| &s.points).all(|p| p.x.fract() == 0.0);
        let x_format = |v: &f64| match axes.x_ticks && !(whole && v.fract() != 0.0) {
            true => number(*v),
            false => String::new(),
        };
        let y_format = |v: &f64| match (axes.y_ticks, self.scale) {
            (false, _) => String::new(),
            (true, Scale::Probability) => axis_percent(*v),
            (true, Scale::Difference) => points(*v),
        };
        let tick_size = if axes.compact { TICK_SIZE - 2.0 } else { TICK_SIZE };
        let mut mesh = chart.configure_mesh();
        mesh.x_labels((w / 90).clamp(3, 12) as usize)
            .y_labels((h / 44).clamp(5, 11) as usize)
            .x_label_formatter(&x_format)
            .y_label_formatter(&y_format)
            .axis_desc_style((super::draw::FONT, AXIS_SIZE).into_font().color(&INK))
            .label_style((super::draw::FONT, tick_size).into_font().color(&INK))
            .bold_line_style(GRID)
            .max_light_lines(0);
        if let Some(d) = axes.x_desc {
            mesh.x_desc(d);
        }
        if let Some(d) = axes.y_desc {
            mesh.y_desc(d);
        }
        mesh.draw()?;

        if self.scale == Scale::Difference {
            chart.draw_series(std::iter::once(PathElement::new(vec![(x0, 0.0), (x1, 0.0)], INK.stroke_width(1))))?;
        }
        // Every band first, so no band veils another series' line.
        for (look, points) in lines {
            if points.len() > 1 && points.iter().any(|p| p.high > p.low) {
                let upper = steps(points, |p| p.high);
                let lower = steps(points, |p| p.low);
                let band: Vec<(f64, f64)> = upper.into_iter().chain(lower.into_iter().rev()).collect();
                chart.draw_series(std::iter::once(Polygon::new(band, look.colour.mix(0.15).filled())))?;
            }
        }
        let px = |x: f64, y: f64| chart.backend_coord(&(x, y));
        for (look, points) in lines {
            let path: Vec<(i32, i32)> = steps(points, |p| p.p).into_iter().map(|(x, y)| px(x, y)).collect();
            dashed_line(root, &path, look, 3)?;
        }
        for (look, points) in lines {
            for p in points {
                let (x, low) = px(p.x, p.low);
                whisker(root, x, (low, px(p.x, p.high).1), 4, look.colour)?;
            }
        }
        for (look, points) in lines {
            // Smaller where the points crowd, so neighbours stay apart.
            let gap = points.windows(2).map(|w| px(w[1].x, 0.0).0 - px(w[0].x, 0.0).0).min().unwrap_or(20);
            let r = (gap / 3).clamp(2, 5);
            for p in points {
                marker(root, look, px(p.x, p.p), r)?;
            }
        }
        if let (Some(note), Some((last, _))) = (self.note, lines.first().and_then(|(_, p)| p.split_last())) {
            self.note(root, &chart.plotting_area().strip_coord_spec(), note, last.p >= 0.3)?;
        }
        Ok(())
    }

    /// Writes `note` on a white ground in the plot's lower right corner, or its upper
    /// right when the line ends low: a cumulative line ends highest at the right, so one
    /// of the two is clear.
    fn note<DB: DrawingBackend>(&self, root: &Area<DB>, plot: &Area<DB>, note: &str, low: bool) -> Drawn<DB> {
        let (x0, y0) = plot.get_base_pixel();
        let (w, h) = plot.dim_in_pixel();
        let style = text(TICK_SIZE, INK, HPos::Right, VPos::Center);
        let (tw, th) = root.estimate_text_size(note, &style)?;
        let right = x0 + w as i32 - PAD;
        let y = if low { y0 + h as i32 - 3 * PAD } else { y0 + 3 * PAD };
        let (half, tw) = (th as i32 / 2 + 5, tw as i32);
        root.draw(&Rectangle::new([(right - tw - 8, y - half), (right + 8, y + half)], WHITE.mix(0.9).filled()))?;
        root.draw(&Rectangle::new([(right - tw - 8, y - half), (right + 8, y + half)], GRID.stroke_width(1)))?;
        root.draw_text(note, &style, (right, y))
    }
}

/// `points` sorted by `x`.
fn sorted(points: &[Point]) -> Vec<Point> {
    let mut points = points.to_vec();
    points.sort_by(|a, b| a.x.total_cmp(&b.x));
    points
}

/// The step path of `value` over sorted `points`: each value held from its `x` to the
/// next point's, then a vertical step to the next value; the last point ends the path.
fn steps(points: &[Point], value: impl Fn(&Point) -> f64) -> Vec<(f64, f64)> {
    let mut path = Vec::with_capacity(2 * points.len());
    for (k, p) in points.iter().enumerate() {
        if k > 0 {
            path.push((p.x, value(&points[k - 1])));
        }
        path.push((p.x, value(p)));
    }
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_holds_each_value_until_the_next_measured_x() {
        let at = |x: f64, p: f64| Point { x, p, low: p, high: p };
        // Measured at 100 m (0.6), 300 m (0.5) and 400 m (0.2): 0.6 is held from 100 to
        // 300 m, where the line steps down to 0.5, held to 400 m, then down to 0.2.
        let path = steps(&sorted(&[at(300.0, 0.5), at(100.0, 0.6), at(400.0, 0.2)]), |p| p.p);
        assert_eq!(path, vec![(100.0, 0.6), (300.0, 0.6), (300.0, 0.5), (400.0, 0.5), (400.0, 0.2)]);
    }
}
