//! PNG plots with plotters and the bundled DejaVu Sans font (no system font needed).
//!
//! Long series are never drawn point by point: each pixel column shows the minimum and the
//! maximum of the values that fall in it, so every value is represented at any N.

use crate::util::AtomicFile;
use anyhow::{anyhow, Result};
use plotters::prelude::*;
use plotters::style::FontStyle;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// Font family name under which the bundled font is registered.
pub const FONT: &str = "sans-serif";

static FONTS: Once = Once::new();

/// Registers the bundled DejaVu Sans (regular and bold) with plotters; must run before any
/// text is drawn, otherwise plotters silently draws no text.
pub fn register_fonts() {
    FONTS.call_once(|| {
        // The bundled font is valid; failure here would be a packaging bug.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

/// Size and labels of one chart.
#[derive(Debug, Clone)]
pub struct ChartSpec {
    /// Title (names the game and N).
    pub title: String,
    /// x axis label.
    pub x_label: String,
    /// y axis label.
    pub y_label: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

impl ChartSpec {
    /// A chart of the default size 1200×600.
    pub fn new(title: impl Into<String>, x: impl Into<String>, y: impl Into<String>) -> Self {
        ChartSpec {
            title: title.into(),
            x_label: x.into(),
            y_label: y.into(),
            width: 1200,
            height: 600,
        }
    }
}

/// Per-bin minimum and maximum of `len` values read by `value(i)`, in `bins` equal bins of
/// consecutive indices: `(first index, last index, min, max)` per non-empty bin. With
/// `len <= bins` every value is its own bin.
pub fn min_max_bins(
    len: usize,
    bins: usize,
    value: &dyn Fn(usize) -> f64,
) -> Vec<(usize, usize, f64, f64)> {
    let bins = bins.max(1);
    let mut out = Vec::with_capacity(bins.min(len));
    if len == 0 {
        return out;
    }
    let per = len.div_ceil(bins).max(1);
    let mut lo = 0;
    while lo < len {
        let hi = (lo + per).min(len);
        let (mut mn, mut mx) = (f64::INFINITY, f64::NEG_INFINITY);
        for i in lo..hi {
            let v = value(i);
            mn = mn.min(v);
            mx = mx.max(v);
        }
        out.push((lo, hi - 1, mn, mx));
        lo = hi;
    }
    out
}

/// Draws `len` values y = value(i) at x = x0 + i as a min/max band per pixel column (or as
/// points when they fit), and writes the PNG atomically to `dest`.
pub fn series_png(
    dest: &Path,
    spec: &ChartSpec,
    x0: f64,
    len: usize,
    value: &dyn Fn(usize) -> f64,
) -> Result<PathBuf> {
    register_fonts();
    let file = AtomicFile::create(dest)?;
    {
        let root = BitMapBackend::new(file.path(), (spec.width, spec.height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| anyhow!("plot: {e}"))?;
        // First pass at a coarse resolution for the y range; the drawing pass uses one bin
        // per pixel column of the actual plotting area.
        let coarse = min_max_bins(len, 4096, value);
        let ymax = coarse.iter().map(|b| b.3).fold(0.0f64, f64::max);
        let ymin = coarse.iter().map(|b| b.2).fold(0.0f64, f64::min);
        let xmax = x0 + len.max(2) as f64 - 1.0;
        let mut chart = ChartBuilder::on(&root)
            .caption(&spec.title, (FONT, 22).into_font().style(FontStyle::Bold))
            .margin(15)
            .x_label_area_size(50)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..xmax.max(x0 + 1.0), ymin..(ymax * 1.05).max(ymin + 1.0))
            .map_err(|e| anyhow!("plot: {e}"))?;
        chart
            .configure_mesh()
            .x_desc(&spec.x_label)
            .y_desc(&spec.y_label)
            .label_style((FONT, 14))
            .x_label_formatter(&|x| tick(*x))
            .y_label_formatter(&|y| tick(*y))
            .axis_desc_style((FONT, 16))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| anyhow!("plot: {e}"))?;
        let plot_w = chart.plotting_area().dim_in_pixel().0 as usize;
        let bins = if len <= plot_w {
            min_max_bins(len, len, value)
        } else {
            min_max_bins(len, plot_w, value)
        };
        let colour = RGBColor(31, 119, 180);
        if len <= plot_w {
            chart
                .draw_series(
                    bins.iter()
                        .map(|&(i, _, v, _)| Circle::new((x0 + i as f64, v), 2, colour.filled())),
                )
                .map_err(|e| anyhow!("plot: {e}"))?;
        } else {
            chart
                .draw_series(bins.iter().map(|&(a, b, mn, mx)| {
                    let x = x0 + (a + b) as f64 / 2.0;
                    PathElement::new(vec![(x, mn), (x, mx)], colour.stroke_width(1))
                }))
                .map_err(|e| anyhow!("plot: {e}"))?;
        }
        root.present().map_err(|e| anyhow!("plot: {e}"))?;
    }
    file.commit()
}

/// Axis tick text: whole numbers without a decimal point, others with up to three digits.
pub fn tick(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.3}").trim_end_matches('0').to_string()
    }
}
