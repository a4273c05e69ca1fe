//! P-position streams: a plan's engine decides 0..=N in increasing order, a segment at a
//! time ([`PPositionStream`]), and saves a [`Checkpoint`] a later run resumes from, after
//! the saved state is checked against the rule (`resume`).

use crate::budget::{Engine, Task};
use crate::engines::interval::JumpStream;
use crate::engines::pull::{seeded_outcomes, PullStream};
use crate::engines::sieve::{ListMoves, SetSieve, SquareMoves, DEFAULT_SEGMENT_BITS, MAX_SIEVE_N};
use crate::engines::stream::{Checkpoint, ListStream, PStream, SieveStream, StreamState};
use crate::engines::window::WindowStream;
use crate::error::Error;
use crate::game::Game;
use crate::games::allbut::all_but_p_positions_played;
use crate::misere::quotient::{proved_quotient, MisereQuotient};
use crate::moves::{Moves, Play};
use crate::observe::{Observer, Watch};
use crate::plan::cost::square_segment_bits;
use crate::plan::planned::{Plan, BITS_MAX};
use crate::sets::{MoveSet, NamedSet};
use crate::table::OutcomeTable;
use bitvec::prelude::*;

/// The P-positions of a game over 0..=N in increasing order, a segment at a time, by the
/// engine its plan chose, resumable from a [`Checkpoint`].
pub struct PPositionStream {
    game: Game,
    max: u64,
    engine: Box<dyn PStream>,
    last: Option<u64>,
}

impl std::fmt::Debug for PPositionStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PPositionStream")
            .field("game", &self.game.to_string())
            .field("max", &self.max)
            .field("method", &self.method())
            .field("done", &self.done())
            .finish()
    }
}

impl PPositionStream {
    /// Decides the next segment, appending its P-positions (increasing) to `out`. Returns
    /// false once every position up to N is decided (and then appends nothing).
    pub fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        let before = out.len();
        let more = self.engine.advance(out);
        if out.len() > before {
            self.last = out.last().copied();
        }
        more
    }

    /// Every position below this is decided (N + 1 at the end).
    pub fn done(&self) -> u64 {
        self.engine.done()
    }

    /// P-positions emitted so far.
    pub fn count(&self) -> u64 {
        self.engine.count()
    }

    /// The last P-position emitted.
    pub fn last(&self) -> Option<u64> {
        self.last
    }

    /// N.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The engine's name for reports (`segmented sieve`, `jump-ahead`, …).
    pub fn method(&self) -> &'static str {
        self.engine.method()
    }

    /// The state to save, to resume with [`resume_stream`].
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            game: self.game.to_string(),
            max: self.max,
            count: self.count(),
            last: self.last,
            state: self.engine.state(),
        }
    }
}

/// Reopens the stream a [`Checkpoint`] was taken from, where it stopped.
///
/// # Errors
/// [`Error::BadState`] for a checkpoint whose game does not parse or whose state belongs
/// to another engine or fails the checks against the rule; as [`crate::open_stream`].
pub fn resume_stream(cp: Checkpoint, obs: &dyn Observer) -> Result<PPositionStream, Error> {
    let game = Game::parse(&cp.game).map_err(|e| Error::BadState {
        reason: format!("names no game: {e}"),
    })?;
    let last = cp.last;
    let p = Plan::make(&game, Task::PPositions, cp.max, false)?;
    let mut s = open(&p, Some(&cp), obs)?;
    s.last = last;
    Ok(s)
}

/// Runs a P-position plan's stream to its end, observed by `obs` (progress,
/// cancellation), handing each segment's P-positions (increasing) to `each`, which may
/// take them. Returns the stream's method (`segmented sieve`, …).
///
/// # Errors
/// As [`crate::open_stream`]; [`Error::Cancelled`] when `obs` stops the run.
pub(crate) fn run_plan(
    p: &Plan,
    obs: &dyn Observer,
    mut each: impl FnMut(&mut Vec<u64>),
) -> Result<&'static str, Error> {
    let mut s = open(p, None, obs)?;
    let watch = &mut Watch::start(obs, p.max.saturating_add(1))?;
    let mut segment = Vec::new();
    loop {
        let more = s.advance(&mut segment);
        each(&mut segment);
        segment.clear();
        if !more {
            return Ok(s.method());
        }
        watch.at(s.done())?;
    }
}

/// The outcome table of an outcome plan: the P-positions marked in a zeroed table (its
/// pages are only touched where marked), then every bit flipped: set = N-position.
pub(crate) fn outcomes(p: &Plan, obs: &dyn Observer) -> Result<OutcomeTable, Error> {
    if !crate::engines::mem::can_allocate(p.memory) {
        return Err(p.out_of_memory("an outcome table"));
    }
    let len = p.max as usize + 1;
    let mut lose: BitVec<u64, Lsb0> = BitVec::from_vec(vec![0u64; len.div_ceil(64)]);
    lose.truncate(len);
    let mut s = open(p, None, obs)?;
    let watch = &mut Watch::start(obs, p.max + 1)?;
    let mut out = Vec::new();
    while s.advance(&mut out) {
        for &x in &out {
            lose.set(x as usize, true);
        }
        out.clear();
        watch.at(s.done())?;
    }
    Ok(OutcomeTable::from_bits(!lose))
}

fn bad(what: &str) -> Error {
    Error::BadState {
        reason: format!("is not a {what} state"),
    }
}

/// Opens the stream of a plan (of P-positions or outcomes) over 0..=N, resumed from
/// `resume` after its state is checked against the rule (`crate::resume`).
pub(crate) fn open(
    p: &Plan,
    resume: Option<&Checkpoint>,
    obs: &dyn Observer,
) -> Result<PPositionStream, Error> {
    let engine = engine_stream(p, resume, obs)?;
    Ok(PPositionStream {
        game: p.game().clone(),
        max: p.max,
        engine,
        last: None,
    })
}

/// The engine that streams the plan's P-positions, chosen from the structure.
fn engine_stream(
    p: &Plan,
    resume: Option<&Checkpoint>,
    obs: &dyn Observer,
) -> Result<Box<dyn PStream>, Error> {
    let max = p.max;
    let state = resume.map(|cp| (&cp.state, cp));
    // Misère play runs the same engines with another base case: the heaps without a move
    // (those below `terminal` where they form a prefix) are N-positions.
    let misere = p.structure().play == Play::Misere;
    let terminal = if misere {
        p.moves().first_move().unwrap_or(0)
    } else {
        0
    };
    match p.moves() {
        Moves::Interval(reach) => {
            let (last, count, recent) = match state {
                None => (None, 0, vec![]),
                Some((StreamState::Jump { last, count }, cp)) if reach.extra.is_empty() => {
                    crate::resume::jump(reach, terminal, *last, *count, &[], cp)?;
                    (*last, *count, vec![])
                }
                Some((
                    StreamState::JumpRecent {
                        last,
                        count,
                        recent,
                    },
                    cp,
                )) => {
                    crate::resume::jump(reach, terminal, *last, *count, recent, cp)?;
                    (*last, *count, recent.clone())
                }
                Some(_) => return Err(bad("jump-ahead")),
            };
            Ok(Box::new(JumpStream::new(
                reach.clone(),
                terminal,
                max,
                last,
                count,
                recent,
            )))
        }
        Moves::AllBut { excluded, leave1 } => {
            let list: Vec<u64> = all_but_p_positions_played(excluded, *leave1, misere)
                .into_iter()
                .filter(|&x| x <= max)
                .collect();
            list_stream(list, max, resume, "all-but candidates")
        }
        Moves::Finite { moves, leave1 } => {
            sieve_fits(max)?;
            let moves: Vec<u64> = moves.iter().copied().filter(|&s| s <= max).collect();
            let resume = match state {
                None => None,
                Some((StreamState::Window { lo, marks, count }, cp)) => {
                    crate::resume::window(&moves, *leave1, misere, *lo, marks, *count, cp)?;
                    Some((*lo, marks.clone(), *count))
                }
                Some(_) => return Err(bad("window")),
            };
            Ok(Box::new(WindowStream::new(
                moves, *leave1, terminal, max, resume,
            )))
        }
        Moves::Set { set, leave1 } => set_sieve(set, *leave1, terminal, max, state),
        m @ (Moves::Divisors { .. } | Moves::Listed(_) | Moves::Union(_)) => {
            if max > BITS_MAX {
                return Err(Error::TooLarge {
                    what: "a bit table",
                    n: max,
                    limit: BITS_MAX,
                });
            }
            let resume = match state {
                None => None,
                Some((StreamState::Divisors { lo, win, count }, cp)) => {
                    if *lo > max.saturating_add(1) || (win.len() as u64).saturating_mul(64) < *lo {
                        return Err(Error::BadState {
                            reason: "holds fewer outcome bits than it says".into(),
                        });
                    }
                    crate::resume::pulled(|x| m.amounts_of(x), misere, *lo, win, *count, cp)?;
                    Some((*lo, win.clone(), *count))
                }
                Some(_) => return Err(bad("pull")),
            };
            Ok(Box::new(PullStream::new(m.clone(), misere, max, resume)))
        }
        Moves::Seeded { start, inner } => {
            let mut watch = Watch::start(obs, max + 1)?;
            let win = seeded_outcomes(start, inner, max, &mut watch)?;
            let list: Vec<u64> = (0..=max).filter(|&n| !win[n as usize]).collect();
            list_stream(list, max, resume, "prescribed start, then the moves")
        }
        Moves::Split(br) if p.engine == Engine::MisereQuotient => {
            let q = proved_quotient(br).ok_or_else(|| Error::Unsupported {
                what: format!("the misère quotient of {} has no proved period", p.game()),
            })?;
            Ok(Box::new(QuotientStream::new(&q, max, resume)?))
        }
        Moves::Split(_) | Moves::Options(_) => {
            // the zeros of the (misère) value table
            let g = crate::plan::run::grundy(
                &Plan::make(p.game(), Task::Grundy, max, false)?,
                None,
                obs,
            )?;
            let list: Vec<u64> = g.outcomes().p_positions().collect();
            let method = if misere {
                "canonical misère forms"
            } else {
                "grundy table"
            };
            list_stream(list, max, resume, method)
        }
    }
}

/// The sieve takes N up to [`MAX_SIEVE_N`].
fn sieve_fits(max: u64) -> Result<(), Error> {
    if max > MAX_SIEVE_N {
        return Err(Error::TooLarge {
            what: "the sieve",
            n: max,
            limit: MAX_SIEVE_N,
        });
    }
    Ok(())
}

/// The segmented sieve of an infinite set (squares with moves computed on the fly, any
/// other set over its list of moves), resumed from a checked state.
fn set_sieve(
    set: &MoveSet,
    leave1: bool,
    terminal: u64,
    max: u64,
    state: Option<(&StreamState, &Checkpoint)>,
) -> Result<Box<dyn PStream>, Error> {
    sieve_fits(max)?;
    let saved = match state {
        None => None,
        Some((StreamState::Sieve(s), cp)) => Some((s, cp)),
        Some(_) => return Err(bad("sieve")),
    };
    if *set == MoveSet::named(NamedSet::Squares) {
        let (m, seg) = (SquareMoves::new(max), square_segment_bits(max));
        return Ok(Box::new(SieveStream(match saved {
            Some((s, cp)) => {
                let sieve = SetSieve::resume(m, max, leave1, seg, s.clone())?;
                crate::resume::sieve(sieve.moves(), leave1, terminal, s, cp)?;
                sieve.misere(terminal)
            }
            None => SetSieve::new(m, max, leave1, seg).misere(terminal),
        })));
    }
    let moves = set.elements_upto(max);
    if moves.len() >= u32::MAX as usize {
        return Err(Error::TooManyMoves {
            count: moves.len() as u64,
            n: max,
            limit: u32::MAX as u64 - 1,
        });
    }
    let (m, seg) = (ListMoves::new(moves), DEFAULT_SEGMENT_BITS);
    Ok(Box::new(SieveStream(match saved {
        Some((s, cp)) => {
            let sieve = SetSieve::resume(m, max, leave1, seg, s.clone())?;
            crate::resume::sieve(sieve.moves(), leave1, terminal, s, cp)?;
            sieve.misere(terminal)
        }
        None => SetSieve::new(m, max, leave1, seg).misere(terminal),
    })))
}

fn list_stream(
    list: Vec<u64>,
    max: u64,
    resume: Option<&Checkpoint>,
    method: &'static str,
) -> Result<Box<dyn PStream>, Error> {
    let next = match resume {
        None => 0,
        Some(cp) => match cp.state {
            StreamState::List { next } => {
                crate::resume::list(&list, next, cp)?;
                next
            }
            _ => return Err(bad("list")),
        },
    };
    Ok(Box::new(ListStream::new(list, max, next as usize, method)))
}

/// Misère P-positions of a take-and-break rule from its misère quotient, whose heap map Φ
/// is periodic from n0 with period p, proved (Plambeck–Siegel; see
/// [`crate::misere::quotient`]): heap n is a misère P-position when Φ(n) lies in the
/// P-portion, so one pass over heaps 0..n0 + p gives every heap. The checkpoint state is
/// the count of P-positions emitted (`StreamState::List`), checked on resume against the
/// count the period gives up to the last one.
struct QuotientStream {
    /// P-position? for heaps 0..n0 + p.
    lose: Vec<bool>,
    n0: u64,
    period: u64,
    max: u64,
    /// The next heap to decide.
    next: u64,
    count: u64,
}

impl QuotientStream {
    fn new(
        q: &MisereQuotient,
        max: u64,
        resume: Option<&Checkpoint>,
    ) -> Result<QuotientStream, Error> {
        let per = q
            .period()
            .filter(|p| p.proved)
            .ok_or_else(|| Error::Unsupported {
                what: "a misère quotient without a proved period".into(),
            })?;
        let (n0, period) = (per.preperiod, per.period.max(1));
        let lose = (0..n0 + period)
            .map(|n| q.heap_element(n).is_some_and(|e| q.is_p(e)))
            .collect();
        let mut s = QuotientStream {
            lose,
            n0,
            period,
            max,
            next: 0,
            count: 0,
        };
        if let Some(cp) = resume {
            let StreamState::List { next } = cp.state else {
                return Err(bad("list"));
            };
            let upto = cp.last.map_or(0, |l| s.count_upto(l));
            if cp.count != next || upto != next || cp.last.is_some_and(|l| !s.is_p(l)) {
                return Err(Error::BadState {
                    reason: format!(
                        "counts {} P-positions up to {:?}, but the misère quotient gives {upto}",
                        cp.count, cp.last
                    ),
                });
            }
            s.next = cp.last.map_or(0, |l| l + 1);
            s.count = next;
        }
        Ok(s)
    }

    fn is_p(&self, n: u64) -> bool {
        let i = if n < self.n0 {
            n
        } else {
            self.n0 + (n - self.n0) % self.period
        };
        self.lose[i as usize]
    }

    /// P-positions among heaps a..b.
    fn count_in(&self, a: u64, b: u64) -> u64 {
        (a..b).filter(|&n| self.is_p(n)).count() as u64
    }

    /// P-positions among heaps 0..=x.
    fn count_upto(&self, x: u64) -> u64 {
        let (n0, q) = (self.n0, self.period);
        if x < n0 + q {
            return self.count_in(0, x + 1);
        }
        let span = x + 1 - n0;
        self.count_in(0, n0)
            + span / q * self.count_in(n0, n0 + q)
            + self.count_in(n0, n0 + span % q)
    }
}

impl PStream for QuotientStream {
    fn done(&self) -> u64 {
        self.next
    }
    fn advance(&mut self, out: &mut Vec<u64>) -> bool {
        if self.next > self.max {
            return false;
        }
        let end = self.max.min(self.next.saturating_add(1 << 22));
        for n in self.next..=end {
            if self.is_p(n) {
                out.push(n);
                self.count += 1;
            }
        }
        self.next = end.saturating_add(1);
        if end == u64::MAX {
            self.max = 0;
            self.next = 1;
        }
        true
    }
    fn state(&self) -> StreamState {
        StreamState::List { next: self.count }
    }
    fn count(&self) -> u64 {
        self.count
    }
    fn method(&self) -> &'static str {
        "misère quotient"
    }
}
