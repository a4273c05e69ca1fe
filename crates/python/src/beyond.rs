//! Games beyond one heap from Python: `Game("wythoff")`, `Game("fibonacci-nim")`,
//! `Game("put-or-take{squares}")`. Grundy squares and values by state as 2-D NumPy
//! arrays, P-positions and loopy outcomes as Arrow tables, one position as JSON — the
//! core's calls ([`heaplab_core::beyond`]), as on the command line.

use crate::{run, ArrowTable, HeaplabError, Raised};
use arrow_array::{ArrayRef, RecordBatch, StringArray, UInt64Array};
use heaplab_core::beyond::loopy::{loopy_outcomes, Loopy};
use heaplab_core::beyond::sum::MixedSumError;
use heaplab_core::beyond::{decide, for_each_rows, grundy_grid, BeyondError, Rows};
use heaplab_core::BeyondGame;
use numpy::{IntoPyArray, PyArray2, PyArrayMethods};
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use std::sync::Arc;

impl From<BeyondError> for Raised {
    fn from(e: BeyondError) -> Raised {
        let msg = e.to_string();
        Raised(match e {
            BeyondError::TooLarge(_) | BeyondError::Unsupported(_) => PyValueError::new_err(msg),
            BeyondError::Cancelled => PyKeyboardInterrupt::new_err(msg),
            BeyondError::Unsettled(_) => HeaplabError::new_err(msg),
        })
    }
}

impl From<MixedSumError> for Raised {
    fn from(e: MixedSumError) -> Raised {
        match e {
            MixedSumError::Term(m) => Raised(PyValueError::new_err(m)),
            MixedSumError::Beyond(e) => e.into(),
            MixedSumError::Engine(e) => e.into(),
        }
    }
}

/// Whether `spec` names a game beyond one heap (then `RawBeyond` reads it).
#[pyfunction]
pub fn is_beyond(spec: &str) -> bool {
    BeyondGame::is_beyond(spec)
}

/// A game beyond one heap: its spec parsed once.
#[pyclass(frozen, module = "heaplab._heaplab")]
pub struct RawBeyond {
    game: BeyondGame,
}

#[pymethods]
impl RawBeyond {
    #[new]
    fn new(spec: &str) -> PyResult<RawBeyond> {
        let game = BeyondGame::parse(spec).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(RawBeyond { game })
    }

    /// The canonical spec.
    #[getter]
    fn spec(&self) -> String {
        self.game.to_string()
    }

    /// `two heaps`, `move memory` or `loopy`.
    #[getter]
    fn structure(&self) -> &'static str {
        self.game.structure()
    }

    /// Two heaps: g(a, b) for 0 ≤ a, b ≤ n_max (or rows 0..=`row` only: shape
    /// (row + 1, n_max + 1)); move memory: g(heap, allowance), an allowance beyond the heap
    /// reading as the heap. uint32, C order.
    #[pyo3(signature = (n_max, row=None, progress=None))]
    fn grundy<'py>(
        &self,
        py: Python<'py>,
        n_max: u64,
        row: Option<u64>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let game = &self.game;
        let (rows, cols, values) = run(py, progress, |w| -> Result<_, Raised> {
            let t = grundy_grid(game, n_max, row, w)?.rect;
            Ok((t.rows, t.cols, t.values))
        })?;
        let flat = values.into_pyarray(py);
        flat.reshape([rows as usize, cols as usize])
    }

    /// The P-positions up to n_max as an Arrow table: (k, a, b) pairs, (k, n) start heaps,
    /// or (n) for loopy games.
    #[pyo3(signature = (n_max, progress=None))]
    fn losers(
        &self,
        py: Python<'_>,
        n_max: u64,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<ArrowTable> {
        let game = &self.game;
        // 24 bytes a pair, all held in memory here
        if let Some(rows) = game.pairs_estimate(n_max).filter(|&r| r > 100_000_000) {
            return Err(PyValueError::new_err(format!(
                "{game} to {n_max}: about {rows} pairs, more than the 10^8 held in \
                 memory here; stream them with `heaplab losers` or count them there"
            )));
        }
        let cols = run(py, progress, |w| -> Result<[Vec<u64>; 3], Raised> {
            let mut c: [Vec<u64>; 3] = Default::default();
            for_each_rows(
                game,
                n_max,
                true,
                w,
                &mut |r: Rows<'_>| -> Result<(), Raised> {
                    match r {
                        Rows::Pairs(p) => {
                            for &(k, a, b) in p {
                                c[0].push(k);
                                c[1].push(a);
                                c[2].push(b);
                            }
                        }
                        Rows::Starts { k0, heaps } => {
                            c[0].extend(k0..k0 + heaps.len() as u64);
                            c[1].extend_from_slice(heaps);
                        }
                        Rows::Outcomes { .. } => unreachable!("losers only: losses come as starts"),
                    }
                    Ok(())
                },
            )?;
            Ok(c)
        })?;
        let [c0, c1, c2] = cols;
        let col = |v: Vec<u64>| Arc::new(UInt64Array::from(v)) as ArrayRef;
        ArrowTable::new(match &self.game {
            BeyondGame::Pair(_) => {
                RecordBatch::try_from_iter(vec![("k", col(c0)), ("a", col(c1)), ("b", col(c2))])
            }
            BeyondGame::Memory(_) => {
                RecordBatch::try_from_iter(vec![("k", col(c0)), ("n", col(c1))])
            }
            BeyondGame::Loopy(_) => RecordBatch::try_from_iter(vec![("n", col(c1))]),
        })
    }

    /// Loopy games: (n, outcome) for n ≤ n_max, outcome `win`, `loss`, `draw` or
    /// `undecided`, and the soundness statement of the window.
    #[pyo3(signature = (n_max, progress=None))]
    fn outcomes(
        &self,
        py: Python<'_>,
        n_max: u64,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<(ArrowTable, String)> {
        let BeyondGame::Loopy(l) = &self.game else {
            return Err(PyValueError::new_err(format!(
                "{} is not loopy: use grundy() or losers()",
                self.game
            )));
        };
        let t = run(py, progress, |w| {
            loopy_outcomes(l.clone(), n_max, u64::MAX, w).map_err(Raised::from)
        })?;
        let first = l.first();
        let n: Vec<u64> = (first..=n_max).collect();
        let o: StringArray = n
            .iter()
            .map(|&i| {
                Some(match t.outcomes[i as usize] {
                    Loopy::Unknown => "undecided",
                    other => other.name(),
                })
            })
            .collect();
        let table = ArrowTable::new(RecordBatch::try_from_iter(vec![
            ("n", Arc::new(UInt64Array::from(n)) as ArrayRef),
            ("outcome", Arc::new(o) as ArrayRef),
        ]))?;
        Ok((table, t.statement()))
    }

    /// One position as JSON: `win` (null for a draw or undecided), the winning move, how.
    fn who(&self, py: Python<'_>, position: Vec<u64>) -> PyResult<String> {
        let game = &self.game;
        // the decision is the core's; here only the shape of the dict each kind of game
        // has always had
        let v = py.detach(|| -> Result<serde_json::Value, Raised> {
            let d = decide(game, &position, &heaplab_core::Silent)?;
            Ok(match game {
                BeyondGame::Pair(_) => {
                    serde_json::json!({"win": d.win(), "to": d.to, "grundy": d.grundy, "method": d.method})
                }
                BeyondGame::Memory(_) => serde_json::json!({
                    "win": d.win(),
                    "take": d.to.as_ref().map(|t| t[1]),
                    "method": "least winning moves",
                }),
                BeyondGame::Loopy(_) => serde_json::json!({
                    "win": d.win(),
                    "outcome": if d.outcome == Loopy::Unknown { "undecided" } else { d.outcome.name() },
                    "method": d.method,
                }),
            })
        })?;
        Ok(v.to_string())
    }
}
