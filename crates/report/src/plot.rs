//! PNG plots with plotters and the bundled DejaVu Sans font (no system font needed).
//!
//! Every chart has a title naming the game and N, labelled axes with ticks, and a legend or
//! colour key where there is more than one series or colour. Long series are never drawn point
//! by point: each pixel column shows the minimum and the maximum of the values that fall in it,
//! so every value is represented at any N. Charts are rendered into memory and encoded with
//! the `png` crate, which also stores the title (and, for fold maps, the cell layout) as iTXt
//! metadata; the file is written under a temporary name and renamed into place.

use crate::files::AtomicFile;
use anyhow::{anyhow, Result};
use heaplab_analysis::{log_bins, min_max_bins, GrowthFit, Law};
use plotters::coord::Shift;
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

    /// The same chart at another size.
    pub fn sized(mut self, size: Option<(u32, u32)>) -> Self {
        if let Some((w, h)) = size {
            self.width = w;
            self.height = h;
        }
        self
    }

    /// The same chart for a game in `play`: in misère play its values are misère
    /// nim-values, and the title and axes say so.
    pub fn played(mut self, play: heaplab_core::Play) -> Self {
        for s in [&mut self.title, &mut self.x_label, &mut self.y_label] {
            *s = in_play(s, play);
        }
        self
    }
}

/// `text` for a game in `play`: "Grundy value" reads "misère nim-value" in misère play.
pub fn in_play(text: &str, play: heaplab_core::Play) -> String {
    match play {
        heaplab_core::Play::Normal => text.to_string(),
        heaplab_core::Play::Misere => text.replace("Grundy value", "misère nim-value"),
    }
}

fn perr<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("plot: {e}")
}

/// Renders with `draw` into an RGB buffer and writes it to `dest` as PNG with the title and
/// `meta` as iTXt chunks.
fn render(
    dest: &Path,
    spec: &ChartSpec,
    meta: &[(&str, String)],
    draw: impl FnOnce(&DrawingArea<BitMapBackend, Shift>) -> Result<()>,
) -> Result<PathBuf> {
    register_fonts();
    if spec.width < 200 || spec.height < 150 || spec.width > 10_000 || spec.height > 10_000 {
        return Err(anyhow!(
            "plot size {}x{} is outside 200x150 .. 10000x10000",
            spec.width,
            spec.height
        ));
    }
    let (w, h) = (spec.width, spec.height);
    let mut buf = vec![255u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(perr)?;
        draw(&root)?;
        root.present().map_err(perr)?;
    }
    let file = AtomicFile::create(dest)?;
    {
        let out = std::io::BufWriter::new(file.file()?);
        let mut enc = png::Encoder::new(out, w, h);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Best);
        enc.add_itxt_chunk("Title".into(), spec.title.clone())?;
        enc.add_itxt_chunk("Software".into(), "heaplab".into())?;
        for (k, v) in meta {
            enc.add_itxt_chunk((*k).into(), v.clone())?;
        }
        let mut writer = enc.write_header()?;
        writer.write_image_data(&buf)?;
        writer.finish()?;
    }
    file.commit()
}

/// A chart builder with the title and the margins every chart shares.
fn builder<'a, 'b>(
    root: &'a DrawingArea<BitMapBackend<'b>, Shift>,
    spec: &ChartSpec,
) -> ChartBuilder<'a, 'b, BitMapBackend<'b>> {
    let mut cb = ChartBuilder::on(root);
    cb.caption(&spec.title, (FONT, 22).into_font().style(FontStyle::Bold))
        .margin(15)
        .margin_right(45)
        .x_label_area_size(50)
        .y_label_area_size(80);
    cb
}

/// A chart on log-log axes.
type LogLog<'a, 'b> =
    ChartContext<'a, BitMapBackend<'b>, Cartesian2d<LogCoord<f64>, LogCoord<f64>>>;

/// A chart on linear axes.
type Linear<'a, 'b> = ChartContext<
    'a,
    BitMapBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// A chart on log-log axes over `x` and `y`, with its mesh drawn.
fn log_log<'a, 'b>(
    root: &'a DrawingArea<BitMapBackend<'b>, Shift>,
    spec: &ChartSpec,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> Result<LogLog<'a, 'b>> {
    let mut chart = builder(root, spec)
        .build_cartesian_2d(x.log_scale(), y.log_scale())
        .map_err(perr)?;
    chart
        .configure_mesh()
        // (plotters crowds light lines near some decades of a short log axis)
        .y_max_light_lines(4)
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 16))
        .x_label_formatter(&|x| tick(*x))
        .y_label_formatter(&|y| tick(*y))
        .draw()
        .map_err(perr)?;
    Ok(chart)
}

/// A chart on linear axes over `x` and `y` (y ticks from `y_tick`), with its mesh drawn.
fn linear<'a, 'b>(
    root: &'a DrawingArea<BitMapBackend<'b>, Shift>,
    spec: &ChartSpec,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    y_tick: &dyn Fn(&f64) -> String,
) -> Result<Linear<'a, 'b>> {
    let mut chart = builder(root, spec).build_cartesian_2d(x, y).map_err(perr)?;
    chart
        .configure_mesh()
        .x_desc(&spec.x_label)
        .y_desc(&spec.y_label)
        .label_style((FONT, 14))
        .axis_desc_style((FONT, 16))
        .x_label_formatter(&|x| tick(*x))
        .y_label_formatter(y_tick)
        .draw()
        .map_err(perr)?;
    Ok(chart)
}

/// Axis tick text: whole numbers without a decimal point, large ones in scientific form.
pub fn tick(v: f64) -> String {
    if v.abs() >= 1e7 {
        format!("{v:.2e}")
    } else if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.3}").trim_end_matches('0').to_string()
    }
}

const BLUE: RGBColor = RGBColor(31, 119, 180);
const ORANGE: RGBColor = RGBColor(230, 85, 13);

/// y = value(i) at x = x0 + i, i < len: a min/max band per pixel column (or points when
/// they fit). `log` puts both axes on a log scale (values must then be positive).
pub fn series_png(
    dest: &Path,
    spec: &ChartSpec,
    x0: f64,
    len: usize,
    value: &dyn Fn(usize) -> f64,
    log: bool,
) -> Result<PathBuf> {
    render(dest, spec, &[], |root| {
        let coarse = min_max_bins(len, 4096, value);
        let ymax = coarse.iter().map(|b| b.3).fold(0.0f64, f64::max);
        let ymin = coarse.iter().map(|b| b.2).fold(f64::INFINITY, f64::min);
        let xmax = (x0 + len.max(2) as f64 - 1.0).max(x0 + 1.0);
        if log {
            // a margin below the least value, so points there clear the axis, and at least
            // one power of ten inside (log axes are labelled at those)
            let lo = ymin.max(1.0) / 1.25;
            let hi = (ymax * 1.2).max(2.0);
            let decade = 10f64.powf(lo.log10().ceil());
            let (lo, hi) = if decade > hi {
                (10f64.powf(lo.log10().floor()), hi.max(decade))
            } else {
                (lo, hi)
            };
            let mut chart = log_log(root, spec, x0.max(1.0)..xmax.max(2.0), lo..hi)?;
            let pw = chart.plotting_area().dim_in_pixel().0 as usize;
            // log x: bins of equal width in log(index)
            let bins = log_bins(len, pw, value);
            let bins = bins.iter().filter(|b| b.2 > 0.0);
            let mid = |a: usize, b: usize| x0 + (a + b) as f64 / 2.0;
            chart
                .draw_series(bins.clone().map(|&(a, b, mn, mx)| {
                    PathElement::new(
                        vec![(mid(a, b), mn.max(1.0)), (mid(a, b), mx.max(1.0))],
                        BLUE.stroke_width(2),
                    )
                }))
                .map_err(perr)?;
            // a bin of one value is a line of no length: a dot instead
            chart
                .draw_series(
                    bins.filter(|b| b.2 == b.3).map(|&(a, b, mn, _)| {
                        Circle::new((mid(a, b), mn.max(1.0)), 1, BLUE.filled())
                    }),
                )
                .map_err(perr)?;
            return Ok(());
        }
        let ymin = if ymin.is_finite() { ymin.min(0.0) } else { 0.0 };
        let y = ymin..(ymax * 1.05).max(ymin + 1.0);
        let mut chart = linear(root, spec, x0..xmax, y, &|y| tick(*y))?;
        let pw = chart.plotting_area().dim_in_pixel().0 as usize;
        if len <= pw {
            chart
                .draw_series(
                    (0..len).map(|i| Circle::new((x0 + i as f64, value(i)), 2, BLUE.filled())),
                )
                .map_err(perr)?;
        } else {
            let bins = min_max_bins(len, pw, value);
            chart
                .draw_series(bins.iter().map(|&(a, b, mn, mx)| {
                    let x = x0 + (a + b) as f64 / 2.0;
                    PathElement::new(vec![(x, mn), (x, mx)], BLUE.stroke_width(1))
                }))
                .map_err(perr)?;
            // a bin of one value is a line of no length: a dot instead
            chart
                .draw_series(bins.iter().filter(|b| b.2 == b.3).map(|&(a, b, mn, _)| {
                    Circle::new((x0 + (a + b) as f64 / 2.0, mn), 1, BLUE.filled())
                }))
                .map_err(perr)?;
        }
        Ok(())
    })
}

/// The shade of a cell holding `count` of the `total` positions of its pixel column: light
/// blue for a single position, dark blue for the whole column (on a log scale, so rare
/// values stay visible and common ones stand out).
fn shade(count: u32, total: u32) -> RGBColor {
    let t = if total <= 1 {
        1.0
    } else {
        (f64::from(count) + 1.0).ln() / (f64::from(total) + 1.0).ln()
    };
    let t = t.clamp(0.35, 1.0);
    let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
    RGBColor(mix(198.0, 8.0), mix(219.0, 48.0), mix(239.0, 107.0))
}

/// Values against position as a two-dimensional histogram: x = i (i < len, at x0 + i),
/// y = value(i) in 0..=vmax; each pixel column and value row is shaded by the share of
/// that column's positions holding the value (one drawing style at any N: a single
/// position is a light cell, a value every position of the column holds a dark one).
/// Values are grouped into rows when there are more of them than pixels.
pub fn heat_png(
    dest: &Path,
    spec: &ChartSpec,
    x0: f64,
    len: usize,
    value: &dyn Fn(usize) -> u64,
    vmax: u64,
) -> Result<PathBuf> {
    render(dest, spec, &[], |root| {
        let xmax = x0 + len.max(1) as f64;
        let top = vmax as f64 * 1.03 + 0.5;
        let whole = |y: &f64| {
            if (y - y.round()).abs() < 1e-9 && *y >= 0.0 {
                tick(*y)
            } else {
                String::new()
            }
        };
        let mut chart = linear(root, spec, x0..xmax, -0.5f64..top.max(1.5), &whole)?;
        let (pw, ph) = chart.plotting_area().dim_in_pixel();
        let cols = len.clamp(1, pw.max(1) as usize);
        let levels = u128::from(vmax) + 1;
        // cells at least two pixels tall, so a lone position stays visible
        let rows = ((ph / 2).max(1) as usize).min(usize::try_from(levels).unwrap_or(usize::MAX));
        let mut hist = vec![0u32; cols * rows];
        let mut per_col = vec![0u32; cols];
        for i in 0..len {
            let c = (i as u128 * cols as u128 / len as u128) as usize;
            let v = u128::from(value(i)).min(levels - 1);
            let r = (v * rows as u128 / levels) as usize;
            hist[c * rows + r] += 1;
            per_col[c] += 1;
        }
        let x_of = |c: usize| x0 + (c as u128 * len as u128).div_ceil(cols as u128) as f64;
        let v_of = |r: usize| (r as u128 * levels).div_ceil(rows as u128) as f64;
        chart
            .draw_series((0..cols).flat_map(|c| {
                let (hist, per_col) = (&hist, &per_col);
                (0..rows).filter_map(move |r| {
                    let k = hist[c * rows + r];
                    (k > 0).then(|| {
                        Rectangle::new(
                            [(x_of(c), v_of(r) - 0.5), (x_of(c + 1), v_of(r + 1) - 0.5)],
                            shade(k, per_col[c]).filled(),
                        )
                    })
                })
            }))
            .map_err(perr)?;
        Ok(())
    })
}

/// The shares of each pixel column's values below which the lines of [`quantiles_png`]
/// are drawn (10%, 25%, the median, 75%, 90%), then the column's largest value.
pub const QUANTILES: [f64; 5] = [0.1, 0.25, 0.5, 0.75, 0.9];

/// x = x0 + i (i < len) against y = value(i), summarised per pixel column by the
/// [`QUANTILES`] of its values and its largest value, one line each (a stable pattern
/// shows as level lines however many values a column holds), with a horizontal guide
/// line at `guide.0` and a legend.
pub fn quantiles_png(
    dest: &Path,
    spec: &ChartSpec,
    x0: f64,
    len: usize,
    value: &dyn Fn(usize) -> f64,
    guide: (f64, String),
) -> Result<PathBuf> {
    render(dest, spec, &[], |root| {
        let xmax = x0 + len.max(2) as f64 - 1.0;
        // columns first, to size the y axis from what is drawn
        let cols = len.clamp(1, spec.width.saturating_sub(140).max(1) as usize);
        let mut lines: Vec<Vec<(f64, f64)>> = vec![vec![]; QUANTILES.len() + 1];
        let mut lo = 0usize;
        for c in 0..cols {
            let hi = ((c + 1) as u128 * len as u128 / cols as u128) as usize;
            if hi <= lo {
                continue;
            }
            let mut v: Vec<f64> = (lo..hi).map(value).filter(|v| v.is_finite()).collect();
            if !v.is_empty() {
                v.sort_by(f64::total_cmp);
                let x = x0 + (lo + hi - 1) as f64 / 2.0;
                for (line, q) in lines.iter_mut().zip(QUANTILES) {
                    let at = ((v.len() - 1) as f64 * q).round() as usize;
                    line.push((x, v[at]));
                }
                lines[QUANTILES.len()].push((x, v[v.len() - 1]));
            }
            lo = hi;
        }
        let top = lines.iter().flatten().map(|p| p.1).fold(guide.0, f64::max) * 1.5;
        let mut chart = linear(
            root,
            spec,
            x0..xmax.max(x0 + 1.0),
            0f64..top.max(0.1),
            &|y| tick(*y),
        )?;
        let names = [
            "10% of the column lie below",
            "25% lie below",
            "median: half lie below",
            "75% lie below",
            "90% lie below",
            "the column's largest",
        ];
        for (i, (line, name)) in lines.into_iter().zip(names).enumerate() {
            // darker towards the median, the largest in grey
            let colour = match i {
                2 => BLUE,
                1 | 3 => RGBColor(107, 174, 214),
                5 => RGBColor(120, 120, 120),
                _ => RGBColor(189, 215, 231),
            };
            // (one pixel wide: a wide line's joins at a column-to-column zigzag are
            // mitred into spikes past the data)
            chart
                .draw_series(LineSeries::new(line, colour.stroke_width(1)))
                .map_err(perr)?
                .label(name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
        }
        chart
            .draw_series(LineSeries::new(
                vec![(x0, guide.0), (xmax, guide.0)],
                ORANGE.stroke_width(2),
            ))
            .map_err(perr)?
            .label(guide.1)
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], ORANGE.stroke_width(2)));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .label_font((FONT, 13))
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK)
            .draw()
            .map_err(perr)?;
        Ok(())
    })
}

/// The series legend, upper left (the shared style).
fn legend<'a, 'b: 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, BitMapBackend<'b>, CT>,
) -> Result<()> {
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .label_font((FONT, 15))
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .draw()
        .map_err(perr)?;
    Ok(())
}

/// Points of `f` at 300 log-spaced n over from..=to that lie within the y range lo..=hi
/// (a fitted curve drawn over log-log data).
fn fitted(f: &GrowthFit, from: f64, to: f64, lo: f64, hi: f64) -> Vec<(f64, f64)> {
    let k = 300;
    let (a, b) = (from.max(1.0).ln(), to.max(2.0).ln());
    (0..k)
        .map(|j| (a + (b - a) * j as f64 / (k - 1) as f64).exp())
        .map(|n| (n, f.at(n)))
        .filter(|&(_, y)| y >= lo && y <= hi)
        .collect()
}

/// A fitted law as a legend entry: `fit 1.334·n^0.3496 (power law, α = 0.3496)`.
fn fit_label(f: &GrowthFit, count: bool) -> String {
    match (f.law, f.exponential(), f.ratio()) {
        (Law::Logarithmic, Some((c, r)), _) if count => format!(
            "fit {}: exponential, the k-th P-position ≈ {c:.3}·{r:.4}^k",
            f.formula()
        ),
        (Law::Logarithmic, _, Some(r)) => format!(
            "fit {}: logarithmic, one more per factor {r:.4} of n",
            f.formula()
        ),
        _ => format!("fit {}: power law, α = {:.4}", f.formula(), f.alpha),
    }
}

/// y = the running maximum of value(i) over 0..=i against x = i, on log-log axes (a
/// power law is a straight line): the growth of the largest value, with the fitted law
/// `fit` over the range it was fitted on, and a legend naming it.
pub fn growth_png(
    dest: &Path,
    spec: &ChartSpec,
    len: usize,
    value: &dyn Fn(usize) -> u32,
    fit: Option<&GrowthFit>,
) -> Result<PathBuf> {
    // the records: where the running maximum rises, and to what
    let mut steps: Vec<(f64, f64)> = vec![];
    let mut best = 0u32;
    for i in 0..len {
        let v = value(i);
        if v > best || steps.is_empty() {
            best = best.max(v);
            steps.push((i.max(1) as f64, f64::from(best.max(1))));
        }
    }
    let xmax = (len.max(10)) as f64;
    steps.push((xmax, f64::from(best.max(1))));
    render(dest, spec, &[], |root| {
        let ymax = (f64::from(best.max(1)) * 1.5).max(10.0);
        let mut chart = log_log(root, spec, 1f64..xmax, 1f64..ymax)?;
        // a step line: level until the next record
        let mut path = vec![];
        for w in steps.windows(2) {
            path.push(w[0]);
            path.push((w[1].0, w[0].1));
        }
        if let Some(&last) = steps.last() {
            path.push(last);
        }
        chart
            .draw_series(LineSeries::new(path, BLUE.stroke_width(2)))
            .map_err(perr)?
            .label("largest value up to n")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        chart
            .draw_series(
                steps[..steps.len() - 1]
                    .iter()
                    .map(|&p| Circle::new(p, 2, BLUE.filled())),
            )
            .map_err(perr)?;
        if let Some(f) = fit {
            let line = fitted(f, f.from as f64, f.to as f64, 1.0, ymax);
            chart
                .draw_series(LineSeries::new(line, ORANGE.stroke_width(2)))
                .map_err(perr)?
                .label(fit_label(f, false))
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], ORANGE.stroke_width(2))
                });
        }
        legend(&mut chart)?;
        Ok(())
    })
}

/// A colour for value v of `levels` (distinct hues for few values, a ramp for many).
pub fn value_colour(v: u32, levels: u32) -> RGBColor {
    if levels <= 20 {
        let c = Palette99::pick(v as usize).to_rgba();
        return RGBColor(c.0, c.1, c.2);
    }
    // viridis-like ramp: dark blue -> green -> yellow
    let t = (v as f64 / (levels.max(2) - 1) as f64).clamp(0.0, 1.0);
    let stops = [
        (68.0, 1.0, 84.0),
        (59.0, 82.0, 139.0),
        (33.0, 145.0, 140.0),
        (94.0, 201.0, 98.0),
        (253.0, 231.0, 37.0),
    ];
    let x = t * (stops.len() - 1) as f64;
    let i = (x.floor() as usize).min(stops.len() - 2);
    let f = x - i as f64;
    let mix = |a: f64, b: f64| (a + (b - a) * f).round() as u8;
    RGBColor(
        mix(stops[i].0, stops[i + 1].0),
        mix(stops[i].1, stops[i + 1].1),
        mix(stops[i].2, stops[i + 1].2),
    )
}

/// Fold map: positions 0..len in rows of `width`, one square cell per position coloured by
/// value (`levels` of them) (`outcome`: P-positions black, N-positions light grey), with a colour key. When
/// the rows do not all fit at one pixel per cell, the first rows that fit are drawn and the
/// title says how many; likewise the first columns of rows wider than the plot area. The layout is stored as iTXt `heaplab:fold` =
/// "x0,y0,cell_w,cell_h,width,rows" (pixels; rows drawn).
pub fn fold_png(
    dest: &Path,
    spec: &ChartSpec,
    len: usize,
    width: usize,
    value: &dyn Fn(usize) -> u32,
    levels: u32,
    outcome: bool,
) -> Result<PathBuf> {
    let width = width.max(1);
    let total_rows = len.div_ceil(width);
    let key_w = 150u32;
    let (left, top, bottom) = (70u32, 50u32, 40u32);
    let area_w = spec.width.saturating_sub(left + key_w + 20).max(10) as usize;
    let area_h = spec.height.saturating_sub(top + bottom).max(10) as usize;
    // Cells may be rectangular: as wide as the columns allow (at most 80 px), as tall as the
    // rows allow (at least one pixel, at most the width).
    let cell_w = (area_w / width).clamp(1, 80);
    let cell_h = (area_h / total_rows.max(1)).clamp(1, cell_w.max(1));
    let rows = total_rows.min(area_h / cell_h);
    // a row wider than the area (a long period, or a --width past the pixels) shows its
    // first columns only
    let cols = width.min(area_w / cell_w);
    let mut spec = spec.clone();
    if rows < total_rows {
        spec.title = format!(
            "{} (rows 0–{} of {})",
            spec.title,
            rows.saturating_sub(1),
            total_rows
        );
    }
    if cols < width {
        spec.title = format!("{} (columns 0–{} shown)", spec.title, cols - 1);
    }
    let meta = [(
        "heaplab:fold",
        format!("{left},{top},{cell_w},{cell_h},{width},{rows}"),
    )];
    let spec2 = spec.clone();
    render(dest, &spec, &meta, move |root| {
        root.draw(&Text::new(
            spec2.title.clone(),
            (left as i32, 12),
            (FONT, 20).into_font().style(FontStyle::Bold),
        ))
        .map_err(perr)?;
        for r in 0..rows {
            for c in 0..cols {
                let n = r * width + c;
                if n >= len {
                    break;
                }
                let v = value(n);
                let colour = if outcome {
                    if v == 0 {
                        BLACK
                    } else {
                        RGBColor(215, 215, 215)
                    }
                } else {
                    value_colour(v, levels)
                };
                let x = left as i32 + (c * cell_w) as i32;
                let y = top as i32 + (r * cell_h) as i32;
                root.draw(&Rectangle::new(
                    [(x, y), (x + cell_w as i32, y + cell_h as i32)],
                    colour.filled(),
                ))
                .map_err(perr)?;
            }
        }
        // axes: column index across, first position of each row down
        let label = (FONT, 13).into_font();
        let col_step = (cols / 10).max(1).max(30usize.div_ceil(cell_w));
        for c in (0..cols).step_by(col_step) {
            let x = left as i32 + (c * cell_w) as i32;
            root.draw(&Text::new(
                c.to_string(),
                (x, top as i32 - 16),
                label.clone(),
            ))
            .map_err(perr)?;
        }
        let step = (rows / 12).max(1).max(16usize.div_ceil(cell_h));
        for r in (0..rows).step_by(step) {
            let y = top as i32 + (r * cell_h) as i32;
            root.draw(&Text::new(tick((r * width) as f64), (5, y), label.clone()))
                .map_err(perr)?;
        }
        root.draw(&Text::new(
            format!("{} (row start) ↓ · n mod {width} →", spec2.y_label),
            (left as i32, spec2.height as i32 - 25),
            (FONT, 14).into_font(),
        ))
        .map_err(perr)?;
        // colour key
        let kx = spec2.width as i32 - key_w as i32;
        root.draw(&Text::new(
            spec2.x_label.clone(),
            (kx, top as i32 - 18),
            (FONT, 14).into_font(),
        ))
        .map_err(perr)?;
        let entries: Vec<(String, RGBColor)> = if outcome {
            vec![
                ("P (lose)".into(), BLACK),
                ("N (win)".into(), RGBColor(215, 215, 215)),
            ]
        } else if levels <= 20 {
            // the values the drawn cells hold
            let mut seen = vec![false; levels as usize];
            for n in (0..rows * width).filter(|&n| n < len && n % width < cols) {
                if let Some(x) = seen.get_mut(value(n) as usize) {
                    *x = true;
                }
            }
            (0..levels)
                .filter(|&v| seen[v as usize])
                .map(|v| (format!("g = {v}"), value_colour(v, levels)))
                .collect()
        } else {
            let k = 10u32;
            (0..=k)
                .map(|i| {
                    let v = (levels - 1) * i / k;
                    (format!("g = {v}"), value_colour(v, levels))
                })
                .collect()
        };
        for (i, (name, colour)) in entries.iter().enumerate() {
            let y = top as i32 + 22 * i as i32;
            root.draw(&Rectangle::new(
                [(kx, y), (kx + 16, y + 16)],
                colour.filled(),
            ))
            .map_err(perr)?;
            root.draw(&Rectangle::new(
                [(kx, y), (kx + 16, y + 16)],
                BLACK.stroke_width(1),
            ))
            .map_err(perr)?;
            root.draw(&Text::new(
                name.clone(),
                (kx + 24, y + 1),
                (FONT, 14).into_font(),
            ))
            .map_err(perr)?;
        }
        Ok(())
    })
}

/// Count of P-positions <= n against n on log-log axes, with the fitted law (c·n^α, or
/// a + b·ln n for P-positions that grow exponentially) over the range it was fitted on.
pub fn density_png(
    dest: &Path,
    spec: &ChartSpec,
    ps: &[u64],
    max: u64,
    fit: Option<&GrowthFit>,
) -> Result<PathBuf> {
    render(dest, spec, &[], |root| {
        let xmax = (max.max(10)) as f64;
        let ymax = (ps.len().max(10)) as f64 * 1.3;
        let mut chart = log_log(root, spec, 1f64..xmax, 1f64..ymax)?;
        let k = 300;
        let pts: Vec<(f64, f64)> = (0..k)
            .map(|j| (xmax.ln() * j as f64 / (k - 1) as f64).exp())
            .map(|n| (n, ps.partition_point(|&p| p as f64 <= n) as f64))
            .filter(|&(_, c)| c >= 1.0)
            .collect();
        chart
            .draw_series(LineSeries::new(pts, BLUE.stroke_width(2)))
            .map_err(perr)?
            .label("P-positions ≤ n")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE.stroke_width(2)));
        if let Some(f) = fit {
            let line = fitted(f, f.from as f64, f.to as f64, 1.0, ymax);
            chart
                .draw_series(LineSeries::new(line, ORANGE.stroke_width(2)))
                .map_err(perr)?
                .label(fit_label(f, true))
                .legend(|(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], ORANGE.stroke_width(2))
                });
        }
        legend(&mut chart)?;
        Ok(())
    })
}

/// Bars of (label, count) over integer labels, optionally with a log count axis; when there
/// are more bars than pixels, neighbouring labels are merged (their counts summed, so
/// nothing is lost).
pub fn bars_png(
    dest: &Path,
    spec: &ChartSpec,
    bars: &[(u64, u64)],
    log_y: bool,
) -> Result<PathBuf> {
    render(dest, spec, &[], |root| {
        let lo = bars.iter().map(|b| b.0).min().unwrap_or(0) as f64;
        let hi = bars.iter().map(|b| b.0).max().unwrap_or(0) as f64;
        // at least 3 pixels a bar: thinner bars alias into empty bands
        let pw = spec.width.saturating_sub(120) as f64 / 3.0;
        let width = ((hi - lo + 1.0) / pw).ceil().max(1.0);
        // merge bars that share a pixel
        let mut merged: Vec<(f64, f64)> = vec![];
        for &(x, c) in bars {
            let key = lo + ((x as f64 - lo) / width).floor() * width;
            match merged.last_mut() {
                Some(last) if last.0 == key => last.1 += c as f64,
                _ => merged.push((key, c as f64)),
            }
        }
        let ymax = merged.iter().map(|m| m.1).fold(1.0, f64::max) * 1.15;
        let (x0, x1) = (
            lo - 0.5 * width,
            hi + 0.5 * width + if width > 1.0 { width } else { 0.0 },
        );
        let nticks = ((hi - lo) / width + 1.0).min(20.0) as usize + 1;
        let int_tick = |x: &f64| {
            if (x - x.round()).abs() < 1e-6 {
                tick(*x)
            } else {
                String::new()
            }
        };
        let mut cb = builder(root, spec);
        // merged bars touch (each stands for a range of labels); single labels keep a gap
        let half = if width > 1.0 { 0.5 * width } else { 0.4 };
        if log_y {
            let mut chart = cb
                .build_cartesian_2d(x0..x1, (0.8f64..ymax.max(2.0)).log_scale())
                .map_err(perr)?;
            chart
                .configure_mesh()
                .x_desc(&spec.x_label)
                .y_desc(&spec.y_label)
                .x_labels(nticks)
                .label_style((FONT, 14))
                .axis_desc_style((FONT, 16))
                .x_label_formatter(&int_tick)
                .y_label_formatter(&|y| tick(*y))
                .draw()
                .map_err(perr)?;
            chart
                .draw_series(merged.iter().map(|&(x, c)| {
                    Rectangle::new([(x - half, 0.8), (x + half, c.max(0.8))], BLUE.filled())
                }))
                .map_err(perr)?;
        } else {
            let mut chart = cb.build_cartesian_2d(x0..x1, 0f64..ymax).map_err(perr)?;
            chart
                .configure_mesh()
                .x_desc(&spec.x_label)
                .y_desc(&spec.y_label)
                .x_labels(nticks)
                .label_style((FONT, 14))
                .axis_desc_style((FONT, 16))
                .x_label_formatter(&int_tick)
                .y_label_formatter(&|y| tick(*y))
                .draw()
                .map_err(perr)?;
            chart
                .draw_series(
                    merged.iter().map(|&(x, c)| {
                        Rectangle::new([(x - half, 0.0), (x + half, c)], BLUE.filled())
                    }),
                )
                .map_err(perr)?;
        }
        Ok(())
    })
}

/// A scatter of points (x, y) on a linear x axis and a log y axis, each point shaded by how
/// many items it stands for (darker: more).
pub fn scatter_png(dest: &Path, spec: &ChartSpec, points: &[(u64, u64, u64)]) -> Result<PathBuf> {
    render(dest, spec, &[], |root| {
        let xmax = points.iter().map(|p| p.0).max().unwrap_or(1).max(1) as f64;
        let ymax = points.iter().map(|p| p.1).max().unwrap_or(1).max(2) as f64;
        let most = points.iter().map(|p| p.2).max().unwrap_or(1).max(1) as f64;
        let mut chart = builder(root, spec)
            .build_cartesian_2d(0f64..xmax * 1.02, (0.8f64..ymax * 1.5).log_scale())
            .map_err(perr)?;
        chart
            .configure_mesh()
            .x_desc(&spec.x_label)
            .y_desc(&spec.y_label)
            .label_style((FONT, 14))
            .axis_desc_style((FONT, 16))
            .x_label_formatter(&|x| tick(*x))
            .y_label_formatter(&|y| tick(*y))
            .draw()
            .map_err(perr)?;
        chart
            .draw_series(points.iter().map(|&(x, y, n)| {
                // 1 item: light blue; the most common point: dark blue
                let t = ((n as f64).ln() / most.ln().max(1.0)).clamp(0.0, 1.0);
                let c = RGBColor(
                    (170.0 * (1.0 - t)) as u8,
                    (190.0 * (1.0 - t)) as u8,
                    (255.0 - 100.0 * t) as u8,
                );
                Circle::new((x as f64, y.max(1) as f64), 2, c.filled())
            }))
            .map_err(perr)?;
        Ok(())
    })
}

/// The plots of a per-game census into `dir`: `NAME-period.png` (outcome period against
/// the largest move, log scale) and `NAME-preperiod.png` (how many games have each
/// preperiod), `NAME` the output file's stem (`census` without one). Returns the files
/// written.
///
/// # Errors
/// A plot that cannot be drawn or written.
pub fn census_plots(
    t: &heaplab_analysis::GameTally,
    dir: &Path,
    name: &str,
    space: &str,
) -> Result<Vec<String>> {
    let what = if t.play == "misere" {
        "Misère outcome"
    } else {
        "Outcome"
    };
    let points: Vec<(u64, u64, u64)> = t
        .period_by_c
        .iter()
        .map(|(&(c, p), &n)| (c, p, n))
        .collect();
    let a = scatter_png(
        &dir.join(format!("{name}-period.png")),
        &ChartSpec::new(
            format!("{what} period against the largest move (darker: more games): {space}"),
            "largest move c",
            "outcome period",
        ),
        &points,
    )?;
    // preperiod 0 (often most games) is said in the title, not drawn as a bar that would
    // flatten the rest
    let bars: Vec<(u64, u64)> = t
        .preperiod_counts
        .iter()
        .filter(|(&x, _)| x > 0)
        .map(|(&x, &n)| (x, n))
        .collect();
    let zero = t.preperiod_counts.get(&0).copied().unwrap_or(0);
    let b = bars_png(
        &dir.join(format!("{name}-preperiod.png")),
        &ChartSpec::new(
            format!("{what} preperiods > 0 ({zero} games have 0): {space}"),
            "preperiod",
            "games",
        ),
        &bars,
        true,
    )?;
    Ok(vec![a.display().to_string(), b.display().to_string()])
}

/// A cell of [`square_png`] with no value (drawn white): a state the game does not have.
pub const NO_VALUE: u32 = u32::MAX;

/// A heat map of a table of `rows` × `cols` cells: row r drawn from the bottom, column c
/// from the left, each pixel the colour of the cell under it (value 0, a P-position,
/// black; others on a ramp up to the largest value).
pub fn square_png(
    dest: &Path,
    spec: &ChartSpec,
    rows: u64,
    cols: u64,
    value: &dyn Fn(u64, u64) -> u32,
) -> Result<PathBuf> {
    let mut vmax = 1u32;
    for r in 0..rows {
        for c in 0..cols {
            let v = value(r, c);
            if v != NO_VALUE {
                vmax = vmax.max(v);
            }
        }
    }
    render(dest, spec, &[], |root| {
        // (the cells cover the mesh)
        let chart = linear(root, spec, 0f64..cols as f64, 0f64..rows as f64, &|y| {
            tick(*y)
        })?;
        let area = chart.plotting_area();
        let (pw, ph) = area.dim_in_pixel();
        let (pw, ph) = (u64::from(pw.max(1)), u64::from(ph.max(1)));
        let (w, h) = (pw.min(cols), ph.min(rows));
        for i in 0..w {
            for j in 0..h {
                let (c, r) = (i * cols / w, j * rows / h);
                let v = value(r, c);
                let colour = match v {
                    0 => BLACK,
                    NO_VALUE => WHITE,
                    _ => value_colour(v, vmax + 1),
                };
                let (x0, x1) = (c as f64, ((i + 1) * cols / w) as f64);
                let (y0, y1) = (r as f64, ((j + 1) * rows / h) as f64);
                area.draw(&Rectangle::new([(x0, y0), (x1, y1)], colour.filled()))
                    .map_err(perr)?;
            }
        }
        Ok(())
    })
}

/// Points (x, y) in [0, max]² on linear axes (the P-positions of a two-heap game).
pub fn points_png(
    dest: &Path,
    spec: &ChartSpec,
    points: &[(u64, u64)],
    max: u64,
) -> Result<PathBuf> {
    render(dest, spec, &[], |root| {
        let top = max.max(1) as f64;
        let mut chart = linear(root, spec, 0f64..top, 0f64..top, &|y| tick(*y))?;
        chart
            .draw_series(
                points
                    .iter()
                    .filter(|&&(x, y)| x <= max && y <= max)
                    .map(|&(x, y)| Circle::new((x as f64, y as f64), 2, BLUE.filled())),
            )
            .map_err(perr)?;
        Ok(())
    })
}
