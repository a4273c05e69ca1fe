//! `heaplab._heaplab`: the Rust half of the Python package `heaplab`.
//!
//! Every function here is one library call of `heaplab-core` or `heaplab-analysis` with the
//! GIL released while it runs; the Python half (`python/heaplab/`) turns the records into
//! dataclasses and documents the API. Arrays are handed to NumPy without a copy (the
//! engine's `Vec` becomes the array's buffer) and tables cross as Arrow through the
//! PyCapsule interface (`__arrow_c_stream__`), so `polars.from_arrow` and `pyarrow.table`
//! take them without a copy either. No polars in here.

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{
    ArrayRef, BooleanArray, RecordBatch, RecordBatchIterator, StringArray, UInt16Array,
    UInt32Array, UInt64Array, UInt8Array,
};
use arrow_buffer::{BooleanBuffer, Buffer, ScalarBuffer};
use heaplab_analysis::{
    analyze, census, census_columns, census_id, failed_row, game_census_id, game_columns,
    link_same_values, member_columns, plan_check, sweep, CensusBudget, CensusColumn, CensusPart,
    CensusRow, ClaimFunction, ClaimValue, Error as AnalysisError, GameTally, On, ParamColumns,
};
use heaplab_core::census::games::{count_items, game_census, GameCensusOptions, GameRow};
use heaplab_core::census::window::WINDOW_LIMIT;
use heaplab_core::{
    count_sums, decide, decide_sum, p_position_list, plan, solve, tables, Budget, CensusError,
    CensusSpace, Class, Error, Game, GrundyTable, Observer, PPositionStream, Sequence, Space, Sum,
    Task, Variant, FAMILIES,
};
use numpy::{IntoPyArray, PyArray1, PyReadonlyArray1};
use pyo3::exceptions::{PyException, PyKeyboardInterrupt, PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod beyond;
mod resume;

// module `heaplab`: the package re-exports them, so they print as heaplab.RefusedError and
// pickle by that name
pyo3::create_exception!(
    heaplab,
    HeaplabError,
    PyException,
    "An error of heaplab's engines: a run that was cancelled, or a state it cannot use."
);
pyo3::create_exception!(
    heaplab,
    RefusedError,
    HeaplabError,
    "A run refused up front: it needs more memory than this machine has free, or more \
     than a day of work. The message names the estimate and the largest N that fits."
);

/// The budget of this machine: 80% of the memory available now, a day of work (as the
/// command line's).
fn budget() -> Budget {
    let sys = sysinfo::System::new_with_specifics(
        sysinfo::RefreshKind::nothing().with_memory(sysinfo::MemoryRefreshKind::everything()),
    );
    Budget::new(sys.available_memory() / 10 * 8)
}

/// How often the waiting thread looks at Ctrl-C, and calls the progress callback.
const SIGNAL_EVERY: Duration = Duration::from_millis(50);
const CALLBACK_EVERY: Duration = Duration::from_millis(200);

/// Stack of the thread an engine call runs on (as a main thread's).
const WORKER_STACK: usize = 64 << 20;

/// The observer of one engine call. The engine runs on a worker thread and only records
/// its progress here and reads the stop flag; the calling thread waits, and every 50 ms
/// takes the GIL briefly to run Python's signal handlers (so Ctrl-C raises
/// `KeyboardInterrupt` within a second, whichever threads the engine uses) and, every
/// 200 ms, the caller's `progress(done, total)`. An exception from either sets the stop
/// flag and is raised once the engine has returned.
struct PyWatch {
    callback: Option<Py<PyAny>>,
    done: AtomicU64,
    total: AtomicU64,
    stop: AtomicBool,
    state: Mutex<WatchState>,
}

struct WatchState {
    last_call: Option<Instant>,
    /// The progress last reported, to report each once.
    reported: (u64, u64),
    error: Option<PyErr>,
}

impl PyWatch {
    fn new(callback: Option<Py<PyAny>>) -> PyWatch {
        PyWatch {
            callback,
            done: AtomicU64::new(0),
            total: AtomicU64::new(0),
            stop: AtomicBool::new(false),
            state: Mutex::new(WatchState {
                last_call: None,
                reported: (0, 0),
                error: None,
            }),
        }
    }

    /// On the calling thread while the engine runs: signals, then the callback when due.
    fn poll(&self) {
        let Ok(mut st) = self.state.lock() else {
            self.stop.store(true, Ordering::Relaxed);
            return;
        };
        if st.error.is_some() {
            return;
        }
        let now = Instant::now();
        let progress = (
            self.done.load(Ordering::Relaxed),
            self.total.load(Ordering::Relaxed),
        );
        let call = self.callback.is_some()
            && progress.1 > 0
            && progress != st.reported
            && st.last_call.is_none_or(|t| now - t >= CALLBACK_EVERY);
        let result = Python::attach(|py| -> PyResult<()> {
            py.check_signals()?;
            if let (true, Some(cb)) = (call, &self.callback) {
                cb.call1(py, progress)?;
            }
            Ok(())
        });
        if call {
            st.last_call = Some(now);
            st.reported = progress;
        }
        if let Err(e) = result {
            st.error = Some(e);
            self.stop.store(true, Ordering::Relaxed);
        }
    }

    /// After a run that finished: the callback's last call, `progress(total, total)`.
    fn finish(&self, py: Python<'_>) -> PyResult<()> {
        let total = self.total.load(Ordering::Relaxed);
        match &self.callback {
            Some(cb) if total > 0 => cb.call1(py, (total, total)).map(drop),
            _ => Ok(()),
        }
    }

    /// The exception that stopped the run, if one did.
    fn take_error(&self) -> Option<PyErr> {
        self.state.lock().ok().and_then(|mut s| s.error.take())
    }
}

impl Observer for PyWatch {
    fn observe(&self, done: u64, total: u64) -> ControlFlow<()> {
        self.done.store(done, Ordering::Relaxed);
        self.total.store(total, Ordering::Relaxed);
        if self.stop.load(Ordering::Relaxed) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// An engine error as a Python exception: bad sizes `ValueError`, memory `MemoryError`,
/// refusals [`RefusedError`], the rest [`HeaplabError`]; one line each.
struct Raised(PyErr);

impl From<Raised> for PyErr {
    fn from(r: Raised) -> PyErr {
        r.0
    }
}

impl From<Error> for Raised {
    fn from(e: Error) -> Raised {
        let msg = e.to_string();
        Raised(match e {
            Error::TooLarge { .. } | Error::TooManyMoves { .. } => PyValueError::new_err(msg),
            Error::OutOfMemory { .. } => PyMemoryError::new_err(msg),
            Error::Refused(_) => RefusedError::new_err(msg),
            Error::Cancelled { .. } => PyKeyboardInterrupt::new_err(msg),
            _ => HeaplabError::new_err(msg),
        })
    }
}

impl From<AnalysisError> for Raised {
    fn from(e: AnalysisError) -> Raised {
        match e {
            AnalysisError::Core(e) => e.into(),
            AnalysisError::Space(e) => Raised(PyValueError::new_err(e.to_string())),
            other => Raised(HeaplabError::new_err(other.to_string())),
        }
    }
}

/// Runs `f` with the GIL released, observed by a [`PyWatch`] around `progress`, and makes
/// the callback's last call `progress(total, total)` when it has finished.
fn run<T: Send, E: Into<Raised> + Send>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    f: impl FnOnce(&PyWatch) -> Result<T, E> + Send,
) -> PyResult<T> {
    let watch = PyWatch::new(progress);
    let out = run_watched(py, &watch, f)?;
    watch.finish(py)?;
    Ok(out)
}

/// Runs `f` on a worker thread with the GIL released while this thread polls `watch`
/// (Ctrl-C, the progress callback) until the worker is done.
fn run_watched<T: Send, E: Into<Raised> + Send>(
    py: Python<'_>,
    watch: &PyWatch,
    f: impl FnOnce(&PyWatch) -> Result<T, E> + Send,
) -> PyResult<T> {
    let out = py.detach(|| {
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel::<()>();
            let worker = std::thread::Builder::new()
                .name("heaplab".into())
                .stack_size(WORKER_STACK)
                .spawn_scoped(scope, move || {
                    let out = f(watch);
                    let _ = tx.send(());
                    out
                });
            let worker = match worker {
                Ok(w) => w,
                Err(e) => return Err(format!("cannot start the engine's thread: {e}")),
            };
            while let Err(RecvTimeoutError::Timeout) = rx.recv_timeout(SIGNAL_EVERY) {
                watch.poll();
            }
            worker
                .join()
                .map_err(|_| "the engine stopped on an internal error (a panic)".to_string())
        })
    });
    if let Some(e) = watch.take_error() {
        // a progress callback or Ctrl-C stopped the run (or it finished as they fired)
        return Err(e);
    }
    out.map_err(HeaplabError::new_err)?
        .map_err(|e| PyErr::from(e.into()))
}

/// A spec's game, or `ValueError` with the parser's one-line message.
fn parse_game(spec: &str) -> PyResult<Game> {
    Game::parse(spec).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A record as JSON text for the Python half (serde's output of our own types).
fn to_json<T: serde::Serialize>(v: &T) -> PyResult<String> {
    serde_json::to_string(v).map_err(|e| HeaplabError::new_err(e.to_string()))
}

/// A game: its spec parsed once.
#[pyclass(frozen, module = "heaplab._heaplab")]
struct RawGame {
    game: Game,
}

#[pymethods]
impl RawGame {
    #[new]
    #[pyo3(signature = (spec, play=None))]
    fn new(spec: &str, play: Option<&str>) -> PyResult<RawGame> {
        let game = parse_game(spec)?;
        let game = match play {
            None => game,
            Some("normal") if game.play() == heaplab_core::Play::Misere => {
                return Err(PyValueError::new_err(format!(
                    "play=\"normal\" contradicts the spec `{game}` (misère play): drop one of them"
                )))
            }
            Some("normal") => game,
            Some("misere" | "misère") => match game.misere_unsupported() {
                Some(why) => return Err(PyValueError::new_err(why)),
                None => game.with_play(heaplab_core::Play::Misere),
            },
            Some(p) => {
                return Err(PyValueError::new_err(format!(
                    "play is \"normal\" or \"misere\", not {p:?}"
                )))
            }
        };
        Ok(RawGame { game })
    }

    /// The canonical spec.
    #[getter]
    fn spec(&self) -> String {
        self.game.to_string()
    }

    /// g(0..=n_max) in the smallest unsigned dtype (the engine's buffer, not a copy).
    #[pyo3(signature = (n_max, progress=None))]
    fn grundy<'py>(
        &self,
        py: Python<'py>,
        n_max: u64,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let game = &self.game;
        let t = run(py, progress, |w| -> Result<GrundyTable, Error> {
            let p = plan(game, Task::Grundy, n_max, &budget())?;
            w.planned(&p);
            p.grundy(w)
        })?;
        Ok(grundy_array(py, t))
    }

    /// Outcomes of 0..=n_max as one bool a position (true = N-position).
    #[pyo3(signature = (n_max, progress=None))]
    fn outcomes<'py>(
        &self,
        py: Python<'py>,
        n_max: u64,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let game = &self.game;
        // one byte a position for the bool array, beside the engine's bits
        let rows = n_max.saturating_add(1);
        hand_over_fits("an array of", rows, rows.saturating_add(rows / 8))?;
        let (o, _) = run(py, progress, |w| tables(game, n_max, false, &budget(), w))?;
        let bits = o.into_bits();
        let v: Vec<bool> = py.detach(|| bits.iter().by_vals().collect());
        Ok(v.into_pyarray(py))
    }

    /// The P-positions in 0..=n_max, increasing; with `checkpoint`, resumable
    /// ([`resume::Saving::losers`]: the P-positions spooled to `checkpoint.spool`, the
    /// stream saved to `checkpoint` every `checkpoint_every` seconds at most).
    #[pyo3(signature = (n_max, progress=None, checkpoint=None, checkpoint_every=300.0))]
    fn losers<'py>(
        &self,
        py: Python<'py>,
        n_max: u64,
        progress: Option<Py<PyAny>>,
        checkpoint: Option<PathBuf>,
        checkpoint_every: f64,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let game = &self.game;
        let Some(cp) = checkpoint else {
            let ps = run(py, progress, |w| p_position_list(game, n_max, &budget(), w))?;
            return Ok(ps.into_pyarray(py));
        };
        let saving = resume::Saving::take(cp, checkpoint_every)?;
        let ps = run(py, progress, |w| saving.losers(game, n_max, w))?;
        saving.finish(true)?;
        Ok(ps.into_pyarray(py))
    }

    /// A stream of the P-positions in 0..=n_max, a NumPy chunk at a time.
    #[pyo3(signature = (n_max, progress=None))]
    fn iter_losers(
        &self,
        py: Python<'_>,
        n_max: u64,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<LoserChunks> {
        let game = &self.game;
        let stream = run(py, progress.as_ref().map(|p| p.clone_ref(py)), |w| {
            let p = plan(game, Task::PPositions, n_max, &budget())?;
            w.planned(&p);
            p.stream(w)
        })?;
        Ok(LoserChunks {
            stream: Mutex::new(Some(stream)),
            pending: Mutex::new(None),
            busy: AtomicBool::new(false),
            progress,
        })
    }

    /// Who wins the heap n, or the sum of heaps `[n, *more]` of this game: JSON.
    fn who(&self, py: Python<'_>, heaps: Vec<u64>) -> PyResult<String> {
        let game = &self.game;
        match heaps[..] {
            [] => Err(PyValueError::new_err(
                "no heap given: who(n) or who(n, m, ...)",
            )),
            [n] => to_json(&run(py, None, |w| decide(game, n, &budget(), w))?),
            _ => sum_json(py, &Sum::of_heaps(game, &heaps)),
        }
    }

    /// Every winning move (at most `limit`) of the heaps `heaps` of this game taken as a
    /// sum ([`heaplab_core::sum_winning_moves`]): JSON.
    fn winning_moves(&self, py: Python<'_>, heaps: Vec<u64>, limit: u64) -> PyResult<String> {
        moves_json(py, &Sum::of_heaps(&self.game, &heaps), limit)
    }

    /// The misère quotient of heaps 0..=n_max of this take-and-break game
    /// ([`heaplab_core::misere::quotient::QuotientSolver`]): its summary as JSON. Growth
    /// is learned at heaps up to `grow_to` however long it takes, or, when None, within
    /// [`heaplab_core::misere::quotient::GrowthLimit::QUICK`].
    #[pyo3(signature = (n_max, grow_to=None, progress=None))]
    fn quotient(
        &self,
        py: Python<'_>,
        n_max: u64,
        grow_to: Option<u64>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<String> {
        use heaplab_core::misere::quotient::{
            check_quotient_time, quotient_rule_to, GrowthLimit, QuotientSolver,
        };
        let game = &self.game;
        let plain = game
            .under_normal_play()
            .normalized()
            .into_owned()
            .to_string();
        let q = run(py, progress, |w| {
            let br = quotient_rule_to(game, n_max)?;
            check_quotient_time(std::slice::from_ref(&br), n_max, &budget())?;
            let mut s = QuotientSolver::new(&br);
            s.limit_growth(GrowthLimit::up_to(grow_to));
            s.solve_to(n_max, w)?;
            Ok::<_, Error>(s.quotient())
        })?;
        to_json(&q.summary(&plain))
    }

    /// The analysis record of 0..=n_max (`values`: "grundy" or "outcome"): JSON.
    #[pyo3(signature = (n_max, values="grundy", progress=None))]
    fn analyze(
        &self,
        py: Python<'_>,
        n_max: u64,
        values: &str,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<String> {
        let seq = sequence(values)?;
        let game = &self.game;
        let a = run(py, progress, |w| analyze(game, n_max, seq, &budget(), w))?;
        to_json(&a.analysis)
    }

    /// Columns `n` (uint64), `win` (bool) and, with `grundy`, `grundy` (smallest unsigned)
    /// of 0..=n_max, as an Arrow table; with `checkpoint`, the Grundy table in resumable
    /// segments ([`resume::Saving::grundy_table`]); with `remoteness` and `birthday`, those
    /// columns last ([`heaplab_core::remoteness_table`], [`heaplab_core::birthday_table`]),
    /// planned before any work.
    #[pyo3(signature = (n_max, grundy=true, progress=None, checkpoint=None, checkpoint_every=300.0, remoteness=false, birthday=false))]
    #[allow(clippy::too_many_arguments)]
    fn table(
        &self,
        py: Python<'_>,
        n_max: u64,
        grundy: bool,
        progress: Option<Py<PyAny>>,
        checkpoint: Option<PathBuf>,
        checkpoint_every: f64,
        remoteness: bool,
        birthday: bool,
    ) -> PyResult<ArrowTable> {
        let game = &self.game;
        let saving = checkpoint
            .map(|cp| resume::Saving::take_table(game, grundy, cp, checkpoint_every))
            .transpose()?;
        // the n column's 8 bytes a position, beside the tables
        let rows = n_max.saturating_add(1);
        hand_over_fits("a table of", rows, rows.saturating_mul(8))?;
        let (o, g, genus, extra) = run(py, progress, |w| -> Result<_, Raised> {
            // remoteness and birthday: planned (and refused) before any work
            let mut lengths = vec![];
            for (on, name, task) in [
                (remoteness, "remoteness", Task::Remoteness),
                (birthday, "birthday", Task::Birthday),
            ] {
                if on {
                    lengths.push((name, plan(game, task, n_max, &budget())?));
                }
            }
            let (o, g) = match &saving {
                Some(s) => {
                    let g = s.grundy_table(game, n_max, w)?;
                    (g.outcomes(), Some(g))
                }
                None => tables(game, n_max, grundy, &budget(), w)?,
            };
            // misère play of a one-heap game: the genus and phylum columns too
            let genus = match (game.play(), grundy) {
                (heaplab_core::Play::Misere, true) => {
                    heaplab_core::misere::genera(game, n_max, &budget(), w)?
                }
                _ => None,
            };
            let mut extra = vec![];
            for (name, p) in &lengths {
                w.planned(p);
                extra.push((*name, p.lengths(w)?));
            }
            Ok((o, g, genus, extra))
        })?;
        let batch = py.detach(|| {
            let len = o.max() as usize + 1;
            let n: ArrayRef = Arc::new(UInt64Array::from_iter_values(0..=n_max));
            let words = o.into_bits().into_vec();
            let win: ArrayRef = Arc::new(BooleanArray::new(
                BooleanBuffer::new(Buffer::from_vec(words), 0, len),
                None,
            ));
            let mut cols = vec![("n", n), ("win", win)];
            if let (true, Some(g)) = (grundy, g) {
                cols.push(("grundy", values_array(g)));
            }
            if let Some(t) = genus {
                let genus: ArrayRef = Arc::new(StringArray::from_iter_values(
                    (0..=n_max).map(|n| t.genus(n).to_string()),
                ));
                let phylum: ArrayRef = Arc::new(StringArray::from_iter_values(
                    (0..=n_max).map(|n| t.phylum(n).name()),
                ));
                cols.push(("genus", genus));
                cols.push(("phylum", phylum));
            }
            for (name, t) in extra {
                cols.push((name, values_array(t)));
            }
            RecordBatch::try_from_iter(cols)
        });
        let table = ArrowTable::new(batch)?;
        // the run is complete: its checkpoint goes
        saving.map(|s| s.finish(false)).transpose()?;
        Ok(table)
    }

    fn __repr__(&self) -> String {
        format!("Game({:?})", self.game.to_string())
    }
}

/// Refuses up front (as [`RefusedError`]) a hand-over to Python of `bytes` beyond the
/// engine's own tables (which [`plan`] checks) that this machine's memory cannot hold.
fn hand_over_fits(what: &str, rows: u64, bytes: u64) -> PyResult<()> {
    budget()
        .check_memory(|| format!("{what} {rows} positions for Python"), bytes)
        .map_err(|r| PyErr::from(Raised::from(Error::from(r))))
}

/// Reads "grundy" or "outcome".
fn sequence(values: &str) -> PyResult<Sequence> {
    match values {
        "grundy" => Ok(Sequence::Grundy),
        "outcome" => Ok(Sequence::Outcome),
        v => Err(PyValueError::new_err(format!(
            "values must be \"grundy\" or \"outcome\", not {v:?}"
        ))),
    }
}

/// A table of small values per heap (Grundy values, remoteness, birthday) as an Arrow
/// array of its own unsigned type, its buffer moved.
fn values_array(t: GrundyTable) -> ArrayRef {
    match t {
        GrundyTable::U8(v) => Arc::new(UInt8Array::new(ScalarBuffer::from(v), None)),
        GrundyTable::U16(v) => Arc::new(UInt16Array::new(ScalarBuffer::from(v), None)),
        GrundyTable::U32(v) => Arc::new(UInt32Array::new(ScalarBuffer::from(v), None)),
    }
}

/// A Grundy table as a NumPy array of its own type, its buffer moved.
fn grundy_array(py: Python<'_>, t: GrundyTable) -> Bound<'_, PyAny> {
    match t {
        GrundyTable::U8(v) => v.into_pyarray(py).into_any(),
        GrundyTable::U16(v) => v.into_pyarray(py).into_any(),
        GrundyTable::U32(v) => v.into_pyarray(py).into_any(),
    }
}

/// The P-positions of a stream, one NumPy array a segment.
#[pyclass(module = "heaplab._heaplab")]
struct LoserChunks {
    stream: Mutex<Option<PPositionStream>>,
    /// A chunk decided by a call that was then interrupted: the next call returns it.
    pending: Mutex<Option<Vec<u64>>>,
    /// Set while a call runs (a progress callback calling `next` again is refused).
    busy: AtomicBool,
    progress: Option<Py<PyAny>>,
}

#[pymethods]
impl LoserChunks {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyArray1<u64>>>> {
        if self.busy.swap(true, Ordering::AcqRel) {
            return Err(pyo3::exceptions::PyRuntimeError::new_err(
                "this iterator is already running (called from its own progress callback?)",
            ));
        }
        let out = self.next_chunk(py);
        self.busy.store(false, Ordering::Release);
        Ok(out?.map(|v| v.into_pyarray(py)))
    }
}

impl LoserChunks {
    /// The next non-empty segment's P-positions; None at the end. A chunk decided before
    /// an interruption is kept for the next call, so none is lost.
    fn next_chunk(&self, py: Python<'_>) -> PyResult<Option<Vec<u64>>> {
        let taken = |m: &Mutex<Option<Vec<u64>>>| m.lock().ok().and_then(|mut p| p.take());
        if let Some(chunk) = taken(&self.pending) {
            return Ok(Some(chunk));
        }
        let watch = PyWatch::new(self.progress.as_ref().map(|p| p.clone_ref(py)));
        let (stream, pending) = (&self.stream, &self.pending);
        let ended = run_watched(py, &watch, |w| -> Result<bool, Error> {
            let mut guard = stream.lock().map_err(|_| Error::BadState {
                reason: "a stream poisoned by an earlier failure".into(),
            })?;
            let Some(s) = guard.as_mut() else {
                return Ok(true);
            };
            let mut out = Vec::new();
            let total = s.max().saturating_add(1);
            // segments without P-positions are passed over
            let ended = loop {
                if w.observe(s.done(), total).is_break() {
                    return Err(Error::Cancelled { done: s.done() });
                }
                let more = s.advance(&mut out);
                let _ = w.observe(s.done(), total);
                if !more || !out.is_empty() {
                    break !more;
                }
            };
            if ended {
                *guard = None;
            }
            if !out.is_empty() {
                if let Ok(mut p) = pending.lock() {
                    *p = Some(out);
                }
            }
            Ok(ended)
        })?;
        // the last chunk reports completion, the others their progress alone
        if ended {
            watch.finish(py)?;
        }
        Ok(taken(&self.pending))
    }
}

/// An Arrow table that crosses to Python through the PyCapsule interface.
#[pyclass(frozen, module = "heaplab._heaplab")]
struct ArrowTable {
    batch: RecordBatch,
}

impl ArrowTable {
    fn new(batch: Result<RecordBatch, arrow_schema::ArrowError>) -> PyResult<ArrowTable> {
        batch
            .map(|batch| ArrowTable { batch })
            .map_err(|e| HeaplabError::new_err(e.to_string()))
    }
}

#[pymethods]
impl ArrowTable {
    /// The Arrow C stream of the table (one record batch), for `pyarrow.table`,
    /// `polars.from_arrow` and any other consumer of the PyCapsule interface.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema; // the table's own schema is the only one offered
        let schema = self.batch.schema();
        let reader = RecordBatchIterator::new(vec![Ok(self.batch.clone())], schema);
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }

    /// Rows.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }

    /// Column names, in order.
    #[getter]
    fn column_names(&self) -> Vec<String> {
        self.batch
            .schema()
            .fields()
            .iter()
            .map(|f| f.name().clone())
            .collect()
    }

    fn __len__(&self) -> usize {
        self.batch.num_rows()
    }

    fn __repr__(&self) -> String {
        format!(
            "ArrowTable({} rows: {})",
            self.batch.num_rows(),
            self.column_names().join(", ")
        )
    }
}

/// Every game family as JSON: `name`, `spec`, `description`, `structure`.
#[pyfunction]
fn games() -> PyResult<String> {
    to_json(&FAMILIES)
}

/// The joint misère quotient (Plambeck and Siegel) of heaps 0..=n_max of each of `games`
/// ([`heaplab_core::misere::quotient::joint_rules`], the games as `heaplab quotient --with`
/// takes them; growth as [`GrowthLimit::up_to`]): its summary as JSON.
#[pyfunction]
#[pyo3(signature = (games, n_max, grow_to=None, progress=None))]
fn joint_quotient(
    py: Python<'_>,
    games: Vec<String>,
    n_max: u64,
    grow_to: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    use heaplab_core::misere::quotient::{joint_last, joint_rules, GrowthLimit, QuotientSolver};
    let games: Vec<Game> = games
        .iter()
        .map(|g| parse_game(g))
        .collect::<PyResult<_>>()?;
    let q = run(py, progress, |w| {
        let (names, rules) = joint_rules(&games)?;
        let last = joint_last(rules.len(), n_max)?;
        let mut s = QuotientSolver::joint(&rules)?;
        s.limit_growth(GrowthLimit::up_to(grow_to));
        s.solve_to(last, w)?;
        Ok::<_, Error>(s.quotient().joint_summary(&names))
    })?;
    to_json(&q)
}

/// Who wins a sum written `SPEC:HEAP + SPEC:HEAP …`: JSON.
#[pyfunction]
fn who_sum(py: Python<'_>, text: &str) -> PyResult<String> {
    if heaplab_core::beyond::sum::is_mixed_sum(text) {
        return to_json(&run(py, None, |w| {
            heaplab_core::beyond::sum::decide_mixed_sum(text, &budget(), w)
        })?);
    }
    let sum = Sum::parse(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
    match &sum.heaps[..] {
        [(game, n)] => to_json(&run(py, None, |w| decide(game, *n, &budget(), w))?),
        _ => sum_json(py, &sum),
    }
}

/// A sum of several heaps decided: by Grundy values, or in misère play by
/// [`heaplab_core::misere::misere_sum`] (one winning move): JSON.
fn sum_json(py: Python<'_>, sum: &Sum) -> PyResult<String> {
    if let Some(j) = misere_json(py, sum, 1)? {
        return Ok(j);
    }
    to_json(&run(py, None, |w| decide_sum(sum, &budget(), w))?)
}

/// A misère sum of several heaps ([`heaplab_core::misere::misere_sum`], at most `limit`
/// winning moves) as JSON with `"play": "misere"`; `None` for a sum in normal play or of
/// one heap.
fn misere_json(py: Python<'_>, sum: &Sum, limit: usize) -> PyResult<Option<String>> {
    let misere = sum
        .heaps
        .iter()
        .any(|(g, _)| g.play() == heaplab_core::Play::Misere);
    if !misere || sum.heaps.len() < 2 {
        return Ok(None);
    }
    let m = run(py, None, |w| {
        heaplab_core::misere::misere_sum(sum, limit, &budget(), w)
    })?;
    let mut v = serde_json::to_value(&m).map_err(|e| HeaplabError::new_err(e.to_string()))?;
    v["play"] = serde_json::json!("misere");
    Ok(Some(v.to_string()))
}

/// Every winning move (at most `limit`) of a sum `SPEC:HEAP + …`: JSON.
#[pyfunction]
fn winning_moves_sum(py: Python<'_>, text: &str, limit: u64) -> PyResult<String> {
    let sum = Sum::parse(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
    moves_json(py, &sum, limit)
}

/// Every winning move (at most `limit`) of a sum: by Grundy values
/// ([`heaplab_core::sum_winning_moves`]), or in misère play by
/// [`heaplab_core::misere::misere_sum`]: JSON.
fn moves_json(py: Python<'_>, sum: &Sum, limit: u64) -> PyResult<String> {
    let limit = usize::try_from(limit).unwrap_or(usize::MAX);
    if let Some(j) = misere_json(py, sum, limit)? {
        return Ok(j);
    }
    to_json(&run(py, None, |w| {
        heaplab_core::sum_winning_moves(sum, limit, &budget(), w)
    })?)
}

/// Two games' Grundy values (or outcomes) on 0..=n_max side by side
/// ([`heaplab_analysis::compare`]): JSON.
#[pyfunction]
#[pyo3(signature = (a, b, n_max, values="grundy", progress=None))]
fn compare(
    py: Python<'_>,
    a: &str,
    b: &str,
    n_max: u64,
    values: &str,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let (a, b) = (parse_game(a)?, parse_game(b)?);
    let seq = sequence(values)?;
    to_json(&run(py, progress, |w| {
        heaplab_analysis::compare(&a, &b, n_max, seq, &budget(), w)
    })?)
}

/// P- and N-positions among k-heap positions of one game: JSON (counts as decimal text).
#[pyfunction]
#[pyo3(signature = (spec, heaps, n_max, n_min=0, sorted=false, progress=None))]
fn count(
    py: Python<'_>,
    spec: &str,
    heaps: u32,
    n_max: u64,
    n_min: u64,
    sorted: bool,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    if !(1..=64).contains(&heaps) {
        return Err(PyValueError::new_err(format!(
            "heaps must be 1 to 64, not {heaps}"
        )));
    }
    let game = parse_game(spec)?;
    let c = run(py, progress, |w| {
        count_sums(&game, heaps, n_min, n_max, sorted, &budget(), w)
    })?;
    to_json(&c)
}

/// One sweep row per value of the parameter (`param` as `k=3..40` or `k=3,5,8`), as an
/// Arrow table.
#[pyfunction]
#[pyo3(signature = (spec, param, n_max, progress=None))]
fn sweep_table(
    py: Python<'_>,
    spec: &str,
    param: &str,
    n_max: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<ArrowTable> {
    let space = Space::parse(spec, param).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let rows = run(py, progress, |w| sweep(&space, n_max, &budget(), w))?;
    let u = |f: fn(&heaplab_analysis::SweepRow) -> Option<u64>| -> ArrayRef {
        Arc::new(rows.iter().map(f).collect::<UInt64Array>())
    };
    let saltus: ArrayRef = Arc::new(
        rows.iter()
            .map(|r| r.saltus)
            .collect::<arrow_array::Int64Array>(),
    );
    let name = space.name.clone();
    ArrowTable::new(RecordBatch::try_from_iter(vec![
        (name.as_str(), u(|r| Some(r.value))),
        (
            "game",
            Arc::new(
                rows.iter()
                    .map(|r| Some(r.game.as_str()))
                    .collect::<StringArray>(),
            ) as ArrayRef,
        ),
        ("preperiod", u(|r| r.preperiod)),
        ("period", u(|r| r.period)),
        ("saltus", saltus),
        (
            "certified",
            Arc::new(
                rows.iter()
                    .map(|r| Some(r.certified))
                    .collect::<BooleanArray>(),
            ) as ArrayRef,
        ),
        ("p_positions", u(|r| Some(r.p_positions))),
        ("max_grundy", u(|r| r.max_grundy)),
    ]))
}

/// The classes of a census space (`games` templates, `params` like `k=3..40`, constraints
/// `where`): JSON `{"space", "items", "classes", "payloads"}`: each class as `index`,
/// `game`, `member_list` and `members` (`item`, `spec`, `reduction`), and the same classes
/// serialised whole (the tasks' input).
#[pyfunction]
#[pyo3(signature = (games, params, r#where))]
fn census_classes(games: Vec<String>, params: Vec<String>, r#where: &str) -> PyResult<String> {
    let space = CensusSpace::parse(&games, &params, r#where)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let classes = space
        .classes()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let items: usize = classes.iter().map(|c| c.members.len()).sum();
    let shown: Vec<serde_json::Value> = classes
        .iter()
        .map(|c| {
            serde_json::json!({
                "index": c.index,
                "game": c.representative.to_string(),
                "member_list": c.member_list(),
                "members": c.members.iter().map(|m| serde_json::json!({
                    "item": m.item,
                    "spec": m.spec,
                    "reduction": m.reduction.to_string(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let payloads: Vec<String> = classes
        .iter()
        .map(|c| serde_json::to_string(c).expect("a class serialises"))
        .collect();
    Ok(serde_json::json!({
        "space": space.describe(),
        "items": items,
        "classes": shown,
        "payloads": payloads,
    })
    .to_string())
}

/// The census budget, checked ([`CensusBudget::check`]).
fn census_budget(start: u64, max: u64, seconds: Option<f64>) -> PyResult<CensusBudget> {
    let b = CensusBudget {
        start,
        max,
        seconds,
    };
    b.check().map_err(PyValueError::new_err)?;
    Ok(b)
}

/// The census identity of a space description and a budget (the `census` column).
#[pyfunction]
#[pyo3(signature = (space, start, max, seconds=None))]
fn census_identity(space: &str, start: u64, max: u64, seconds: Option<f64>) -> PyResult<String> {
    Ok(census_id(space, &census_budget(start, max, seconds)?))
}

/// Census rows of the classes in `classes_json` (a JSON list of classes), computed in
/// parallel here: a JSON list of rows. A class that fails becomes a `failed` row. With
/// `journal`, each row is appended to it as it is finished.
#[pyfunction]
#[pyo3(signature = (classes_json, start, max, seconds=None, progress=None, journal=None))]
fn census_rows(
    py: Python<'_>,
    classes_json: &str,
    start: u64,
    max: u64,
    seconds: Option<f64>,
    progress: Option<Py<PyAny>>,
    journal: Option<Bound<'_, resume::CensusJournal>>,
) -> PyResult<String> {
    let journal = journal.as_ref().map(|j| j.get());
    let budget = census_budget(start, max, seconds)?;
    let classes: Vec<Class> = serde_json::from_str(classes_json)
        .map_err(|e| PyValueError::new_err(format!("not a list of census classes: {e}")))?;
    let total = classes.len() as u64;
    let rows = run(py, progress, |w| {
        let count = ClassCount {
            watch: w,
            done: AtomicU64::new(0),
            total,
        };
        let _ = count.observe(0, total);
        census(&classes, &budget, &self::budget(), &count, &|row| {
            if let Some(j) = journal {
                j.append(row);
            }
            let done = count.done.fetch_add(1, Ordering::Relaxed) + 1;
            let _ = count.watch.observe(done, total);
        })
    })?;
    Ok(serde_json::to_string(&rows).expect("rows serialise"))
}

/// The progress of a census in classes finished (the engines' positions are not passed
/// on), and the watch's stop (Ctrl-C) passed to every engine.
struct ClassCount<'a> {
    watch: &'a PyWatch,
    done: AtomicU64,
    total: u64,
}

impl Observer for ClassCount<'_> {
    fn observe(&self, _done: u64, _total: u64) -> ControlFlow<()> {
        self.watch
            .observe(self.done.load(Ordering::Relaxed), self.total)
    }
}

/// The `failed` row of a class (JSON) whose task failed with `message`: JSON.
#[pyfunction]
fn census_failed_row(class_json: &str, message: &str) -> PyResult<String> {
    let class: Class = serde_json::from_str(class_json)
        .map_err(|e| PyValueError::new_err(format!("not a census class: {e}")))?;
    Ok(serde_json::to_string(&failed_row(&class, message)).expect("a row serialises"))
}

/// Census rows (a JSON list) as an Arrow table, sorted by class: the columns of the CLI's
/// census file (`census`, `classes`, `class`, …, `seconds` when `with_seconds`).
#[pyfunction]
#[pyo3(signature = (rows_json, census, classes, with_seconds=true))]
fn census_table(
    rows_json: &str,
    census: &str,
    classes: u64,
    with_seconds: bool,
) -> PyResult<ArrowTable> {
    let mut rows: Vec<CensusRow> = serde_json::from_str(rows_json)
        .map_err(|e| PyValueError::new_err(format!("not a list of census rows: {e}")))?;
    rows.sort_by_key(|r| r.class);
    link_same_values(&mut rows);
    let part = CensusPart {
        id: census.to_string(),
        classes,
        timed: with_seconds,
        rows,
    };
    arrow_table(census_columns(&part, with_seconds))
}

/// How many games a per-game census of the space has and in how many chunks (of
/// [`GameCensusOptions::chunk`] games) it runs: the tasks of a distributed census.
#[pyfunction]
fn census_games_size(
    games: Vec<String>,
    params: Vec<String>,
    r#where: &str,
) -> PyResult<(u64, u64)> {
    let space = CensusSpace::parse(&games, &params, r#where)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let count = count_items(&space).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let chunk = GameCensusOptions::default().chunk;
    Ok((count.items, count.items.div_ceil(chunk)))
}

/// Tallies of shards of one per-game census (JSON each) merged into the tally of all
/// their rows ([`GameTally::merge`]): JSON.
#[pyfunction]
fn merge_game_tallies(tallies: Vec<String>) -> PyResult<String> {
    let mut all: Option<GameTally> = None;
    for t in tallies {
        let t: GameTally = serde_json::from_str(&t)
            .map_err(|e| PyValueError::new_err(format!("not a per-game tally: {e}")))?;
        match all.as_mut() {
            None => all = Some(t),
            Some(a) => a.merge(&t).map_err(PyValueError::new_err)?,
        }
    }
    let all = all.ok_or_else(|| PyValueError::new_err("no tallies to merge"))?;
    to_json(&all)
}

/// The per-game table of a class census ([`member_columns`]): one row per member of the
/// classes in `classes_json` (a JSON list) that `rows_json` (a JSON list of census rows)
/// has rows for, with the parameters of the space (`games`, `params`, `where`) as columns.
#[pyfunction]
#[pyo3(signature = (rows_json, classes_json, games, params, r#where, census, classes))]
fn census_member_table(
    rows_json: &str,
    classes_json: &str,
    games: Vec<String>,
    params: Vec<String>,
    r#where: &str,
    census: &str,
    classes: u64,
) -> PyResult<ArrowTable> {
    let space = CensusSpace::parse(&games, &params, r#where)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let rows: Vec<CensusRow> = serde_json::from_str(rows_json)
        .map_err(|e| PyValueError::new_err(format!("not a list of census rows: {e}")))?;
    let list: Vec<Class> = serde_json::from_str(classes_json)
        .map_err(|e| PyValueError::new_err(format!("not a list of census classes: {e}")))?;
    let part = CensusPart {
        id: census.to_string(),
        classes,
        timed: false,
        rows,
    };
    let cols =
        member_columns(&space, &list, &part).map_err(|e| PyValueError::new_err(e.to_string()))?;
    arrow_table(cols)
}

/// Named census columns as an Arrow table, every column nullable as in the CLI's files
/// (the schema never depends on the data).
fn arrow_table<S: AsRef<str>>(cols: Vec<(S, CensusColumn)>) -> PyResult<ArrowTable> {
    let cols: Vec<(S, ArrayRef)> = cols
        .into_iter()
        .map(|(name, c)| {
            let a: ArrayRef = match c {
                CensusColumn::U64(v) => Arc::new(UInt64Array::from(v)),
                CensusColumn::I64(v) => Arc::new(arrow_array::Int64Array::from(v)),
                CensusColumn::Str(v) => Arc::new(StringArray::from(v)),
                CensusColumn::Bool(v) => Arc::new(BooleanArray::from(v)),
                CensusColumn::F64(v) => Arc::new(arrow_array::Float64Array::from(v)),
            };
            (name, a)
        })
        .collect();
    ArrowTable::new(RecordBatch::try_from_iter_with_nullable(
        cols.into_iter().map(|(n, a)| (n, a, true)),
    ))
}

/// A per-game census of a space of subtraction sets (`games` templates like
/// `sub{a,b,c}`, `params`, `where`), every game's row computed here on every core
/// ([`heaplab_core::census::games::game_census`]): the rows as an Arrow table (the
/// columns of `heaplab census --per-game`, [`game_columns`]) and the tally (JSON: counts,
/// the period distribution, the longest period and preperiod, Flammenkamp's conjectures
/// with counterexamples). `play` is "normal" or "misere"; `grundy` adds the Grundy
/// periods (normal play only); `limit` is the window engine's last position per game.
#[pyfunction]
#[pyo3(signature = (games, params, r#where, play="normal", grundy=false, limit=1<<24, progress=None, shard=None))]
#[allow(clippy::too_many_arguments)]
fn census_games(
    py: Python<'_>,
    games: Vec<String>,
    params: Vec<String>,
    r#where: &str,
    play: &str,
    grundy: bool,
    limit: u64,
    progress: Option<Py<PyAny>>,
    shard: Option<(u64, u64)>,
) -> PyResult<(ArrowTable, String)> {
    if let Some((i, n)) = shard {
        if i == 0 || i > n {
            return Err(PyValueError::new_err(format!(
                "shard ({i}, {n}) is not shard i of n with 1 <= i <= n"
            )));
        }
    }
    let mine = |c: u64| shard.is_none_or(|(i, n)| c % n == i - 1);
    let space = CensusSpace::parse(&games, &params, r#where)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let play = match play {
        "normal" => heaplab_core::Play::Normal,
        "misere" | "misère" => heaplab_core::Play::Misere,
        p => {
            return Err(PyValueError::new_err(format!(
                "play is \"normal\" or \"misere\", not {p:?}"
            )))
        }
    };
    if limit == 0 || limit > WINDOW_LIMIT {
        return Err(PyValueError::new_err(format!(
            "limit must be between 1 and {WINDOW_LIMIT} positions, not {limit}"
        )));
    }
    if grundy && play == heaplab_core::Play::Misere {
        return Err(PyValueError::new_err(
            "grundy=True gives Grundy values of normal play: leave out play=\"misere\"",
        ));
    }
    let opts = GameCensusOptions {
        play,
        grundy,
        limit,
        ..GameCensusOptions::default()
    };
    let count = count_items(&space).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let items = count.items;
    let todo: u64 = (0..items.div_ceil(opts.chunk))
        .filter(|&c| mine(c))
        .map(|c| (items - c * opts.chunk).min(opts.chunk))
        .sum();
    let id = game_census_id(&space, &opts);
    let cols = ParamColumns::of(&space);
    let (rows, tally) = run(py, progress, |w| {
        let mut rows: Vec<GameRow> = vec![];
        let mut tally = GameTally::new(opts.play);
        let _ = w.observe(0, todo);
        let mut stopped = false;
        let out = game_census(&space, &opts, &mine, &mut |_, chunk| {
            tally.add(&chunk);
            rows.extend(chunk);
            if w.observe(rows.len() as u64, todo).is_break() {
                stopped = true;
                return Err(CensusError::Syntax("stopped".into()));
            }
            Ok(())
        });
        match out {
            Ok(_) => Ok((rows, tally)),
            Err(_) if stopped => Err(Raised(HeaplabError::new_err("the census was stopped"))),
            Err(e) => Err(Raised(PyValueError::new_err(e.to_string()))),
        }
    })?;
    let table = arrow_table(game_columns(&rows, &cols, &id, count, grundy))?;
    Ok((table, to_json(&tally)?))
}

/// A stone game row solved (variant 1, 2 or 3), with one optimal line when asked, or with
/// `strategy` ("greedy") the first player's strategy against the best reply: JSON.
#[pyfunction]
#[pyo3(signature = (variant, piles, line=false, strategy=None))]
fn stone(
    py: Python<'_>,
    variant: u8,
    piles: Vec<i64>,
    line: bool,
    strategy: Option<&str>,
) -> PyResult<String> {
    let v = match variant {
        1 => Variant::I,
        2 => Variant::II,
        3 => Variant::III,
        _ => {
            return Err(PyValueError::new_err(format!(
                "variant must be 1, 2 or 3, not {variant}"
            )))
        }
    };
    let strategy = match strategy {
        None => None,
        Some(name) => Some(heaplab_core::Strategy::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!("unknown strategy {name:?} (known: \"greedy\")"))
        })?),
    };
    let (result, moves) = run(py, None, |_| {
        match strategy {
            None => solve(v, &piles, line),
            Some(s) => heaplab_core::score_strategy(v, &piles, s, line),
        }
        .map_err(|e| Raised(PyValueError::new_err(e.to_string())))
    })?;
    to_json(&serde_json::json!({"result": result, "line": moves}))
}

/// The names a claim uses, lowercased, outside string literals (as the command line reads
/// them to compute only the columns a claim names).
#[pyfunction]
fn claim_identifiers(expr: &str) -> Vec<String> {
    heaplab_analysis::identifiers(expr)
}

/// The command line's checks of a claim's text (one expression, balanced, at most 2000
/// operators, no aggregates or windows, our functions' arities): the 1-based columns of its
/// string literals, or `ValueError` naming the problem.
#[pyfunction]
fn precheck_claim(expr: &str) -> PyResult<Vec<usize>> {
    heaplab_analysis::precheck_claim(expr)
        .map_err(|e| PyValueError::new_err(format!("invalid claim: {e}")))
}

/// The command line's budget checks of a claim check over 0..=n_max (`on`: "table" or
/// "losers"; which of `grundy` and `win` the claim names): `ValueError` past the table
/// limit, `RefusedError` beyond this machine's memory or a day's work.
#[pyfunction]
fn check_plan(
    py: Python<'_>,
    spec: &str,
    n_max: u64,
    on: &str,
    uses_grundy: bool,
    uses_win: bool,
) -> PyResult<()> {
    let game = parse_game(spec)?;
    let on = match on {
        "table" => On::Table,
        "losers" => On::Losers,
        o => {
            return Err(PyValueError::new_err(format!(
                "on must be \"table\" or \"losers\", not {o:?}"
            )))
        }
    };
    run(py, None, |w| {
        plan_check(&game, n_max, on, uses_grundy, uses_win, &budget(), w).map(drop)
    })
}

/// Whether a claim that held on the table 0..=n_max holds for every n, by the command
/// line's argument ([`heaplab_analysis::prove_for_all`]): (the argument, or None; the N
/// that would prove it, or None).
#[pyfunction]
fn prove_for_all(
    py: Python<'_>,
    spec: &str,
    n_max: u64,
    claim: &str,
) -> PyResult<(Option<String>, Option<u64>)> {
    let game = parse_game(spec)?;
    let claim = claim.to_string();
    run(py, None, move |w| {
        heaplab_analysis::prove_for_all(&game, n_max, &claim, &budget(), w)
    })
}

/// A claim function (`isqrt`, `v2`, `popcount`, `is_square`, `is_prime`, `xor`) over
/// int64 argument columns with null masks: (values, valid) — int64 or bool values, and
/// false where the result is null (a null or negative argument, `v2(0)`).
#[pyfunction]
fn claim_function<'py>(
    py: Python<'py>,
    name: &str,
    args: Vec<PyReadonlyArray1<'py, i64>>,
    nulls: Vec<PyReadonlyArray1<'py, bool>>,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyArray1<bool>>)> {
    let f = ClaimFunction::from_name(name)
        .ok_or_else(|| PyValueError::new_err(format!("no claim function {name:?}")))?;
    if args.len() != f.arity() || nulls.len() != f.arity() {
        return Err(PyValueError::new_err(format!(
            "{} takes {} argument(s)",
            f.name(),
            f.arity()
        )));
    }
    let args: Vec<&[i64]> = args
        .iter()
        .map(|a| a.as_slice())
        .collect::<Result<_, _>>()?;
    let nulls: Vec<&[bool]> = nulls
        .iter()
        .map(|a| a.as_slice())
        .collect::<Result<_, _>>()?;
    let len = args[0].len();
    if args.iter().chain([&args[0]]).any(|a| a.len() != len) || nulls.iter().any(|m| m.len() != len)
    {
        return Err(PyValueError::new_err(
            "argument columns of different lengths",
        ));
    }
    let (values, valid): (Vec<i64>, Vec<bool>) = py.detach(|| {
        (0..len)
            .map(|k| {
                let row: Vec<Option<u64>> = args
                    .iter()
                    .zip(&nulls)
                    .map(|(a, m)| {
                        if m[k] {
                            None
                        } else {
                            ClaimFunction::argument(a[k])
                        }
                    })
                    .collect();
                match f.apply(&row) {
                    Some(ClaimValue::Int(x)) => (x as i64, true),
                    Some(ClaimValue::Bool(b)) => (i64::from(b), true),
                    None => (0, false),
                }
            })
            .unzip()
    });
    let values = if f.is_boolean() {
        values
            .into_iter()
            .map(|x| x != 0)
            .collect::<Vec<bool>>()
            .into_pyarray(py)
            .into_any()
    } else {
        values.into_pyarray(py).into_any()
    };
    Ok((values, valid.into_pyarray(py)))
}

/// The module.
#[pymodule]
fn _heaplab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // NumPy's C API is loaded now, at import: loaded lazily after a long run, it fails on a
    // pending Ctrl-C
    drop(Vec::<u8>::new().into_pyarray(m.py()));
    m.add_class::<RawGame>()?;
    m.add_class::<beyond::RawBeyond>()?;
    m.add_function(wrap_pyfunction!(beyond::is_beyond, m)?)?;
    m.add_class::<LoserChunks>()?;
    m.add_class::<ArrowTable>()?;
    m.add_class::<resume::CensusJournal>()?;
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(who_sum, m)?)?;
    m.add_function(wrap_pyfunction!(joint_quotient, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(sweep_table, m)?)?;
    m.add_function(wrap_pyfunction!(census_classes, m)?)?;
    m.add_function(wrap_pyfunction!(census_identity, m)?)?;
    m.add_function(wrap_pyfunction!(census_rows, m)?)?;
    m.add_function(wrap_pyfunction!(census_failed_row, m)?)?;
    m.add_function(wrap_pyfunction!(census_table, m)?)?;
    m.add_function(wrap_pyfunction!(census_games, m)?)?;
    m.add_function(wrap_pyfunction!(census_member_table, m)?)?;
    m.add_function(wrap_pyfunction!(census_games_size, m)?)?;
    m.add_function(wrap_pyfunction!(merge_game_tallies, m)?)?;
    m.add_function(wrap_pyfunction!(stone, m)?)?;
    m.add_function(wrap_pyfunction!(claim_function, m)?)?;
    m.add_function(wrap_pyfunction!(precheck_claim, m)?)?;
    m.add_function(wrap_pyfunction!(claim_identifiers, m)?)?;
    m.add_function(wrap_pyfunction!(check_plan, m)?)?;
    m.add_function(wrap_pyfunction!(prove_for_all, m)?)?;
    m.add_function(wrap_pyfunction!(winning_moves_sum, m)?)?;
    m.add_function(wrap_pyfunction!(compare, m)?)?;
    m.add("HeaplabError", m.py().get_type::<HeaplabError>())?;
    m.add("RefusedError", m.py().get_type::<RefusedError>())?;
    Ok(())
}
