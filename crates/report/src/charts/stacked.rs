//! Outcome distributions as stacked bars: one bar per entry, one colour per outcome
//! in every bar, each segment's share written in it where it fits.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::draw::{
    Area, Drawn, INK, Mark, NOTE_SIZES, axis_percent, categories, colour, contrast, draw_labels, frame, plan_labels,
    slot_width, text, whisker,
};
use super::{Chart, Footer, Stack, percent};

/// Outcome distributions as stacked bars.
pub(super) struct Stacked<'a> {
    pub title: &'a str,
    pub bars: &'a [Stack],
    pub footer: &'a Footer,
}

impl Chart for Stacked<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Drawn<DB> {
        // Each outcome keeps one colour in every bar, in order of first appearance.
        let mut outcomes: Vec<&str> = Vec::new();
        for bar in self.bars {
            for (o, _) in &bar.segments {
                if !outcomes.contains(&o.as_str()) {
                    outcomes.push(o);
                }
            }
        }
        let index = |o: &str| outcomes.iter().position(|k| *k == o).unwrap_or(0);
        let mut legend: Vec<(String, Mark)> =
            outcomes.iter().enumerate().map(|(i, o)| (o.to_string(), Mark::Swatch(colour(i)))).collect();
        if self.bars.iter().any(|b| b.tops.iter().any(|(low, high)| high > low)) {
            legend.push(("95% interval of each edge".into(), Mark::Whisker));
        }
        let plot = frame(root, self.title, self.footer, &legend)?;

        let n = self.bars.len() as f64;
        // At least three slots wide, so one or two bars do not fill the chart.
        let pad = (n.max(3.0) - n) / 2.0;
        let labels: Vec<Vec<String>> = self.bars.iter().map(|b| vec![b.label.clone()]).collect();
        let plan = plan_labels(root, &labels, slot_width(&plot, n + 2.0 * pad))?;
        let y_reads = |v: &f64| axis_percent(*v);
        let mut chart = categories(&plot, plan.height + 4, (-pad..n + pad, 0.0..1.0), (None, "probability"), &y_reads)?;

        let mut at = Vec::new();
        for (i, bar) in self.bars.iter().enumerate() {
            let (x0, x1) = (i as f64 + 0.2, i as f64 + 0.8);
            let mut base = 0.0;
            for (outcome, p) in &bar.segments {
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
            // Each edge's whisker a little right of centre, clear of the share written there.
            let (x, cap) = (i as f64 + 0.68, i as f64 + 0.72);
            for &(low, high) in &bar.tops {
                let (px, lo) = chart.backend_coord(&(x, low));
                let hi = chart.backend_coord(&(x, high)).1;
                let c = chart.backend_coord(&(cap, low)).0 - px;
                whisker(root, px, (lo, hi), c.max(3), INK)?;
            }
            at.push(chart.backend_coord(&(i as f64 + 0.5, 0.0)));
        }
        draw_labels(root, &plan, &at)
    }
}
