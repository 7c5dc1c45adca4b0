//! A heat map: one probability per cell of a two-parameter grid, coloured from white
//! (0) to deep blue (1) and written in the cell, so the surface reads at a glance and
//! every number can still be read off.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::Chart;
use super::draw::{AXIS_SIZE, Area, Drawn, FONT, GRID, INK, TICK_SIZE, bold, contrast, frame};
use super::{Footer, percent};

pub(super) struct Heat<'a> {
    pub title: &'a str,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub columns: &'a [String],
    pub rows: &'a [String],
    /// `cells[row][column]`; `None` where the grid has no answer.
    pub cells: &'a [Vec<Option<f64>>],
    pub footer: &'a Footer,
}

/// White at 0 to a strong blue at 1, through clear blues (never grey).
fn shade(p: f64) -> RGBColor {
    let t = p.clamp(0.0, 1.0);
    let mix = |from: f64, to: f64| (from + (to - from) * t).round() as u8;
    RGBColor(mix(255.0, 33.0), mix(255.0, 102.0), mix(255.0, 172.0))
}

impl Chart for Heat<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &Area<DB>) -> Drawn<DB> {
        let plot = frame(root, self.title, self.footer, &[])?;
        let (nx, ny) = (self.columns.len(), self.rows.len());
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .margin_right(24)
            .x_label_area_size(56)
            .y_label_area_size(96)
            .build_cartesian_2d(0.0..nx as f64, 0.0..ny as f64)?;
        let name = |names: &[String], v: f64| {
            let i = v - 0.5;
            if i.fract().abs() < 1e-9 && i >= 0.0 {
                names.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(2 * nx + 1)
            .y_labels(2 * ny + 1)
            .x_label_formatter(&|v| name(self.columns, *v))
            .y_label_formatter(&|v| name(self.rows, *v))
            .x_desc(self.x_label)
            .y_desc(self.y_label)
            .axis_desc_style((FONT, AXIS_SIZE).into_font().color(&INK))
            .label_style((FONT, TICK_SIZE).into_font().color(&INK))
            .draw()?;
        let size = (((plot.dim_in_pixel().0 as f64 / nx as f64).min(plot.dim_in_pixel().1 as f64 / ny as f64)) / 5.0)
            .clamp(10.0, 20.0)
            .round();
        for (r, row) in self.cells.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                let (x, y) = (c as f64, r as f64);
                let (fill, label) = match cell {
                    Some(p) => (shade(*p), percent(*p)),
                    None => (GRID, "n/a".to_string()),
                };
                chart.draw_series(std::iter::once(Rectangle::new([(x, y), (x + 1.0, y + 1.0)], fill.filled())))?;
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(x, y), (x + 1.0, y + 1.0)],
                    WHITE.stroke_width(1),
                )))?;
                let at = chart.backend_coord(&(x + 0.5, y + 0.5));
                root.draw_text(&label, &bold(size, contrast(fill), HPos::Center, VPos::Center), at)?;
            }
        }
        Ok(())
    }
}
