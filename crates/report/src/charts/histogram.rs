//! A histogram: the share of trials in each bin, with its interval.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::draw::{
    APART, Area, Drawn, INK, LABEL_SIZES, VALUE_SIZE, axis_percent, categories, colour, contrast, draw_labels, frame,
    line_height, plan_labels, slot_width, text, whisker, whisker_of, width_of,
};
use super::{Chart, Footer, Point, percent};

/// Shares of trials per bin, with their intervals.
pub(super) struct Histogram<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub bins: &'a [(String, Point)],
    pub footer: &'a Footer,
}

impl Chart for Histogram<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Drawn<DB> {
        let plot = frame(root, self.title, self.footer, &[])?;
        let most = self.bins.iter().map(|(_, p)| p.high).fold(0.0, f64::max);
        let top = if most > 0.0 { (most * 1.15).min(1.0) } else { 1.0 };
        let n = self.bins.len() as f64;
        let slot = slot_width(&plot, n);

        // Numbered bins are a scale: when every number does not fit, every 2nd, 5th,
        // 10th... is written. Other bins (`undecided`) are planned like any category
        // label, so they turn upright rather than lose letters.
        let numbered: Vec<Option<f64>> = self.bins.iter().map(|(l, _)| l.trim().parse::<f64>().ok()).collect();
        let tick = text(LABEL_SIZES.0 - 2.0, INK, HPos::Center, VPos::Top);
        let mut widest = 0;
        for ((label, _), number) in self.bins.iter().zip(&numbered) {
            if number.is_some() {
                widest = widest.max(width_of(root, label, &tick)?);
            }
        }
        let every =
            [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000].into_iter().find(|k| widest + 6 <= k * slot).unwrap_or(u32::MAX);
        let named: Vec<Vec<String>> = self
            .bins
            .iter()
            .zip(&numbered)
            .filter(|(_, number)| number.is_none())
            .map(|((label, _), _)| vec![label.clone()])
            .collect();
        let plan = plan_labels(root, &named, slot)?;
        let height = plan.height.max(8 + line_height(tick.font.get_size()) as u32);

        let y_reads = |v: &f64| axis_percent(*v);
        let y_desc = "share of trials, with 95% intervals";
        let mut chart = categories(&plot, height + 32, (0.0..n, 0.0..top), (Some(self.x_label), y_desc), &y_reads)?;

        let plot_top = chart.backend_coord(&(0.0, top)).1;
        let mut at = Vec::new();
        for (i, ((label, p), number)) in self.bins.iter().zip(&numbered).enumerate() {
            let c = if number.is_some() { colour(0) } else { APART };
            let (x0, x1) = (i as f64 + 0.04, i as f64 + 0.96);
            chart.draw_series(std::iter::once(Rectangle::new([(x0, 0.0), (x1, p.p)], c.filled())))?;
            let (x, low) = chart.backend_coord(&(i as f64 + 0.5, p.low));
            let high = chart.backend_coord(&(i as f64 + 0.5, p.high)).1;
            // Bins too narrow for a capped whisker get a thin one.
            match slot >= 12 {
                true => whisker(root, x, (low, high), ((slot as i32) / 5).clamp(2, 8), INK)?,
                false => whisker_of(root, x, (low, high), 0, INK, 1)?,
            }
            let y = chart.backend_coord(&(i as f64 + 0.5, p.p)).1.min(high);
            let share = percent(p.p);
            // Above the whisker, or inside the bar's top when it reaches the top of the plot.
            let (style, value_at) = match y - 18 >= plot_top {
                true => (text(VALUE_SIZE, INK, HPos::Center, VPos::Bottom), (x, y - 3)),
                false => (text(VALUE_SIZE, contrast(c), HPos::Center, VPos::Top), (x, y + 3)),
            };
            if p.p > 0.0 && width_of(root, &share, &style)? + 2 <= slot {
                root.draw_text(&share, &style, value_at)?;
            }
            let foot = chart.backend_coord(&(i as f64 + 0.5, 0.0));
            match number {
                Some(v) => {
                    let k = v.round() as i64;
                    let shown = every == 1 || (v.fract() == 0.0 && k.rem_euclid(i64::from(every)) == 0);
                    // Nor may a number reach under an unnumbered bin's label.
                    let overhang = (width_of(root, label, &tick)? / 2 + 3).saturating_sub(slot / 2);
                    let reach = overhang.div_ceil(slot.max(1)) as usize;
                    let near = i.saturating_sub(reach)..(i + reach + 1).min(numbered.len());
                    if shown && numbered[near].iter().all(Option::is_some) {
                        root.draw_text(label, &tick, (foot.0, foot.1 + 8))?;
                    }
                }
                None => at.push(foot),
            }
        }
        draw_labels(root, &plan, &at)
    }
}
