//! Censuses: one row per class of a [`CensusSpace`] (items with one proven representative),
//! each computed by adaptive certification, compared with the known results, and merged
//! from shards.
//!
//! A row is a pure function of (class, [`CensusBudget`], heaplab version) apart from its
//! `seconds`: the steps of N and the time budget use heaplab's own estimates
//! ([`heaplab_core::time_estimate`]), never the clock, so every machine computes the same
//! row (unless the machine's memory refuses a step, which the row then says).

use crate::known::known_checks;
use crate::record::{analyze, AnalysisData};
use crate::Error;
use heaplab_core::{time_estimate, Budget, Class, Observer, Sequence, Task};
#[cfg(feature = "polars")]
use polars::prelude::*;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// How far each class may be pushed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CensusBudget {
    /// The first N (positions 0..=N).
    pub start: u64,
    /// The largest N.
    pub max: u64,
    /// Estimated seconds per class (heaplab's estimate of the work, not the clock); None:
    /// no limit but `max`.
    pub seconds: Option<f64>,
}

impl Default for CensusBudget {
    /// N from 256 to 65536, no time limit.
    fn default() -> Self {
        CensusBudget {
            start: 256,
            max: 65536,
            seconds: None,
        }
    }
}

impl CensusBudget {
    /// Checks the budget: 1 <= start <= max <= [`crate::ANALYSIS_MAX`], seconds a finite
    /// number >= 0.
    ///
    /// # Errors
    /// A one-line description of the first problem.
    pub fn check(&self) -> Result<(), String> {
        if self.start == 0 || self.start > self.max {
            return Err(format!(
                "need 1 <= start <= max (start {}, max {})",
                self.start, self.max
            ));
        }
        if self.max > crate::ANALYSIS_MAX {
            return Err(format!(
                "max {} is too large for an analysis in memory (at most {})",
                self.max,
                crate::ANALYSIS_MAX
            ));
        }
        if self.seconds.is_some_and(|s| !s.is_finite() || s < 0.0) {
            return Err("seconds must be a finite number >= 0".into());
        }
        Ok(())
    }

    /// One line for the census's identity: `N 256..65536` (and `, 30 s`).
    pub fn describe(&self) -> String {
        match self.seconds {
            Some(s) => format!("N {}..{}, {s} s", self.start, self.max),
            None => format!("N {}..{}", self.start, self.max),
        }
    }
}

/// One row of a census: a class, its representative's analysis at the N reached, and the
/// known results about its members.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CensusRow {
    /// The class's index (classes in order of their first item).
    pub class: u64,
    /// Index of its first item in the space.
    pub item: u64,
    /// The representative, computed for the whole class.
    pub game: String,
    /// How many items map to it.
    pub members: u64,
    /// The members and how each reduces (`sub{2,4,6} (scale 2)`), `; `-separated.
    pub member_list: String,
    /// `certified`, `observed`, `none` or `failed`.
    pub status: String,
    /// `certified at N = 1023`, `observed at N = 65536`, `none by N = 65536`, or the
    /// failure.
    pub verdict: String,
    /// Preperiod (number of leading values before the periodic part).
    pub preperiod: Option<u64>,
    /// Period.
    pub period: Option<u64>,
    /// Saltus.
    pub saltus: Option<i64>,
    /// Why the period is proven, or how it was observed.
    pub certificate: Option<String>,
    /// The largest N computed.
    pub n: u64,
    /// The largest Grundy value in 0..=N.
    pub max_grundy: Option<u64>,
    /// Where it first occurs.
    pub max_grundy_at: Option<u64>,
    /// P-positions in 0..=N.
    pub p_positions: u64,
    /// The largest P-position in 0..=N.
    pub last_p: Option<u64>,
    /// Take-and-break codes: the sparse-space mask.
    pub rare_mask: Option<String>,
    /// How many positions are rare under it.
    pub rare_count: Option<u64>,
    /// The last rare position.
    pub last_rare: Option<u64>,
    /// Known results about the class's members, `name (source): verdict`, ` | `-separated.
    pub known: Option<String>,
    /// Some known result disagrees with the computed values.
    pub disagrees: bool,
    /// FNV-1a hash (16 hex digits) of the Grundy values at 0..=n.
    pub fingerprint: Option<String>,
    /// The first class computed to the same N with the same values at 0..=N
    /// ([`link_same_values`]): observed, not proven — a hint at an equivalence the
    /// reductions do not prove.
    pub same_values_as: Option<u64>,
    /// Wall time of the row, in seconds (the only column that differs between runs).
    pub seconds: f64,
}

/// The row of one class: N from `budget.start`, doubled (or moved straight to the N at
/// which the family's theorem proves the period seen) until the period is certified, the
/// next N would pass `budget.max`, or its estimated time would pass `budget.seconds`.
/// A step the memory budget `mem` refuses ends the doubling (the row says so); a refusal
/// of the first step, or a cancellation, is an error.
///
/// # Errors
/// [`Error::Core`] for the first step's refusal or a cancellation.
pub fn census_row(
    class: &Class,
    budget: &CensusBudget,
    mem: &Budget,
    obs: &dyn Observer,
) -> Result<CensusRow, Error> {
    let t0 = Instant::now();
    let game = &class.representative;
    let max = budget.max.max(1);
    let mut n = budget.start.clamp(1, max);
    let mut spent = 0.0;
    let mut last: Option<AnalysisData> = None;
    let mut stopped: Option<String> = None;
    loop {
        let est = time_estimate(game, Task::Grundy, n);
        if let (Some(limit), Some(_)) = (budget.seconds, &last) {
            if spent + est > limit {
                stopped = Some(format!(
                    "N = {n} would pass the budget of {limit} estimated seconds"
                ));
                break;
            }
        }
        let data = match analyze(game, n, Sequence::Grundy, mem, obs) {
            Ok(d) => d,
            Err(e)
                if last.is_some()
                    && !matches!(e, Error::Core(heaplab_core::Error::Cancelled { .. })) =>
            {
                stopped = Some(format!("N = {n} refused: {e}"));
                break;
            }
            Err(e) => return Err(e),
        };
        spent += est;
        let a = &data.analysis;
        let certified = a.periodicity.as_ref().is_some_and(|p| p.certified);
        let rule = heaplab_core::CertRule::of(game, Sequence::Grundy);
        let proof_at = match (&a.periodicity, &a.candidate) {
            (Some(p), _) => rule.bound(p.preperiod, p.period, p.saltus),
            (None, Some(c)) => c.prove_at.filter(|&b| b <= 2 * n + 1),
            (None, None) => None,
        };
        last = Some(data);
        if certified || n >= max {
            break;
        }
        let next = proof_at.filter(|&b| b > n).unwrap_or(2 * n + 1);
        n = next.min(max);
    }
    let data = last.expect("the first step ran");
    Ok(row_of(class, &data, stopped, t0.elapsed().as_secs_f64()))
}

/// The row of `class` from the analysis of its representative at the N reached.
fn row_of(class: &Class, data: &AnalysisData, stopped: Option<String>, seconds: f64) -> CensusRow {
    let a = &data.analysis;
    let n = a.max;
    let p = a.periodicity.as_ref();
    let (status, mut verdict) = match p {
        Some(p) if p.certified => ("certified", format!("certified at N = {n}")),
        Some(_) => ("observed", format!("observed at N = {n}")),
        None => ("none", format!("none by N = {n}")),
    };
    if let Some(s) = stopped {
        verdict = format!("{verdict} ({s})");
    }
    let values = data
        .table
        .as_ref()
        .map(|t| t.to_u32_vec())
        .unwrap_or_default();
    let rare = a.rare.as_ref();
    let checks = known_checks(&class.representative, &values);
    let g = a.grundy.as_ref();
    let max_grundy = g.map(|g| u64::from(g.max));
    CensusRow {
        class: class.index,
        item: class.members.first().map_or(0, |m| m.item),
        game: class.representative.to_string(),
        members: class.members.len() as u64,
        member_list: class.member_list(),
        status: status.to_string(),
        verdict,
        preperiod: p.map(|p| p.preperiod),
        period: p.map(|p| p.period),
        saltus: p.map(|p| p.saltus),
        certificate: p.map(|p| p.certificate.clone()),
        n,
        max_grundy,
        max_grundy_at: g.and_then(|g| g.first_occurrence.get(g.max as usize).copied().flatten()),
        p_positions: a.p_positions.count,
        last_p: a.p_positions.largest,
        rare_mask: rare.map(|r| r.mask.clone()),
        rare_count: rare.map(|r| r.count),
        last_rare: rare.and_then(|r| r.last),
        known: (!checks.is_empty()).then(|| {
            checks
                .iter()
                .map(|c| c.text.as_str())
                .collect::<Vec<_>>()
                .join(" | ")
        }),
        disagrees: checks.iter().any(|c| c.disagrees),
        // (the analysed sequence: Grundy values, or outcomes for games that have only those)
        fingerprint: Some(fingerprint(&data.values_i64())),
        same_values_as: None,
        seconds,
    }
}

/// FNV-1a (64 bits) of the values (little-endian bytes), as 16 hex digits.
fn fingerprint(values: &[i64]) -> String {
    fnv1a(values.iter().flat_map(|v| v.to_le_bytes()))
}

/// FNV-1a, 64 bits (Fowler, Noll, Vo), of `bytes`, as 16 hex digits.
fn fnv1a(bytes: impl IntoIterator<Item = u8>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Sets each row's `same_values_as` to the smallest other class computed to the same N
/// with the same fingerprint (the same values at 0..=N, up to a 64-bit hash collision),
/// or None. Rows of several shards are linked by [`merge`]; a census written in one run
/// is linked before it is written.
pub fn link_same_values(rows: &mut [CensusRow]) {
    let mut first: std::collections::HashMap<(u64, String), u64> = Default::default();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by_key(|&i| rows[i].class);
    for &i in &order {
        if let Some(f) = &rows[i].fingerprint {
            first.entry((rows[i].n, f.clone())).or_insert(rows[i].class);
        }
    }
    for r in rows.iter_mut() {
        r.same_values_as = r
            .fingerprint
            .as_ref()
            .and_then(|f| first.get(&(r.n, f.clone())).copied())
            .filter(|&c| c != r.class);
    }
}

/// The row of a class whose computation failed: status `failed`, the error as its verdict.
pub fn failed_row(class: &Class, error: &str) -> CensusRow {
    CensusRow {
        class: class.index,
        item: class.members.first().map_or(0, |m| m.item),
        game: class.representative.to_string(),
        members: class.members.len() as u64,
        member_list: class.member_list(),
        status: "failed".into(),
        verdict: error.to_string(),
        preperiod: None,
        period: None,
        saltus: None,
        certificate: None,
        n: 0,
        max_grundy: None,
        max_grundy_at: None,
        p_positions: 0,
        last_p: None,
        rare_mask: None,
        rare_count: None,
        last_rare: None,
        known: None,
        disagrees: false,
        fingerprint: None,
        same_values_as: None,
        seconds: 0.0,
    }
}

/// The rows of `classes`, in class order, computed in parallel (rayon), each class with
/// `mem` divided among the threads. `done` sees each row as it is finished (for journals
/// and progress); a class that fails becomes a `failed` row.
///
/// # Errors
/// A cancellation by `obs`.
pub fn census(
    classes: &[Class],
    budget: &CensusBudget,
    mem: &Budget,
    obs: &dyn Observer,
    done: &(dyn Fn(&CensusRow) + Sync),
) -> Result<Vec<CensusRow>, Error> {
    let threads = rayon::current_num_threads() as u64;
    let each = Budget {
        memory: mem.memory / threads.max(1),
        ..*mem
    };
    let rows: Vec<CensusRow> = classes
        .par_iter()
        .map(|c| {
            let row = match census_row(c, budget, &each, obs) {
                Ok(r) => r,
                Err(e @ Error::Core(heaplab_core::Error::Cancelled { .. })) => return Err(e),
                Err(e) => failed_row(c, &e.to_string()),
            };
            done(&row);
            Ok(row)
        })
        .collect::<Result<_, Error>>()?;
    Ok(rows)
}

/// Why shards cannot be merged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Two parts of different censuses (space, budget or version).
    #[error("the parts belong to different censuses: `{0}` and `{1}`")]
    Different(String, String),
    /// Two parts disagree on a class's row.
    #[error("two parts disagree on class {0} (column `{1}`)")]
    Conflict(u64, String),
    /// Two parts of one census with different class counts.
    #[error("the parts disagree on the census's number of classes ({0} and {1})")]
    Classes(u64, u64),
    /// A row of a class the census does not have.
    #[error("a row of class {0}, but the census has {1} classes")]
    NoSuchClass(u64, u64),
    /// Nothing to merge.
    #[error("no census rows to merge")]
    Empty,
}

/// One shard's (or census's) rows with its identity and class count.
#[derive(Debug, Clone, PartialEq)]
pub struct CensusPart {
    /// The census's identity: space, budget and heaplab version ([`census_id`]).
    pub id: String,
    /// How many classes the whole census has.
    pub classes: u64,
    /// Whether the rows' `seconds` were measured (false for a file written without the
    /// column: its rows read 0).
    pub timed: bool,
    /// The rows.
    pub rows: Vec<CensusRow>,
}

/// The identity every row of a census carries: `heaplab VERSION | SPACE | BUDGET`.
pub fn census_id(space: &str, budget: &CensusBudget) -> String {
    format!(
        "heaplab {} | {space} | {}",
        env!("CARGO_PKG_VERSION"),
        budget.describe()
    )
}

/// Merges parts of one census: rows by class, sorted; a row found twice must agree (apart
/// from `seconds`, the first kept), so merging is idempotent. Returns the rows and the
/// class indices no part has.
///
/// # Errors
/// [`MergeError`] for parts of different censuses, conflicting rows, or no parts.
pub fn merge(parts: Vec<CensusPart>) -> Result<(CensusPart, Vec<u64>), MergeError> {
    // parts without rows (an empty shard) belong to any census
    let timed = parts.iter().all(|p| p.timed);
    let parts: Vec<CensusPart> = parts.into_iter().filter(|p| !p.rows.is_empty()).collect();
    let first = parts.first().ok_or(MergeError::Empty)?;
    let (id, classes) = (first.id.clone(), first.classes);
    let mut rows: std::collections::BTreeMap<u64, CensusRow> = Default::default();
    for p in parts {
        if p.id != id {
            return Err(MergeError::Different(id, p.id));
        }
        if p.classes != classes {
            return Err(MergeError::Classes(classes, p.classes));
        }
        for r in p.rows {
            if r.class >= classes {
                return Err(MergeError::NoSuchClass(r.class, classes));
            }
            match rows.get(&r.class) {
                Some(old) => {
                    let same = CensusRow {
                        seconds: old.seconds,
                        same_values_as: old.same_values_as,
                        ..r.clone()
                    };
                    if same != *old {
                        return Err(MergeError::Conflict(r.class, first_difference(old, &same)));
                    }
                }
                None => {
                    rows.insert(r.class, r);
                }
            }
        }
    }
    let missing = (0..classes).filter(|c| !rows.contains_key(c)).collect();
    let mut rows: Vec<CensusRow> = rows.into_values().collect();
    link_same_values(&mut rows);
    Ok((
        CensusPart {
            id,
            classes,
            timed,
            rows,
        },
        missing,
    ))
}

/// The first field in which two rows differ.
fn first_difference(a: &CensusRow, b: &CensusRow) -> String {
    let (a, b) = (
        serde_json::to_value(a).unwrap_or_default(),
        serde_json::to_value(b).unwrap_or_default(),
    );
    a.as_object()
        .and_then(|a| {
            a.iter()
                .find(|(k, v)| b.get(k.as_str()) != Some(*v))
                .map(|(k, _)| k.clone())
        })
        .unwrap_or_default()
}

impl CensusRow {
    /// The row's check: FNV-1a (16 hex digits) of the census identity, its class count and
    /// the row (as JSON, without `seconds` and `same_values_as`, which differ between runs
    /// and shards). Files and journals carry it, so a row changed after it was written is
    /// found when it is read back.
    pub fn check(&self, census: &str, classes: u64) -> String {
        let bare = CensusRow {
            seconds: 0.0,
            same_values_as: None,
            ..self.clone()
        };
        let text = format!(
            "{census}\n{classes}\n{}",
            serde_json::to_string(&bare).unwrap_or_default()
        );
        fnv1a(text.bytes())
    }

    /// Checks a row read back from a file or a journal: a known status; the game, the
    /// members and (unless failed) the fingerprint present; a period with preperiod and
    /// saltus exactly when one was found.
    ///
    /// # Errors
    /// The first problem, in a few words.
    pub fn validate(&self) -> Result<(), String> {
        let bad = |what: &str| Err(format!("class {}: {what}", self.class));
        if !["certified", "observed", "none", "failed"].contains(&self.status.as_str()) {
            return bad(&format!("unknown status `{}`", self.status));
        }
        if self.game.is_empty() || self.member_list.is_empty() || self.members == 0 {
            return bad("no game or no members");
        }
        if self.status == "failed" {
            return Ok(());
        }
        if self.fingerprint.as_deref().is_none_or(|f| f.len() != 16) {
            return bad("no fingerprint (a cut or edited row?)");
        }
        let periodic = self.status != "none";
        if periodic != (self.period.is_some() && self.preperiod.is_some() && self.saltus.is_some())
        {
            return bad(&format!(
                "status `{}` with a period missing or extra",
                self.status
            ));
        }
        if self.period == Some(0) || self.n == 0 {
            return bad("period or N of 0");
        }
        Ok(())
    }
}

/// One column of a census table, in the type every front end writes it with.
#[derive(Debug, Clone, PartialEq)]
pub enum CensusColumn {
    /// Unsigned integers (null: none).
    U64(Vec<Option<u64>>),
    /// Signed integers (the saltus).
    I64(Vec<Option<i64>>),
    /// Text.
    Str(Vec<Option<String>>),
    /// Flags.
    Bool(Vec<bool>),
    /// Seconds.
    F64(Vec<f64>),
}

/// The columns of a census table, in order: `census` (its identity), `classes`, then
/// every [`CensusRow`] field (`seconds` last, left out when `seconds` is false so that
/// two runs give the same bytes). The CLI's files and the Python tables are both built
/// from this list.
pub fn census_columns(part: &CensusPart, seconds: bool) -> Vec<(&'static str, CensusColumn)> {
    use CensusColumn::*;
    let rows = &part.rows;
    let u = |f: &dyn Fn(&CensusRow) -> Option<u64>| U64(rows.iter().map(f).collect());
    let s = |f: &dyn Fn(&CensusRow) -> Option<String>| Str(rows.iter().map(f).collect());
    let mut cols = vec![
        ("census", s(&|_| Some(part.id.clone()))),
        ("classes", u(&|_| Some(part.classes))),
        ("class", u(&|r| Some(r.class))),
        ("item", u(&|r| Some(r.item))),
        ("game", s(&|r| Some(r.game.clone()))),
        ("members", u(&|r| Some(r.members))),
        ("member_list", s(&|r| Some(r.member_list.clone()))),
        ("status", s(&|r| Some(r.status.clone()))),
        ("verdict", s(&|r| Some(r.verdict.clone()))),
        ("preperiod", u(&|r| r.preperiod)),
        ("period", u(&|r| r.period)),
        ("saltus", I64(rows.iter().map(|r| r.saltus).collect())),
        ("certificate", s(&|r| r.certificate.clone())),
        ("n", u(&|r| Some(r.n))),
        ("max_grundy", u(&|r| r.max_grundy)),
        ("max_grundy_at", u(&|r| r.max_grundy_at)),
        ("p_positions", u(&|r| Some(r.p_positions))),
        ("last_p", u(&|r| r.last_p)),
        ("rare_mask", s(&|r| r.rare_mask.clone())),
        ("rare_count", u(&|r| r.rare_count)),
        ("last_rare", u(&|r| r.last_rare)),
        ("known", s(&|r| r.known.clone())),
        (
            "disagrees",
            Bool(rows.iter().map(|r| r.disagrees).collect()),
        ),
        ("fingerprint", s(&|r| r.fingerprint.clone())),
        ("same_values_as", u(&|r| r.same_values_as)),
        ("check", s(&|r| Some(r.check(&part.id, part.classes)))),
    ];
    if seconds {
        cols.push(("seconds", F64(rows.iter().map(|r| r.seconds).collect())));
    }
    cols
}

#[cfg(feature = "polars")]
/// A census as a frame: the columns of [`census_columns`].
///
/// # Errors
/// From polars.
pub fn census_frame(part: &CensusPart, seconds: bool) -> PolarsResult<DataFrame> {
    columns_frame(census_columns(part, seconds), part.rows.len())
}

#[cfg(feature = "polars")]
/// Named columns (each `height` long) as a frame: how [`census_columns`],
/// [`crate::game_columns`] and [`crate::member_columns`] become files.
///
/// # Errors
/// A polars error (columns of different lengths, or two with one name).
pub fn columns_frame<S: AsRef<str>>(
    cols: Vec<(S, CensusColumn)>,
    height: usize,
) -> PolarsResult<DataFrame> {
    let cols = cols
        .into_iter()
        .map(|(name, c)| {
            let name = name.as_ref();
            match c {
                CensusColumn::U64(v) => Column::new(name.into(), v),
                CensusColumn::I64(v) => Column::new(name.into(), v),
                CensusColumn::Str(v) => Column::new(name.into(), v),
                CensusColumn::Bool(v) => Column::new(name.into(), v),
                CensusColumn::F64(v) => Column::new(name.into(), v),
            }
        })
        .collect();
    DataFrame::new(height, cols)
}

#[cfg(feature = "polars")]
/// A census back from a frame written by [`census_frame`] (with or without `seconds`).
///
/// # Errors
/// A missing column or a column of another type, named; a frame of several censuses.
pub fn census_from_frame(df: &DataFrame) -> Result<CensusPart, String> {
    let col = |name: &str| {
        df.column(name)
            .map_err(|_| format!("not a census: no column `{name}`"))
    };
    let u = |name: &str| -> Result<Vec<Option<u64>>, String> {
        let c = col(name)?
            .cast(&DataType::UInt64)
            .map_err(|e| format!("column `{name}`: {e}"))?;
        let ca = c.u64().map_err(|e| format!("column `{name}`: {e}"))?;
        Ok((0..ca.len()).map(|i| ca.get(i)).collect())
    };
    let s = |name: &str| -> Result<Vec<Option<String>>, String> {
        let ca = col(name)?
            .str()
            .map_err(|e| format!("column `{name}`: {e}"))?;
        Ok((0..ca.len()).map(|i| ca.get(i).map(String::from)).collect())
    };
    let req = |v: Option<u64>, name: &str| {
        v.ok_or_else(|| format!("column `{name}` has a value that is not a count"))
    };
    let ids = s("census")?;
    let classes = u("classes")?;
    let id = ids.first().cloned().flatten().unwrap_or_default();
    if ids.iter().any(|x| x.as_deref() != Some(id.as_str())) {
        return Err("the file holds rows of several censuses".into());
    }
    let total = classes.first().copied().flatten().unwrap_or(0);
    if classes.iter().any(|c| *c != Some(total)) {
        return Err("column `classes` differs between rows".into());
    }
    if df.height() > 0 && id.is_empty() {
        return Err("column `census` is empty".into());
    }
    if total > heaplab_core::census::MAX_ITEMS {
        return Err(format!(
            "column `classes` says {total}, more than a census can have ({})",
            heaplab_core::census::MAX_ITEMS
        ));
    }
    let (class, item, game, members, member_list) = (
        u("class")?,
        u("item")?,
        s("game")?,
        u("members")?,
        s("member_list")?,
    );
    let (status, verdict, preperiod, period) =
        (s("status")?, s("verdict")?, u("preperiod")?, u("period")?);
    let c = col("saltus")?
        .cast(&DataType::Int64)
        .map_err(|e| e.to_string())?;
    let ca = c.i64().map_err(|e| e.to_string())?;
    let saltus: Vec<Option<i64>> = (0..ca.len()).map(|i| ca.get(i)).collect();
    let (certificate, n, max_grundy, max_grundy_at) = (
        s("certificate")?,
        u("n")?,
        u("max_grundy")?,
        u("max_grundy_at")?,
    );
    let (p_positions, last_p, rare_mask, rare_count, last_rare, known) = (
        u("p_positions")?,
        u("last_p")?,
        s("rare_mask")?,
        u("rare_count")?,
        u("last_rare")?,
        s("known")?,
    );
    let (fingerprint, same_values_as) = (s("fingerprint")?, u("same_values_as")?);
    let d = col("disagrees")?;
    let disagrees: Vec<Option<bool>> = if d.dtype() == &DataType::String {
        s("disagrees")?
            .into_iter()
            .map(|x| x.map(|t| t == "true"))
            .collect()
    } else {
        let ca = d.bool().map_err(|e| e.to_string())?;
        (0..ca.len()).map(|i| ca.get(i)).collect()
    };
    let timed = df.column("seconds").is_ok();
    let seconds: Vec<Option<f64>> = match df.column("seconds") {
        Ok(c) => {
            let c = c.cast(&DataType::Float64).map_err(|e| e.to_string())?;
            let ca = c.f64().map_err(|e| e.to_string())?;
            (0..ca.len()).map(|i| ca.get(i)).collect()
        }
        Err(_) => vec![Some(0.0); df.height()],
    };
    let mut rows = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        rows.push(CensusRow {
            class: req(class[i], "class")?,
            item: req(item[i], "item")?,
            game: game[i].clone().unwrap_or_default(),
            members: req(members[i], "members")?,
            member_list: member_list[i].clone().unwrap_or_default(),
            status: status[i].clone().unwrap_or_default(),
            verdict: verdict[i].clone().unwrap_or_default(),
            preperiod: preperiod[i],
            period: period[i],
            saltus: saltus[i],
            certificate: certificate[i].clone(),
            n: req(n[i], "n")?,
            max_grundy: max_grundy[i],
            max_grundy_at: max_grundy_at[i],
            p_positions: req(p_positions[i], "p_positions")?,
            last_p: last_p[i],
            rare_mask: rare_mask[i].clone(),
            rare_count: rare_count[i],
            last_rare: last_rare[i],
            known: known[i].clone(),
            disagrees: disagrees[i].unwrap_or(false),
            fingerprint: fingerprint[i].clone(),
            same_values_as: same_values_as[i],
            seconds: seconds[i].unwrap_or(0.0),
        });
    }
    let checks = s("check")?;
    for (r, c) in rows.iter().zip(&checks) {
        if r.class >= total {
            return Err(format!(
                "a row of class {}, but `classes` is {total}",
                r.class
            ));
        }
        r.validate()?;
        if c.as_deref() != Some(r.check(&id, total).as_str()) {
            return Err(format!(
                "the row of class {} was changed after it was written (its `check` does not \
                 match)",
                r.class
            ));
        }
    }
    Ok(CensusPart {
        id,
        classes: total,
        timed,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use heaplab_core::{CensusSpace, Game, Silent};

    fn space(games: &[&str], w: &str) -> CensusSpace {
        let g: Vec<String> = games.iter().map(|s| s.to_string()).collect();
        CensusSpace::parse(&g, &[], w).unwrap()
    }

    fn run(s: &CensusSpace, b: &CensusBudget) -> Vec<CensusRow> {
        census(
            &s.classes().unwrap(),
            b,
            &Budget::new(1 << 32),
            &Silent,
            &|_| {},
        )
        .unwrap()
    }

    #[test]
    fn three_move_sets_are_all_certified_and_equal_analyze_alone() {
        let s = space(&["sub{a,b,c}"], "1 <= a < b < c <= 20");
        let rows = run(&s, &CensusBudget::default());
        let members: u64 = rows.iter().map(|r| r.members).sum();
        assert_eq!(members, 1140);
        assert!(rows.len() < 1140, "deduplication merged nothing");
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r.class, i as u64);
            assert_eq!(r.status, "certified", "{}: {}", r.game, r.verdict);
            let a = analyze(
                &Game::parse(&r.game).unwrap(),
                r.n,
                Sequence::Grundy,
                &Budget::unlimited(),
                &Silent,
            )
            .unwrap()
            .analysis;
            let p = a.periodicity.unwrap();
            assert_eq!(
                (r.preperiod, r.period, r.saltus, r.p_positions, r.last_p),
                (
                    Some(p.preperiod),
                    Some(p.period),
                    Some(p.saltus),
                    a.p_positions.count,
                    a.p_positions.largest
                ),
                "{}",
                r.game
            );
            assert_eq!(r.max_grundy, a.grundy.map(|g| u64::from(g.max)));
        }
        // sub{1,2,3}: the Bachet game, period 4; sub{2,4,6} is in its class
        let r = rows.iter().find(|r| r.game == "sub{1,2,3}").unwrap();
        assert_eq!((r.preperiod, r.period), (Some(0), Some(4)));
        assert!(r.member_list.contains("sub{2,4,6} (scale 2)"));
        assert_eq!(r.verdict, "certified at N = 256");
    }

    #[test]
    fn octal_rows_name_the_known_games_and_the_rare_values() {
        let s = space(&["0.?7", "0.6"], "");
        let b = CensusBudget {
            start: 256,
            max: 4096,
            seconds: None,
        };
        let rows = run(&s, &b);
        let kayles = rows.iter().find(|r| r.game == "0.77").unwrap();
        assert_eq!(kayles.status, "certified");
        assert_eq!((kayles.preperiod, kayles.period), (Some(71), Some(12)));
        let k = kayles.known.as_deref().unwrap();
        assert!(
            k.starts_with("Kayles 0.77 (") && k.ends_with("agrees"),
            "{k}"
        );
        let dawson = rows.iter().find(|r| r.game == "0.137").unwrap();
        assert!(
            dawson.member_list.contains("0.07 (shift 1)"),
            "{}",
            dawson.member_list
        );
        assert!(dawson
            .known
            .as_deref()
            .unwrap()
            .contains("Dawson's Kayles 0.07"));
        // Officers: no period to 4096, as published
        let officers = rows.iter().find(|r| r.game == "0.6").unwrap();
        assert_eq!(officers.status, "none");
        assert_eq!(officers.verdict, "none by N = 4096");
        assert!(officers
            .known
            .as_deref()
            .unwrap()
            .contains("unsolved as published"));
        assert!(officers.rare_mask.is_some() && officers.rare_count.is_some());
        // the rare count follows from the mask as the README states it
        let mask = officers.rare_mask.clone().unwrap();
        let bits = u32::from_str_radix(
            mask.split("0x").nth(1).unwrap().split(',').next().unwrap(),
            16,
        )
        .unwrap();
        let class = u32::from(mask.ends_with('1'));
        let domain = mask.starts_with("domain");
        let g = heaplab_core::grundy_table(&Game::parse("0.6").unwrap(), officers.n, &Silent)
            .unwrap()
            .to_u32_vec();
        let rare: Vec<u64> = (1..g.len())
            .filter(|&n| {
                ((g[n] & bits).count_ones() & 1) ^ if domain { (n & 1) as u32 } else { 0 } == class
            })
            .map(|n| n as u64)
            .collect();
        assert_eq!(officers.rare_count, Some(rare.len() as u64));
        assert_eq!(officers.last_rare, rare.last().copied());
        assert!(rows.iter().all(|r| !r.disagrees));
        // a time budget: the steps stop where the estimate would pass it
        let b = CensusBudget {
            seconds: Some(0.0),
            ..b
        };
        let officers = run(&space(&["0.6"], ""), &b).remove(0);
        assert_eq!(officers.n, 256);
        assert!(
            officers
                .verdict
                .starts_with("none by N = 256 (N = 513 would pass the budget"),
            "{}",
            officers.verdict
        );
    }

    #[test]
    fn classes_with_the_same_first_values_are_linked() {
        // 0.161 and 0.36 agree to heap 518 (Flammenkamp's tables had them equal; they
        // differ at 519): to N = 256 they share a fingerprint, linked as observed only
        let s = space(&["0.161", "0.36", "0.77"], "");
        let b = CensusBudget {
            start: 256,
            max: 256,
            seconds: None,
        };
        let mut rows = run(&s, &b);
        link_same_values(&mut rows);
        assert_eq!(rows[0].fingerprint, rows[1].fingerprint);
        assert_ne!(rows[0].fingerprint, rows[2].fingerprint);
        assert_eq!(
            rows.iter().map(|r| r.same_values_as).collect::<Vec<_>>(),
            [None, Some(0), None]
        );
        // games with outcomes only are fingerprinted by their outcomes
        let mut rows = run(&space(&["seed(sub{1,a}; NN)"], "2 <= a <= 4"), &b);
        link_same_values(&mut rows);
        assert!(rows.iter().all(|r| r.same_values_as.is_none()), "{rows:?}");
        let b = CensusBudget {
            start: 600,
            max: 600,
            ..b
        };
        let mut rows = run(&s, &b);
        link_same_values(&mut rows);
        assert!(rows.iter().all(|r| r.same_values_as.is_none()));
    }

    #[test]
    fn parts_merge_idempotently_and_check_their_census() {
        let s = space(&["sub{1,a}"], "2 <= a <= 30");
        let b = CensusBudget::default();
        let id = census_id(&s.describe(), &b);
        let rows = run(&s, &b);
        let n = rows.len() as u64;
        let part = |k: u64| CensusPart {
            id: id.clone(),
            classes: n,
            timed: true,
            rows: rows.iter().filter(|r| r.class % 3 == k).cloned().collect(),
        };
        let (m, missing) = merge(vec![part(2), part(0), part(1)]).unwrap();
        assert!(missing.is_empty());
        assert_eq!(m.rows, rows);
        let (again, _) = merge(vec![m.clone(), part(1)]).unwrap();
        assert_eq!(again, m);
        let (_, missing) = merge(vec![part(0), part(1)]).unwrap();
        assert_eq!(missing, (0..n).filter(|c| c % 3 == 2).collect::<Vec<_>>());
        let mut other = part(1);
        other.id = census_id(&s.describe(), &CensusBudget { max: 99, ..b });
        assert!(matches!(
            merge(vec![part(0), other]),
            Err(MergeError::Different(..))
        ));
        let mut bad = part(1);
        bad.rows[0].period = Some(1234);
        assert_eq!(
            merge(vec![part(1), bad]),
            Err(MergeError::Conflict(rows[1].class, "period".into()))
        );
        let mut more = part(2);
        more.classes += 1;
        assert_eq!(
            merge(vec![part(1), more]),
            Err(MergeError::Classes(n, n + 1))
        );
        let empty = CensusPart {
            id: String::new(),
            classes: 0,
            timed: true,
            rows: vec![],
        };
        assert_eq!(
            merge(vec![empty.clone(), part(0)]).unwrap().0.rows.len(),
            part(0).rows.len()
        );
        assert_eq!(merge(vec![empty]), Err(MergeError::Empty));
        for r in &rows {
            r.validate().unwrap();
        }
        let mut cut = rows[0].clone();
        cut.fingerprint = None;
        assert!(cut.validate().unwrap_err().contains("no fingerprint"));
        cut = rows[0].clone();
        cut.status = "banana".into();
        assert!(cut.validate().unwrap_err().contains("unknown status"));
        cut = rows[0].clone();
        cut.period = None;
        assert!(cut.validate().unwrap_err().contains("period missing"));
        // a frame and back
        let df = census_frame(&m, true).unwrap();
        assert_eq!(census_from_frame(&df).unwrap(), m);
        let df = census_frame(&m, false).unwrap();
        assert!(df.column("seconds").is_err());
        // a row changed after it was written is found by its check
        let mut edited = df.clone();
        let period: Vec<Option<u64>> = (0..edited.height())
            .map(|i| if i == 1 { Some(99) } else { m.rows[i].period })
            .collect();
        edited
            .replace("period", Column::new("period".into(), period))
            .unwrap();
        let e = census_from_frame(&edited).unwrap_err();
        assert!(
            e.contains("class 1 was changed after it was written"),
            "{e}"
        );
    }
}
