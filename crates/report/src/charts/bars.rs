//! Bars with their intervals as error bars: probabilities, plain numbers, or signed
//! differences in percentage points.

use plotters::prelude::*;

use super::draw::{
    Area, Drawn, INK, axis_percent, categories, colour, draw_labels, frame, number, plan_labels, points,
    points_precise, slot_width, whisker,
};
use super::{Chart, Footer, Point, percent};

/// How a bar chart's y axis reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BarScale {
    /// Percentages from 0 to 1 when every value is a probability, plain numbers otherwise.
    Auto,
    /// Signed differences of probabilities, in percentage points, with a line at zero.
    Difference,
}

/// Bars with their intervals as error bars.
pub(super) struct Bars<'a> {
    pub title: &'a str,
    pub y_label: &'a str,
    pub bars: &'a [(String, Point)],
    pub scale: BarScale,
    pub footer: &'a Footer,
}

impl Chart for Bars<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Drawn<DB> {
        let plot = frame(root, self.title, self.footer, &[])?;
        let probabilities =
            self.scale == BarScale::Auto && self.bars.iter().all(|(_, p)| p.low >= 0.0 && p.high <= 1.0);
        let (lo, hi) = if probabilities {
            (0.0, 1.0)
        } else {
            let lo = self.bars.iter().map(|(_, p)| p.low).fold(0.0, f64::min);
            let hi = self.bars.iter().map(|(_, p)| p.high).fold(0.0, f64::max);
            let span = if hi > lo { hi - lo } else { 1.0 };
            (if lo < 0.0 { lo - 0.1 * span } else { lo }, hi + 0.1 * span)
        };
        let show = |v: f64| match (probabilities, self.scale) {
            (true, _) => percent(v),
            (false, BarScale::Difference) => points_precise(v),
            (false, BarScale::Auto) => number(v),
        };
        let n = self.bars.len() as f64;
        let pad = (n.max(3.0) - n) / 2.0;
        let labels: Vec<Vec<String>> = self
            .bars
            .iter()
            .map(|(label, p)| vec![label.clone(), format!("{} ({} to {})", show(p.p), show(p.low), show(p.high))])
            .collect();
        let plan = plan_labels(root, &labels, slot_width(&plot, n + 2.0 * pad))?;
        let y_reads = |v: &f64| match (probabilities, self.scale) {
            (true, _) => axis_percent(*v),
            (false, BarScale::Difference) => points(*v),
            (false, BarScale::Auto) => number(*v),
        };
        let mut chart = categories(&plot, plan.height + 4, (-pad..n + pad, lo..hi), (None, self.y_label), &y_reads)?;

        // Bars stand on zero (or on the axis's foot when it is above zero).
        let base = 0.0_f64.clamp(lo, hi);
        if lo < 0.0 {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(-pad, 0.0), (n + pad, 0.0)],
                INK.stroke_width(1),
            )))?;
        }
        let mut at = Vec::new();
        for (i, (_, p)) in self.bars.iter().enumerate() {
            let (x0, x1, mid) = (i as f64 + 0.22, i as f64 + 0.78, i as f64 + 0.5);
            chart.draw_series(std::iter::once(Rectangle::new([(x0, base), (x1, p.p)], colour(i).filled())))?;
            let (x, low) = chart.backend_coord(&(mid, p.low));
            let high = chart.backend_coord(&(mid, p.high)).1;
            let cap = chart.backend_coord(&(mid + 0.08, p.low)).0 - x;
            whisker(root, x, (low, high), cap.max(3), INK)?;
            at.push(chart.backend_coord(&(mid, lo)));
        }
        draw_labels(root, &plan, &at)
    }
}
