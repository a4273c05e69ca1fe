"""heaplab: impartial games on one heap, from a notebook.

Grundy values, outcomes and P-positions of subtraction games, octal and hexadecimal
take-and-break codes, divisor and interval games, computed by heaplab's Rust engines (the
same library calls as the ``heaplab`` command line) and handed over as NumPy arrays (the
engine's buffer, not a copy) or Arrow tables (the PyCapsule interface, so
``polars.from_arrow`` and ``pyarrow.table`` take them without a copy).

>>> import heaplab
>>> g = heaplab.Game("0.77")            # Kayles
>>> g.grundy(12).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
>>> a = g.analyze(300)
>>> (a.periodicity.preperiod, a.periodicity.period, a.periodicity.certified)
(71, 12, True)

Specs are the command line's (``heaplab.games()`` lists the families). Sizes are
positions 0..=n_max inclusive. Long calls release the GIL, stop with ``KeyboardInterrupt``
on Ctrl-C within a second, and take ``progress=callable(done, total)``. Runs that would need
more memory than this machine has free, or more than a day, raise :class:`RefusedError`
before any work, naming the largest N that fits.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass, field, fields
from typing import Any, Callable, Iterator, Optional, Sequence, Union

import numpy as np

from . import _heaplab

try:
    from importlib.metadata import PackageNotFoundError, version

    __version__ = version("heaplab")
except PackageNotFoundError:  # pragma: no cover - a source tree without metadata
    __version__ = "0.0.0"
from ._heaplab import ArrowTable, HeaplabError, RefusedError

__all__ = [
    "Game",
    "BeyondGame",
    "games",
    "who",
    "count",
    "sweep",
    "census",
    "census_classes",
    "census_games",
    "GameCensus",
    "check",
    "stone",
    "ArrowTable",
    "HeaplabError",
    "RefusedError",
    "Family",
    "Move",
    "Decision",
    "HeapValue",
    "SumMove",
    "SumDecision",
    "MixedTerm",
    "MixedSum",
    "Count",
    "Periodicity",
    "Quotient",
    "QuotientPeriod",
    "JointQuotient",
    "joint_quotient",
    "Candidate",
    "WinningMoves",
    "Comparison",
    "winning_moves",
    "compare",
    "PStats",
    "GrowthFit",
    "Gaps",
    "GrundyStats",
    "GenusStats",
    "RareStats",
    "ExcludedPeriods",
    "MisereHeap",
    "MisereSum",
    "Analysis",
    "CheckResult",
    "StoneMove",
    "StoneResult",
]

Progress = Optional[Callable[[int, int], Any]]


def _size(name: str, value: Any) -> int:
    """A size argument as a non-negative int below 2^64, else TypeError / ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    value = int(value)
    if value < 0:
        raise ValueError(f"{name} must not be negative (got {value})")
    if value >= 1 << 64:
        raise ValueError(f"{name} = {value} is too large (at most 2^64 - 1)")
    return value


def _build(cls, data: Optional[dict]):
    """A dataclass from a dict of its fields (extra keys ignored)."""
    if data is None:
        return None
    names = {f.name for f in fields(cls)}
    return cls(**{k: v for k, v in data.items() if k in names})


def _stats(cls, data: Optional[dict]):
    """PStats or GrundyStats, with their growth fit as a GrowthFit."""
    if data is None:
        return None
    data = dict(data)
    data["growth"] = _growth(data.get("growth"))
    return _build(cls, data)


@dataclass(frozen=True)
class QuotientPeriod:
    """The period of a misère quotient's heap map: Φ(n + period) = Φ(n) from heap
    ``preperiod``; ``proved`` when the quotient covers ``proof_needs`` heaps (then it is
    the quotient of every heap)."""

    preperiod: int
    period: int
    proof_needs: Optional[int]
    proved: bool


@dataclass(frozen=True)
class _QuotientParts:
    """What every misère quotient has: the heaps covered (0..=max of each game), the
    order, the P-portion, generators, relations and every element as a word in the
    generators a, b, c, … (``elements[i]`` is element id i; 0 is the identity)."""

    max: int
    order: int
    p_portion: list
    generators: list
    relations: list
    elements: list


def _quotient_parts(d: dict, generator) -> dict:
    return dict(
        max=d["max"],
        order=d["order"],
        p_portion=list(d["p_portion"]),
        generators=[generator(g) for g in d["generators"]],
        relations=list(d["relations"]),
        elements=list(d["elements"]),
    )


@dataclass(frozen=True)
class Quotient(_QuotientParts):
    """A misère quotient (``Game.quotient``); generators are ``(name, heap)``, the heap map
    ``heap_elements`` (element ids, uint32) and ``heap_words`` (as words)."""

    game: str
    heap_elements: "np.ndarray"
    heap_words: list
    growth: list
    period: Optional[QuotientPeriod]
    products: Optional["np.ndarray"]


@dataclass(frozen=True)
class JointQuotient(_QuotientParts):
    """The joint misère quotient of several take-and-break games (``joint_quotient``): one
    monoid for every sum mixing their heaps. ``heap_elements[j]`` is game j's heap map
    (element ids, uint32) and ``heap_words[j]`` the same as words; generators are
    ``(name, game, heap)``, growth steps ``(game, heap, order)``, ``periods[j]`` game j's
    period (or None)."""

    games: list
    heap_elements: list
    heap_words: list
    growth: list
    periods: list
    products: Optional["np.ndarray"]


@dataclass(frozen=True)
class Family:
    """A game family: an example spec, what its moves are, the word that names it in a
    spec (``"sub"``; empty for an entry that shows another one's syntax, such as codes)
    and the structure of its moves that picks the engines (``"finite set"``,
    ``"interval"``, ``"code digits"``, …)."""

    spec: str
    description: str
    name: str = ""
    structure: str = ""


@dataclass(frozen=True)
class Move:
    """A move in one heap: tokens removed and the non-empty heaps it leaves (increasing).

    In a coin-turning game (``ruler``, ``turning{1-3}``) ``turned`` lists the coins turned,
    the heap's own coin last; ``removed`` is then 0 and ``leaves`` the other coins, now
    heads. ``None`` for every other game.
    """

    removed: int
    leaves: list
    turned: Optional[list] = None


@dataclass(frozen=True)
class Decision:
    """Who wins one heap: ``win`` is True for an N-position (the player to move wins)."""

    n: int
    win: bool
    winning_move: Optional[Move]
    grundy: Optional[int]
    method: str


@dataclass(frozen=True)
class HeapValue:
    """One heap of a sum: its game, size, Grundy value and how that was found."""

    game: str
    n: int
    grundy: Optional[int]
    method: str


@dataclass(frozen=True)
class SumMove:
    """A winning move in a sum: the heap (0-based), the move in it, the sum it leaves."""

    heap: int
    removed: int
    leaves: list
    result: list


@dataclass(frozen=True)
class SumDecision:
    """Who wins a sum of heaps: each heap's value, their XOR, the outcome, one winning move."""

    heaps: list
    grundy: Optional[int]
    win: bool
    winning_move: Optional[SumMove]


@dataclass(frozen=True)
class MixedTerm:
    """One term of a sum with games beyond one heap: the term as written and its value."""

    term: str
    grundy: Optional[int]


@dataclass(frozen=True)
class MixedSum:
    """Who wins a sum of normal play mixing games beyond one heap (``wythoff:3,5``,
    ``fibonacci-nim:10``) with one-heap games: each term's value, their XOR, the outcome,
    one winning move as text and its term (counted from 1, as the text says: ``term 2``)."""

    sum: str
    terms: list
    grundy: int
    win: bool
    winning_move: Optional[str]
    move_term: Optional[int]


@dataclass(frozen=True)
class MisereHeap:
    """One heap of a misère sum: its game (normal-play moves), size, misère nim-value
    (None when the sum was decided by the misère quotient, which gives the heap's
    ``element`` instead, a word in the quotient's generators) and, for one-heap games, its
    genus (``"0^{120}"``) and phylum (``"tame"``, ``"restive"``, ``"restless"``,
    ``"wild"``)."""

    game: str
    n: int
    misere_value: Optional[int]
    genus: Optional[str] = None
    phylum: Optional[str] = None
    element: Optional[str] = None


@dataclass(frozen=True)
class MisereSum:
    """Who wins a sum of heaps in misère play (the last player to move loses): each heap,
    the outcome, the winning moves found (one for :func:`who`, up to the limit for
    :func:`winning_moves`) and the method: tame sums by the misère-Nim rule on genera,
    take-and-break heaps by canonical misère forms, or by the misère quotient of their
    game — the joint quotient of their games when the heaps are of several take-and-break
    games — first when its periods are proved quickly and for heaps beyond 64 (any size
    once the periods are proved). A sum that is not tame raises
    :class:`HeaplabError` naming the heap."""

    heaps: list
    win: bool
    moves: list
    method: str

    @property
    def winning_move(self) -> Optional["SumMove"]:
        """The first winning move (None when the sum loses)."""
        return self.moves[0] if self.moves else None


@dataclass(frozen=True)
class WinningMoves:
    """Every winning move of a heap or a sum (at most the limit asked for): the decision,
    the moves (:class:`SumMove`, heap 0 for a single heap), whether that is all of them,
    and for a single heap a note on which moves are listed when only some are."""

    decision: SumDecision
    moves: list
    complete: bool
    note: Optional[str]


@dataclass(frozen=True)
class Comparison:
    """Two games side by side on 0..=N: equal or not, how many positions differ, the first
    differences as ``(n, value in a, value in b)`` (at most 1000) and the last one."""

    games: list
    max: int
    values: str
    equal: bool
    count: int
    differences: list
    last: Optional[int]


@dataclass(frozen=True)
class Count:
    """P- and N-positions among k-heap positions (exact Python ints); ``max_grundy`` is the
    largest Grundy value among the heap sizes, None when one heap was counted from its
    P-positions alone."""

    total: int
    p_positions: int
    n_positions: int
    method: str
    max_grundy: Optional[int]


@dataclass(frozen=True)
class Periodicity:
    """Preperiod (leading terms before the periodic part), period, saltus and certificate."""

    preperiod: int
    last_exception: Optional[int]
    period: int
    saltus: int
    certified: bool
    certificate: str
    periods_seen: int
    exceptions: list = field(default_factory=list)
    exception_count: int = 0


@dataclass(frozen=True)
class Candidate:
    """When no period is accepted: the best candidate seen, and the N that would accept
    (``accept_at``) and prove (``prove_at``, None without a theorem) it."""

    preperiod: int
    period: int
    saltus: int
    periods_seen: int
    accept_at: int
    prove_at: Optional[int]


@dataclass(frozen=True)
class GrowthFit:
    """Both growth laws fitted to a non-decreasing count y(n) (the P-positions up to n, or
    the largest Grundy value up to n), and the one that fits best (``law``).

    ``"power"``: y ≈ c·n^alpha. ``"logarithmic"``: y ≈ a + b·ln n, one more each time n
    grows by the factor ``ratio`` = e^(1/b); for the P-position count that is exponential
    growth of the P-positions themselves, the k-th (k from 0) ≈ C·ratio^k, C =
    e^((1 − a)/b) (``exponential``). Each law is fitted by least squares in the coordinates
    that make it a straight line, on the curve's corners from n = ``from_`` to ``to``; its
    error is the root mean square of ln(fit / y) over the upper half of that range on a log
    scale (0.01 is about 1%), and the smaller error wins (the power law on a tie). ``a``,
    ``b`` and ``log_error`` are None when the logarithmic law does not fit (slope not
    positive)."""

    law: str
    c: float
    alpha: float
    power_error: float
    a: Optional[float]
    b: Optional[float]
    log_error: Optional[float]
    from_: int
    to: int
    points: int

    @property
    def error(self) -> float:
        """The best law's error."""
        return self.log_error if self.law == "logarithmic" else self.power_error

    @property
    def ratio(self) -> Optional[float]:
        """The logarithmic law's factor e^(1/b), or None."""
        return None if self.b is None else math.exp(1.0 / self.b)

    @property
    def exponential(self) -> Optional[tuple]:
        """For a P-position count: (C, r) with the k-th P-position ≈ C·r^k, or None."""
        if self.a is None or self.b is None:
            return None
        return (math.exp((1.0 - self.a) / self.b), math.exp(1.0 / self.b))

    def at(self, n: float) -> float:
        """The best law's value at n > 0."""
        if self.law == "logarithmic" and self.a is not None and self.b is not None:
            return self.a + self.b * math.log(n)
        return self.c * n**self.alpha


def _growth(d: Optional[dict]) -> Optional[GrowthFit]:
    if d is None:
        return None
    d = dict(d)
    d["from_"] = d.pop("from")
    return _build(GrowthFit, d)


@dataclass(frozen=True)
class PStats:
    """The P-positions in 0..=N: count, largest, density; ``growth``, the growth of their
    count (a :class:`GrowthFit`, None for a periodic game), and ``alpha``, ``c`` of
    count(≤ n) ≈ c·n^alpha when that power law fits best."""

    count: int
    largest: Optional[int]
    density: float
    alpha: Optional[float]
    c: Optional[float]
    per_period: Optional[list] = None
    exact_density: Optional[list] = None
    growth: Optional[GrowthFit] = None


@dataclass(frozen=True)
class Gaps:
    """The largest gap between consecutive P-positions and the P-position it ends at."""

    max: Optional[int]
    max_at: Optional[int]


@dataclass(frozen=True)
class GrundyStats:
    """Grundy values: the largest, where each value first occurs (index = value), and
    ``growth``, the growth of the largest value up to n (a :class:`GrowthFit`; None when
    the values stop growing or are periodic)."""

    max: int
    first_occurrence: list
    growth: Optional[GrowthFit] = None


@dataclass(frozen=True)
class Analysis:
    """The analysis record of a game over 0..=N (as ``heaplab analyze --json``)."""

    game: str
    max: int
    values: str
    periodicity: Optional[Periodicity]
    p_positions: PStats
    gaps: Gaps
    grundy: Optional[GrundyStats]
    candidate: Optional[Candidate] = None
    genus: Optional["GenusStats"] = None
    rare: Optional["RareStats"] = None
    excluded_periods: Optional["ExcludedPeriods"] = None


@dataclass(frozen=True)
class ExcludedPeriods:
    """Take-and-break codes with no period found: if the eventual period's preperiod is at
    most ``preperiod_at_most`` (the last P-position L), the period divides none of ``sums``
    (b + t for P-positions b >= 1 and the takes t of moves that split into any two heaps,
    and for the ``unequal_takes`` of splits into unequal heaps only, such as Grundy's game's
    t = 0, with b != L), so it is none of ``periods``. Proof: with a = L past the preperiod,
    the heap a + b + t has the option a + b of value 0, so it is no P-position; p | b + t
    would repeat g(a) = 0 there."""

    takes: list[int]
    preperiod_at_most: int
    sums: list[int]
    periods: list[int]
    unequal_takes: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class RareStats:
    """Octal codes: the sparse-space mask of the Grundy values (``range mask 0x…, rare
    class c``: n >= 1 is rare when popcount(g(n) & mask) has parity c; ``domain``: plus the
    parity of n), how many positions are rare, the last and its value."""

    mask: str
    count: int
    last: Optional[int]
    last_value: Optional[int]


@dataclass(frozen=True)
class GenusStats:
    """The genera of a one-heap game's heaps in misère play: the periodicity of the genus
    sequence (with its certificate), heaps per phylum (tame, restive, restless, wild), the
    first heap that is not tame, and the genera of heaps 0..15."""

    periodicity: Optional[Periodicity]
    phyla: list
    first_not_tame: Optional[int]
    first: list


@dataclass(frozen=True)
class CheckResult:
    """A claim checked on every row: rows, failures (false or null), first counterexamples;
    for a claim on the table that held, ``for_all`` is the argument that it holds for every
    n (it depends on n only through residues and the game's period is proven), or
    ``for_all_from`` the N a check would need for that argument."""

    holds: bool
    rows: int
    failures: int
    counterexamples: Any
    for_all: Optional[str] = None
    for_all_from: Optional[int] = None


@dataclass(frozen=True)
class StoneMove:
    """One move of an optimal line: the player (1 first, 2 second), what was taken
    (``"first"``/``"last"`` in game I, the number of piles from the front, an int, in II
    and III) and the values taken."""

    player: int
    took: Union[str, int]
    values: list


@dataclass(frozen=True)
class StoneResult:
    """A stone-game row solved: totals, margin, winner, and an optimal line when asked."""

    first_total: int
    second_total: int
    margin: int
    winner: str
    line: list


def _move(d: Optional[dict]) -> Optional[Move]:
    if d is None:
        return None
    turned = d.get("turned")
    return Move(d["removed"], list(d["leaves"]), None if turned is None else list(turned))


def _decision(d: dict) -> Decision:
    return Decision(d["n"], d["win"], _move(d["winning_move"]), d.get("grundy"), d["method"])


def _sum_decision(d: dict) -> SumDecision:
    m = d["winning_move"]
    move = None
    if m is not None:
        move = _sum_move(m)
    return SumDecision([_build(HeapValue, h) for h in d["heaps"]], d["grundy"], d["win"], move)


def _sum_move(m: dict) -> SumMove:
    return SumMove(m["heap"], m["removed"], list(m["leaves"]), [tuple(x) for x in m["result"]])


def _genus(d: Optional[dict]) -> Optional[GenusStats]:
    if d is None:
        return None
    return GenusStats(_build(Periodicity, d["periodicity"]), list(d["phyla"]), d["first_not_tame"], list(d["first"]))


def _misere_sum(d: dict) -> MisereSum:
    heaps = [_build(MisereHeap, h) for h in d["heaps"]]
    return MisereSum(heaps, d["win"], [_sum_move(m) for m in d["moves"]], d["method"])


def _winning_moves(d: dict) -> Union[WinningMoves, MisereSum]:
    if d.get("play") == "misere":
        return _misere_sum(d)
    return WinningMoves(
        _sum_decision(d["decision"]), [_sum_move(m) for m in d["moves"]], d["complete"], d["note"]
    )


def _limit(limit: int) -> int:
    limit = _size("limit", limit)
    if limit < 1:
        raise ValueError("limit must be at least 1")
    return limit


def _check_progress(progress: Progress) -> Progress:
    if progress is not None and not callable(progress):
        raise TypeError("progress must be a callable(done, total) or None")
    return progress


def _path(name: str, value: Any) -> Optional[str]:
    """A file path argument (str or os.PathLike of str) as a str; None stays None."""
    if value is None:
        return None
    try:
        path = os.fspath(value)
    except TypeError:
        raise TypeError(f"{name} must be a path (str or os.PathLike), not {type(value).__name__}") from None
    if not isinstance(path, str):
        raise TypeError(f"{name} must be a str path, not {type(path).__name__}")
    if not path:
        raise ValueError(f"{name} must not be an empty path")
    return path


def _seconds(name: str, value: Any) -> float:
    """A number of seconds: finite and not negative."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number of seconds, not {type(value).__name__}")
    value = float(value)
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a number of seconds (0 or more), not {value}")
    return value


class Game:
    """A game from its spec, e.g. ``Game("squares")``, ``Game("sub{1,3,4}")``,
    ``Game("0.77")`` (Kayles). Raises ``ValueError`` naming the problem for a bad spec."""

    __slots__ = ("_raw",)

    def __reduce__(self):
        # pickled and copied by its canonical spec
        return (Game, (self.spec,))

    def __new__(cls, spec: str = "", play: Optional[str] = None):
        # a game beyond one heap (two heaps, move memory, loopy) is a BeyondGame
        if cls is Game and isinstance(spec, str) and _heaplab.is_beyond(spec):
            return object.__new__(BeyondGame)
        return object.__new__(cls)

    def __init__(self, spec: str, play: Optional[str] = None):
        if not isinstance(spec, str):
            raise TypeError(f"a spec is a str, not {type(spec).__name__}")
        if play is not None and not isinstance(play, str):
            raise TypeError('play is "normal" or "misere"')
        self._raw = _heaplab.RawGame(spec, play)

    @property
    def spec(self) -> str:
        """The canonical spec (parses back to the same game)."""
        return self._raw.spec

    def __repr__(self) -> str:
        return f"Game({self.spec!r})"

    def __str__(self) -> str:
        return self.spec

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.spec == self.spec

    def __hash__(self) -> int:
        return hash(self.spec)

    def grundy(self, n_max: int, progress: Progress = None) -> np.ndarray:
        """Grundy values g(0..=n_max) as a NumPy array of the smallest unsigned dtype
        (uint8, uint16 or uint32) holding them; the engine's buffer, not a copy."""
        return self._raw.grundy(_size("n_max", n_max), _check_progress(progress))

    def outcomes(self, n_max: int, progress: Progress = None) -> np.ndarray:
        """Outcomes of 0..=n_max as a bool array: True for an N-position (the player to
        move wins), False for a P-position."""
        return self._raw.outcomes(_size("n_max", n_max), _check_progress(progress))

    def losers(
        self,
        n_max: int,
        progress: Progress = None,
        checkpoint: Union[str, "os.PathLike[str]", None] = None,
        checkpoint_every: float = 300.0,
    ) -> np.ndarray:
        """The P-positions in 0..=n_max, increasing, as a uint64 array (by the family's
        fastest engine: closed forms, the segmented sieve, tables).

        With ``checkpoint=PATH`` the run can be resumed after it is killed or interrupted:
        the P-positions go to ``PATH.spool`` (raw little-endian uint64) as they are found,
        and the stream's state is saved to ``PATH`` (written atomically) every
        ``checkpoint_every`` seconds at most (the first after 10 s, or
        ``checkpoint_every`` when less, then at doubling intervals). Calling again with the
        same arguments continues from the checkpoint; the result is the same array as an
        uninterrupted run's, read back from the spool, and both files are removed once it
        is complete. A checkpoint of another game or ``n_max``, a damaged one, or a spool
        that no longer matches it raises ``ValueError`` naming the file and the reason
        (remove them to start over); a checkpoint another run is using (an advisory lock
        on ``PATH.lock``) raises :class:`HeaplabError`."""
        n_max = _size("n_max", n_max)
        progress = _check_progress(progress)
        checkpoint = _path("checkpoint", checkpoint)
        every = _seconds("checkpoint_every", checkpoint_every)
        if checkpoint is None:
            return self._raw.losers(n_max, progress)
        return self._raw.losers(n_max, progress, checkpoint, every)

    def iter_losers(self, n_max: int, progress: Progress = None) -> Iterator[np.ndarray]:
        """The P-positions in 0..=n_max as a stream of increasing uint64 arrays, one per
        engine segment, for lists larger than memory: ``sum(c.size for c in ...)``."""
        return iter(self._raw.iter_losers(_size("n_max", n_max), _check_progress(progress)))

    def who(self, n: int, *more: int) -> Union[Decision, SumDecision]:
        """Who wins the heap ``n`` (a :class:`Decision`, heaps up to 2^64 - 1 where the
        family has a closed form or proven period) or, with more heaps, the sum of heaps
        of this game (a :class:`SumDecision` with each heap's Grundy value and one winning
        move)."""
        heaps = [_size("n", n)] + [_size("heap", h) for h in more]
        d = json.loads(self._raw.who(heaps))
        if d.get("play") == "misere":
            return _misere_sum(d)
        return _decision(d) if not more else _sum_decision(d)

    def winning_moves(self, n: int, *more: int, limit: int = 1000) -> WinningMoves:
        """Every winning move from the heap ``n`` (or the sum of heaps ``n, *more`` of this
        game), each with what it leaves, at most ``limit`` (as ``heaplab who --all``)."""
        heaps = [_size("n", n)] + [_size("heap", h) for h in more]
        return _winning_moves(json.loads(self._raw.winning_moves(heaps, _limit(limit))))

    def quotient(
        self, n_max: int, grow_to: Optional[int] = None, progress: Progress = None
    ) -> "Quotient":
        """The misère quotient (Plambeck and Siegel) of heaps 0..=n_max of this
        take-and-break game, built heap by heap and proved for every sum of those heaps:
        order, P-portion, generators, relations, the heap map (``heap_elements``, element
        ids as a uint32 array; ``heap_words`` as words) and its period, proved when the
        quotient covers 2·preperiod + 3·period + k heaps. The game may be written plainly
        or with ``play="misere"``. A code whose digits repeat for ever (``Game("4.7[4]")``,
        written plainly) is cut at ``n_max`` (at most 10^6), which plays heaps
        0..=n_max exactly; its period is observed, never proved.

        Growth of the quotient is the costly step: it is learned at heaps up to
        ``grow_to`` however long that takes (minutes or more past heap 25 for Kayles), or,
        when ``grow_to`` is None, at heaps up to 26 within a budget of seconds. A quotient
        that must grow further, a game without take-and-break moves, or a quotient past
        4096 elements raises :class:`HeaplabError`."""
        grow = None if grow_to is None else _size("grow_to", grow_to)
        d = json.loads(
            self._raw.quotient(_size("n_max", n_max), grow, _check_progress(progress))
        )
        products = d.get("products")
        return Quotient(
            **_quotient_parts(d, lambda g: (g["name"], g["heap"])),
            game=d["game"],
            heap_elements=np.asarray(d["heap_elements"], dtype=np.uint32),
            heap_words=list(d["heap_words"]),
            growth=[(g["heap"], g["order"]) for g in d["growth"]],
            period=_build(QuotientPeriod, d.get("period")),
            products=None if products is None else np.asarray(products, dtype=np.uint32),
        )

    def analyze(self, n_max: int, values: str = "grundy", progress: Progress = None) -> Analysis:
        """Periodicity (preperiod, period, saltus, certificate), P-position statistics,
        gaps and Grundy statistics of 0..=n_max; ``values="outcome"`` analyses the
        win/lose sequence."""
        if not isinstance(values, str):
            raise TypeError("values is \"grundy\" or \"outcome\"")
        d = json.loads(self._raw.analyze(_size("n_max", n_max), values, _check_progress(progress)))
        return Analysis(
            game=d["game"],
            max=d["max"],
            values=d["values"],
            periodicity=_build(Periodicity, d["periodicity"]),
            candidate=_build(Candidate, d.get("candidate")),
            p_positions=_stats(PStats, d["p_positions"]),
            gaps=_build(Gaps, d["gaps"]),
            grundy=_stats(GrundyStats, d["grundy"]),
            genus=_genus(d.get("genus")),
            rare=_build(RareStats, d.get("rare")),
            excluded_periods=_build(ExcludedPeriods, d.get("excluded_periods")),
        )

    def table(
        self,
        n_max: int,
        grundy: bool = True,
        progress: Progress = None,
        checkpoint: Union[str, "os.PathLike[str]", None] = None,
        checkpoint_every: float = 300.0,
        remoteness: bool = False,
        birthday: bool = False,
    ) -> Any:
        """Columns ``n`` (uint64), ``win`` (bool) and, with ``grundy``, ``grundy``
        (smallest unsigned) of 0..=n_max as an Arrow table, without a copy: a
        ``pyarrow.Table`` when pyarrow is installed (so ``polars.from_arrow(t)`` is a
        DataFrame), else an :class:`ArrowTable` that any consumer of the Arrow PyCapsule
        interface takes (``polars.DataFrame(t)``, ``pyarrow.table(t)``, DuckDB). In misère
        play (``Game(spec, play="misere")``) ``grundy`` holds misère nim-values and, for
        one-heap games, the string columns ``genus`` (``"0^{120}"``) and ``phylum``
        (``"tame"``, ``"restive"``, ``"restless"``, ``"wild"``) follow.

        With ``remoteness=True`` the column ``remoteness`` (smallest unsigned) follows:
        Smith's remoteness in the game's play, the number of moves left when the winner
        hurries and the loser delays — even exactly at normal-play P-positions, odd exactly
        at misère P-positions (0 at a heap without a move in both); games whose moves split
        a heap raise :class:`HeaplabError`, as coin-turning and ``seed( )`` games do. With
        ``birthday=True`` the column ``birthday``: the formal birthday, the number of moves
        in the longest play (a split leaves a sum, whose longest play is the sum of its
        heaps'); the canonical birthday of an impartial position is its Grundy value. Both
        are planned before any work and refused (:class:`RefusedError`) beyond the budget.

        With ``checkpoint=PATH`` (``grundy=True``; take-and-break codes, Grundy's game and
        subtraction games with a finite or named set, in normal play) the Grundy values are
        computed in segments and saved to ``PATH`` (written atomically) every
        ``checkpoint_every`` seconds at most (the first after 10 s, or
        ``checkpoint_every`` when less, then at doubling intervals), so a run that is
        killed or interrupted continues from there when called again with the same
        arguments; the table is the same as an uninterrupted run's, and the checkpoint is
        removed once it is complete. Only memory is budgeted then (such a run may take
        longer than a day). A checkpoint that is damaged, of another game or heaplab
        version, or whose first values are not this game's raises ``ValueError`` naming
        the file and the reason (remove it to start over); a checkpoint another run is
        using (an advisory lock on ``PATH.lock``) raises :class:`HeaplabError`."""
        n_max = _size("n_max", n_max)
        progress = _check_progress(progress)
        checkpoint = _path("checkpoint", checkpoint)
        every = _seconds("checkpoint_every", checkpoint_every)
        lengths = {"remoteness": bool(remoteness), "birthday": bool(birthday)}
        if checkpoint is None:
            return _arrow(self._raw.table(n_max, bool(grundy), progress, **lengths))
        return _arrow(
            self._raw.table(n_max, bool(grundy), progress, checkpoint, every, **lengths)
        )


class BeyondGame(Game):
    """A game beyond one heap, made by ``Game(spec)``: two heaps (``Game("wythoff")``,
    ``Game("wythoff{2}")``, ``Game("vectors{(1,2),(2,1)}")``), a heap with move memory
    (``Game("fibonacci-nim")``, ``Game("takeaway{3}")``) or a loopy game
    (``Game("put-or-take{squares}")``, ``Game("add-or-divide")``).

    >>> w = Game("wythoff")
    >>> w.grundy(3).tolist()
    [[0, 1, 2, 3], [1, 2, 0, 4], [2, 0, 1, 5], [3, 4, 5, 6]]
    >>> w.who(1000000000000000000, 999999999999999999)["to"]
    [2, 1]
    """

    __slots__ = ()

    def __init__(self, spec: str, play: Optional[str] = None):
        if play not in (None, "normal"):
            raise ValueError(f"{spec}: misère play is not available for games beyond one heap")
        self._raw = _heaplab.RawBeyond(spec)

    @property
    def structure(self) -> str:
        """``two heaps``, ``move memory`` or ``loopy``."""
        return self._raw.structure

    def grundy(self, n_max: int, progress: Progress = None, row: Optional[int] = None) -> np.ndarray:
        """Two heaps: g(a, b) for 0 <= a, b <= n_max as a 2-D uint32 array (``row=R``: rows
        0..=R only, shape (R + 1, n_max + 1)); move memory: g(heap, allowance) (an allowance
        beyond the heap reads as the heap). Loopy games raise ``ValueError``."""
        r = None if row is None else _size("row", row)
        return self._raw.grundy(_size("n_max", n_max), r, _check_progress(progress))

    def losers(self, n_max: int, progress: Progress = None) -> Any:  # type: ignore[override]
        """The P-positions up to n_max as an Arrow table (a pyarrow.Table when pyarrow is
        installed): pairs (k, a, b) with a, b <= n_max (a <= b for symmetric games), start
        heaps (k, n), or loopy losses (n)."""
        return _arrow(self._raw.losers(_size("n_max", n_max), _check_progress(progress)))

    def outcomes(self, n_max: int, progress: Progress = None) -> Any:  # type: ignore[override]
        """Loopy games: (n, outcome) for n <= n_max, outcome ``win``, ``loss``, ``draw``
        (certified) or ``undecided`` (no sound bound known); the table's schema metadata
        ``statement`` holds the window and its argument."""
        table, statement = self._raw.outcomes(_size("n_max", n_max), _check_progress(progress))
        t = _arrow(table)
        if hasattr(t, "replace_schema_metadata"):
            t = t.replace_schema_metadata({"statement": statement})
        return t

    def who(self, *position: int) -> dict:  # type: ignore[override]
        """One position: two heaps ``who(a, b)``; a start heap ``who(n)`` or CGSuite's
        (heap, previous move) ``who(n, k)``; a loopy heap ``who(n)``. A dict with ``win``
        (None for a draw or undecided), the winning move and how it was decided."""
        return json.loads(self._raw.who([_size("position", p) for p in position]))


def _not_beyond(name: str) -> Callable[..., Any]:
    def refuse(self: Any, *args: Any, **kwargs: Any) -> Any:
        raise ValueError(
            f"{self.spec} is a game beyond one heap: {name}() is for one-heap games "
            "(use grundy, losers, outcomes or who)"
        )

    refuse.__name__ = name
    return refuse


for _name in ("iter_losers", "winning_moves", "analyze", "table"):
    setattr(BeyondGame, _name, _not_beyond(_name))


def _arrow(t: ArrowTable) -> Any:
    """A pyarrow.Table of the same buffers when pyarrow is installed, else ``t``."""
    try:
        import pyarrow
    except ImportError:
        return t
    return pyarrow.table(t)


def games() -> list:
    """Every game family with an example spec."""
    return [Family(**f) for f in json.loads(_heaplab.games())]


def who(sum_text: str) -> Union[Decision, SumDecision, MixedSum]:
    """Who wins a sum written ``"SPEC:HEAP + SPEC:HEAP ..."``, e.g.
    ``who("squares:5 + 0.77:12 + sub{1,2}:7")``: each heap's Grundy value, their XOR, the
    outcome and one winning move (a one-heap sum gives the heap's :class:`Decision`). Terms
    of games beyond one heap take their position (``wythoff:3,5``, ``fibonacci-nim:10`` or
    ``fibonacci-nim:10,3``): such a sum gives a :class:`MixedSum`."""
    if not isinstance(sum_text, str):
        raise TypeError(f"a sum is a str, not {type(sum_text).__name__}")
    d = json.loads(_heaplab.who_sum(sum_text))
    if "terms" in d:
        return MixedSum(
            d["sum"],
            [MixedTerm(t["term"], t["grundy"]) for t in d["terms"]],
            d["grundy"],
            d["win"],
            d["winning_move"],
            d["move_term"],
        )
    if d.get("play") == "misere":
        return _misere_sum(d)
    return _sum_decision(d) if "heaps" in d else _decision(d)


def winning_moves(sum_text: str, limit: int = 1000) -> WinningMoves:
    """Every winning move of a sum ``"SPEC:HEAP + SPEC:HEAP ..."`` (moves that raise a
    heap's value included), at most ``limit``."""
    if not isinstance(sum_text, str):
        raise TypeError(f"a sum is a str, not {type(sum_text).__name__}")
    return _winning_moves(json.loads(_heaplab.winning_moves_sum(sum_text, _limit(limit))))


def compare(a: str, b: str, n_max: int, values: str = "grundy", progress: Progress = None) -> Comparison:
    """Two games' Grundy values (``values="outcome"``: outcomes) on 0..=n_max side by side,
    as ``heaplab compare``: ``compare(".161", ".36", 700).differences[0][0] == 519``."""
    for x in (a, b):
        if not isinstance(x, str):
            raise TypeError(f"a spec is a str, not {type(x).__name__}")
    if not isinstance(values, str):
        raise TypeError('values is "grundy" or "outcome"')
    d = json.loads(_heaplab.compare(a, b, _size("n_max", n_max), values, _check_progress(progress)))
    diffs = [(x["n"], x["a"], x["b"]) for x in d["differences"]]
    return Comparison(d["games"], d["max"], d["values"], d["equal"], d["count"], diffs, d["last"])


def joint_quotient(
    games: Sequence[str], n_max: int, grow_to: Optional[int] = None, progress: Progress = None
) -> JointQuotient:
    """The joint misère quotient (Plambeck and Siegel) of heaps 0..=n_max of each of
    ``games`` (take-and-break specs, each listed once), as ``heaplab quotient --with``:
    ``joint_quotient(["0.75", "0.77"], 30).order == 48``. Growth is learned as in
    :meth:`Game.quotient`; a game without quotient support, a game listed twice (or two
    spellings of one rule, ``4!.0`` and ``grundy-game``) and a quotient that must grow
    further raise :class:`HeaplabError`."""
    if isinstance(games, str) or not all(isinstance(g, str) for g in games):
        raise TypeError("games is a list of specs (str)")
    grow = None if grow_to is None else _size("grow_to", grow_to)
    d = json.loads(
        _heaplab.joint_quotient(list(games), _size("n_max", n_max), grow, _check_progress(progress))
    )
    products = d.get("products")
    return JointQuotient(
        **_quotient_parts(d, lambda g: (g["name"], g["game"], g["heap"])),
        games=list(d["games"]),
        heap_elements=[np.asarray(v, dtype=np.uint32) for v in d["heap_elements"]],
        heap_words=[list(v) for v in d["heap_words"]],
        growth=[(g["game"], g["heap"], g["order"]) for g in d["growth"]],
        periods=[_build(QuotientPeriod, p) for p in d["periods"]],
        products=None if products is None else np.asarray(products, dtype=np.uint32),
    )


def count(
    spec: str,
    heaps: int,
    n_max: int,
    n_min: int = 0,
    sorted: bool = False,
    progress: Progress = None,
) -> Count:
    """P-positions (XOR of the Grundy values 0) among positions of ``heaps`` heaps of one
    game, each heap in n_min..=n_max: ordered tuples, or multisets a <= b <= ... with
    ``sorted=True``. Exact; at once for closed forms and proven periods at any n_max.
    Misère play (``"misere(0.77)"``) is counted for one heap only: by a proved period of its
    misère quotient at any n_max, else from its P-positions. Project Euler 310: ``count("squares", 3, 29, sorted=True).p_positions == 1160``."""
    if not isinstance(spec, str):
        raise TypeError(f"a spec is a str, not {type(spec).__name__}")
    k = _size("heaps", heaps)
    if not 1 <= k <= 64:
        raise ValueError(f"heaps must be 1 to 64, not {k}")
    d = json.loads(
        _heaplab.count(
            spec,
            k,
            _size("n_max", n_max),
            _size("n_min", n_min),
            bool(sorted),
            _check_progress(progress),
        )
    )
    return Count(
        int(d["total"]), int(d["p_positions"]), int(d["n_positions"]), d["method"], d["max_grundy"]
    )


def sweep(spec: str, param: str, n_max: int, progress: Progress = None) -> Any:
    """One row per value of a parameter of the spec (``sweep("sub{1,2,k}", "k=3..40",
    1000)``): the value (a column named after the parameter), ``game``, ``preperiod``,
    ``period``, ``saltus``, ``certified``, ``p_positions``, ``max_grundy``, as an Arrow
    table (as :meth:`Game.table`)."""
    if not isinstance(spec, str) or not isinstance(param, str):
        raise TypeError("spec and param are str")
    return _arrow(_heaplab.sweep_table(spec, param, _size("n_max", n_max), _check_progress(progress)))


from ._census import GameCensus, census, census_classes, census_games  # noqa: E402  (uses _arrow and _size above)


def stone(variant: int, piles: Sequence[int], line: bool = False, strategy: Optional[str] = None) -> StoneResult:
    """Solves one row of stone game I, II or III (``variant`` 1, 2 or 3); with ``line``,
    also one optimal line of play. With ``strategy="greedy"`` the first player follows the
    greedy rule (I: the larger end; II, III: the most the move can take) against the
    second player's best reply: the result (and line) of that play, to compare with best
    play on both sides (``strategy=None``)."""
    if strategy is not None and not isinstance(strategy, str):
        raise TypeError('strategy is None or "greedy"')
    if isinstance(variant, (bool, np.bool_)) or not isinstance(variant, (int, np.integer)):
        raise TypeError("variant is 1, 2 or 3")
    variant = int(variant)
    if not 1 <= variant <= 3:
        raise ValueError(f"variant must be 1, 2 or 3, not {variant}")
    if isinstance(piles, (str, bytes, dict, set, frozenset)) or not hasattr(piles, "__iter__"):
        raise TypeError("piles is a sequence of integers, e.g. [2, 7, 9]")
    values = []
    for i, p in enumerate(piles):
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, np.integer)):
            raise TypeError(f"pile {i + 1} is {p!r}: piles are integers")
        if not -(2**63) <= int(p) < 2**63:
            raise ValueError(f"pile {i + 1} is {int(p)}: pile values must fit in 64 bits")
        values.append(int(p))
    if not isinstance(line, (bool, np.bool_)):
        raise TypeError("line is True or False")
    d = json.loads(_heaplab.stone(variant, values, bool(line), strategy))  # the solver's own limits
    r = d["result"]
    moves = [
        StoneMove(m["player"], int(m["took"]) if str(m["took"]).isdigit() else m["took"], m["values"])
        for m in d["line"]
    ]
    return StoneResult(r["first_total"], r["second_total"], r["margin"], r["winner"], moves)


# Claims: the command line's number-theory functions, evaluated by the engines' own code.
_CLAIM_FUNCTIONS = {
    "isqrt": 1,
    "v2": 1,
    "popcount": 1,
    "is_square": 1,
    "is_prime": 1,
    "xor": 2,
    # look-ups of the table at another row (null off the table)
    "grundy_at": 1,
    "win_at": 1,
}
_CALL = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(_CLAIM_FUNCTIONS) + r")\s*\(", re.IGNORECASE)


def _innermost_call(text: str):
    """The first call of one of our functions whose arguments call none of them:
    (start, end, name, [argument texts]), or None."""
    for m in _CALL.finditer(text):
        depth, i, args, start_arg, quote = 1, m.end(), [], m.end(), None
        while i < len(text) and depth:
            c = text[i]
            if quote:
                if c == quote:
                    quote = None
            elif c in "'\"":
                quote = c
            elif c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
            elif c == "," and depth == 1:
                args.append(text[start_arg:i])
                start_arg = i + 1
            i += 1
        if depth:
            raise ValueError(f"invalid claim: unbalanced parentheses after {m.group(1)}(")
        args.append(text[start_arg : i - 1])
        if any(_CALL.search(a) for a in args):
            continue
        return m.start(), i, m.group(1).lower(), args
    return None


def _look_up(name: str, x, null, tables: dict):
    """``grundy_at(x)`` / ``win_at(x)``: the table at rows x, null for a null or negative x
    or one past the table (as on the command line)."""
    grundy, win = tables.get("grundy"), tables.get("win")
    size = grundy.size if grundy is not None else (win.size if win is not None else 0)
    valid = ~null & (x >= 0) & (x < size)
    at = np.where(valid, x, 0)
    if name == "grundy_at":
        values = grundy[at].astype(np.int64) if grundy is not None else np.zeros(x.size, np.int64)
    elif win is not None:
        values = win[at]
    elif grundy is not None:
        values = grundy[at] != 0
    else:
        values = np.zeros(x.size, bool)
    if grundy is None and (win is None or name == "grundy_at"):
        valid = np.zeros(x.size, bool)
    return values, valid


_CHUNK = 1 << 20
# calls of our functions in one claim (each is a pass over the chunk)
_MAX_CALLS = 256


def _claim_on(pl, claim: str, frame, columns, tables=None):
    """The claim's truth on each row of `frame` (a polars Series of booleans): our
    functions, innermost first, computed by the engines and put in as columns."""
    # integer columns are signed 64-bit inside a claim, as on the command line
    work = frame.with_columns(
        [pl.col(c).cast(pl.Int64) for c, t in frame.schema.items() if t.is_integer()]
    )
    text, made, names = claim, 0, {}

    def readable(e: Exception) -> str:
        m = f"{e}".splitlines()[0] if f"{e}" else type(e).__name__
        for column, call in names.items():
            m = m.replace(column, call)
        if isinstance(e, pl.exceptions.ColumnNotFoundError):
            m = f"{m}: the columns are {', '.join(columns)} (names are case-sensitive)"
        return f"invalid claim: {m}"

    while (call := _innermost_call(text)) is not None:
        start, end, name, args = call
        if len(args) != _CLAIM_FUNCTIONS[name]:
            raise ValueError(f"invalid claim: {name} takes {_CLAIM_FUNCTIONS[name]} argument(s), not {len(args)}")
        try:
            arg_names = [f"__heaplab_arg{j}" for j in range(len(args))]
            cols = work.with_columns(
                [pl.sql_expr(a).alias(c) for a, c in zip(args, arg_names)]
            ).select(arg_names)
        except Exception as e:
            raise ValueError(readable(e)) from None
        ints, nulls = [], []
        for c in cols.columns:
            col = cols[c]
            if col.dtype.is_float():
                frac = (col - col.floor()).fill_nan(0).fill_null(0)
                if ((frac != 0) & (col.abs() <= 9e15).fill_null(False)).any():
                    raise ValueError(f"invalid claim: {', '.join(_CLAIM_FUNCTIONS)} take integers")
                if (col.abs() >= 2.0**63).fill_null(False).any():
                    raise ValueError(f"invalid claim: an argument of {name} is past the 64-bit range")
            elif col.dtype == pl.Boolean:
                col = col.cast(pl.Int64)
            elif not (col.dtype.is_integer() or col.dtype == pl.Null):
                raise ValueError(f"invalid claim: {name} takes integers, not {col.dtype}")
            col = col.cast(pl.Int64, strict=False)
            nulls.append(col.is_null().to_numpy())
            ints.append(col.fill_null(0).to_numpy().astype(np.int64))
        if name in ("grundy_at", "win_at"):
            values, valid = _look_up(name, ints[0], nulls[0], tables or {})
        else:
            values, valid = _heaplab.claim_function(name, ints, nulls)
        column = f"__heaplab_{made}"
        names[column] = text[start:end]
        made += 1
        series = pl.Series(column, values)
        if not valid.all():
            series = series.scatter(np.flatnonzero(~valid), None)
        work = work.with_columns(series)
        text = text[:start] + column + text[end:]
    try:
        ok = work.select(pl.sql_expr(text).alias("ok"))["ok"]
    except Exception as e:
        raise ValueError(readable(e)) from None
    if ok.dtype != pl.Boolean:
        raise ValueError(f"the claim must be a true/false expression, but it gives {ok.dtype}")
    if ok.len() != frame.height:
        # a constant claim (`1 = 2`): the same truth on every row
        ok = pl.repeat(ok[0], frame.height, eager=True).alias("ok")
    return ok


def check(spec: str, n_max: int, claim: str, on: str = "table", progress: Progress = None) -> CheckResult:
    """Checks a claim (a true/false polars SQL expression, as ``heaplab check``) on every
    position (``on="table"``: columns ``n``, ``win``, ``grundy``) or every P-position
    (``on="losers"``: ``k``, ``p``, ``gap``, ``prev``). The functions ``isqrt``, ``v2``,
    ``popcount``, ``is_square``, ``is_prime`` and ``xor`` are the command line's, computed
    by the engines (null for a negative argument). A row fails when the claim is false or
    null. Only the columns the claim names are computed (with the engines' memory checks),
    and rows are checked in chunks of 2^20, so memory stays near the table's own size.
    String literals and ``;`` are refused, as on the command line. Needs the ``polars``
    package (``pip install polars``)."""
    try:
        import polars as pl
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("heaplab.check needs polars: pip install polars") from e
    if not isinstance(claim, str):
        raise TypeError(f"the claim is a string, not {type(claim).__name__}")
    if not isinstance(on, str):
        raise TypeError('on is "table" or "losers"')
    if on not in ("table", "losers"):
        raise ValueError(f'on must be "table" or "losers", not {on!r}')
    # the command line's checks of the text: one expression, at most 2000 operators, no
    # aggregates or windows, our functions' arities
    literals = _heaplab.precheck_claim(claim)
    if literals:
        raise ValueError(
            f"invalid claim: string literal at column {literals[0]} of the claim, but the columns "
            "here hold only numbers and true/false"
        )
    calls = len(_CALL.findall(claim))
    if calls > _MAX_CALLS:
        raise ValueError(f"invalid claim: {calls} calls of {', '.join(_CLAIM_FUNCTIONS)}, more than {_MAX_CALLS}")
    game = Game(spec)
    n_max = _size("n_max", n_max)
    columns = ("n", "win", "grundy") if on == "table" else ("k", "p", "gap", "prev")
    # the command line's budget: table size, the engine's memory and time, the claim's rows
    names = set(_heaplab.claim_identifiers(claim))
    uses_grundy = "grundy" in names or "grundy_at" in names
    uses_win = "win" in names or "win_at" in names
    if on == "losers" and names & {"grundy_at", "win_at"}:
        raise ValueError("invalid claim: grundy_at and win_at read the table of every position: check the claim on the table")
    _heaplab.check_plan(game.spec, n_max, on, uses_grundy, uses_win)
    tables = {}
    if on == "table":
        rows = n_max + 1
        grundy = game.grundy(n_max, progress=progress) if uses_grundy else None
        win = None
        if grundy is None and uses_win:
            win = game.outcomes(n_max, progress=progress)
        tables = {"grundy": grundy, "win": win}

        def frame(lo: int, hi: int):
            cols = {"n": pl.Series("n", np.arange(lo, hi, dtype=np.uint64))}
            if grundy is not None:
                cols["win"] = pl.Series("win", grundy[lo:hi] != 0)
                cols["grundy"] = pl.Series("grundy", grundy[lo:hi])
            elif win is not None:
                cols["win"] = pl.Series("win", win[lo:hi])
            return pl.DataFrame(cols)
    else:
        ps = game.losers(n_max, progress=progress)
        rows = int(ps.size)

        def frame(lo: int, hi: int):
            p = pl.Series("p", ps[lo:hi], dtype=pl.UInt64)
            prev = pl.Series("prev", ps[max(lo - 1, 0):max(hi - 1, 0)], dtype=pl.UInt64)
            if lo == 0 and hi > 0:
                prev = pl.concat([pl.Series("prev", [None], dtype=pl.UInt64), prev])
            df = pl.DataFrame({"k": np.arange(lo, hi, dtype=np.uint64), "p": p, "prev": prev})
            return df.with_columns(gap=pl.col("p") - pl.col("prev")).select("k", "p", "gap", "prev")

    failures, examples = 0, []
    shown = 0
    for lo in range(0, max(rows, 1), _CHUNK):
        hi = min(lo + _CHUNK, rows)
        df = frame(lo, hi)
        failing = ~_claim_on(pl, claim, df, columns, tables).fill_null(False)
        count = int(failing.sum())
        failures += count
        if count and shown < 10:
            bad = df.filter(failing).head(10 - shown)
            shown += bad.height
            examples.append(bad)
        if rows == 0:
            break
    if examples:
        counterexamples = pl.concat(examples)
    else:
        counterexamples = frame(0, 0)
    for_all, for_all_from = None, None
    if failures == 0 and on == "table":
        for_all, for_all_from = _heaplab.prove_for_all(game.spec, n_max, claim)
    return CheckResult(failures == 0, rows, failures, counterexamples, for_all, for_all_from)
