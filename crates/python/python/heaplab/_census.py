"""Censuses of whole spaces of games, in one process or on a Dask cluster.

>>> import heaplab
>>> t = heaplab.census(["sub{a,b,c}"], where="1 <= a < b < c <= 12", n_max=4096)
>>> t.num_rows < 220          # 220 sets, scaled ones merged into their classes
True

A census enumerates the space in a fixed order (templates as given; within one, its
parameters in order of first appearance, the last varying fastest), groups the games into
classes by proven reductions (common factors of subtraction sets, provably redundant moves,
octal first cousins), and computes one row per class: N doubles from ``start`` until the
period is certified or ``n_max`` (or the estimated ``seconds``) is reached. Rows are pure
functions of (class, budget, heaplab version) apart from the ``seconds`` column, so the rows
are the same whichever process or machine computes them.

On a cluster (``dask.distributed``; ``dask-jobqueue`` puts one on Slurm or PBS), each class
is one task::

    from dask.distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1) as cluster, Client(cluster) as client:
        t = heaplab.census(["0.???"], n_max=65536, client=client)

Tasks that fail are retried (``retries``); a class that still fails becomes a row with
status ``failed`` and the error as its verdict.

With ``journal=PATH`` a census can be resumed: each row is appended to the journal as it
is finished, and a later call with the same arguments computes only the classes the
journal does not hold (the rule of ``heaplab census -o FILE``, whose journal is
``FILE.journal``)::

    t = heaplab.census(["0.???"], n_max=65536, journal="octal3.journal")
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from . import _heaplab

__all__ = ["census", "census_classes", "census_games", "GameCensus"]


def _strings(name: str, v: Any) -> list:
    if isinstance(v, str):
        return [v]
    if v is None:
        return []
    # a list or tuple keeps the order the space is enumerated in (a set would not)
    if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) for x in v):
        raise TypeError(f"{name} must be a str or a list of str")
    return list(v)


def _classes(games: Any, where: str, params: Any) -> dict:
    if not isinstance(where, str):
        raise TypeError("where must be a str")
    return json.loads(
        _heaplab.census_classes(_strings("games", games), _strings("params", params), where)
    )


def census_classes(games: Any, where: str = "", params: Any = None) -> dict:
    """The classes of a space without computing anything: ``{"space", "items",
    "classes"}``, each class a dict with ``index``, ``game`` (the representative's spec),
    ``member_list`` and ``members`` (each member's ``item``, ``spec`` and ``reduction``,
    e.g. ``"scale 2"``). ``games`` is one template or a list (``"sub{a,b,c}"``,
    ``"0.???"``: ``?`` is any octal digit), ``where`` the constraints (``"1 <= a < b < c
    <= 20, a + b != c"``), ``params`` explicit values (``["k=3..40"]``). Raises ValueError
    naming the problem."""
    info = _classes(games, where, params)
    del info["payloads"]
    return info


def _task(class_json: str, start: int, n_max: int, seconds: Optional[float]) -> str:
    """One class's row (JSON), computed where this runs (a Dask worker)."""
    rows = json.loads(_heaplab.census_rows("[" + class_json + "]", start, n_max, seconds))
    return json.dumps(rows[0])


def census(
    games: Any,
    where: str = "",
    params: Any = None,
    n_max: int = 65536,
    start: int = 256,
    seconds: Optional[float] = None,
    client: Any = None,
    retries: int = 2,
    with_seconds: bool = True,
    progress: Optional[Callable[[int, int], Any]] = None,
    journal: Any = None,
    per_game: bool = False,
    _task_fn: Callable[..., str] = _task,
) -> Any:
    """One row per class of the space, as an Arrow table sorted by class, with the columns
    of ``heaplab census`` (``census``, ``classes``, ``class``, ``item``, ``game``,
    ``members``, ``member_list``, ``status``, ``verdict``, ``preperiod``, ``period``,
    ``saltus``, ``certificate``, ``n``, ``max_grundy``, ``max_grundy_at``,
    ``p_positions``, ``last_p``, ``rare_mask``, ``rare_count``, ``last_rare``, ``known``,
    ``disagrees``, ``fingerprint``, ``same_values_as``, and ``seconds`` unless
    ``with_seconds`` is false).

    Without ``client`` the classes run in this process on every core. With a
    ``dask.distributed.Client`` each class is one task (``retries`` retries each); a
    class that still fails becomes a ``failed`` row. ``seconds`` is a per-class budget in
    heaplab's estimated seconds. ``progress(done, total)`` is called with the number of
    classes finished (of those this call computes).

    ``journal=PATH`` (str or os.PathLike) makes the census resumable, in one process or
    with a client: every finished row is appended to the journal and flushed at once, so
    after a kill, an interrupt or a lost cluster the same call computes only the classes
    still missing (rows of failed classes are computed again) and returns the same rows
    as an uninterrupted run (the ``seconds`` column apart). The journal is removed once
    the census is complete. A journal of another census (other games, constraints or
    budget) raises ``ValueError`` naming the file; a journal another run is using (an
    advisory lock on ``PATH.lock``) raises :class:`heaplab.HeaplabError`.

    ``per_game=True`` returns one row per game instead (``heaplab census --members``):
    ``census``, ``items``, ``item``, the parameters as columns, ``game``, ``class``,
    ``representative``, ``reduction``, ``scale``, ``shift``, ``status``, ``verdict``, the
    game's own ``preperiod``, ``period`` and ``saltus`` (its class's carried through the
    reduction), ``max_grundy``, ``class_preperiod``, ``class_period``, ``class_n`` and
    ``class_certificate``."""
    from . import _arrow, _path, _size

    n_max = _size("n_max", n_max)
    start = _size("start", start)
    if progress is not None and not callable(progress):
        raise TypeError("progress must be callable(done, total)")
    if seconds is not None:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
            raise TypeError("seconds must be a number or None")
        seconds = float(seconds)
    if isinstance(retries, bool) or not isinstance(retries, int):
        raise TypeError("retries must be an int")
    if retries < 0:
        raise ValueError("retries must be >= 0")
    if client is not None and not callable(getattr(client, "map", None)):
        raise TypeError("client must be a dask.distributed.Client")
    if not isinstance(with_seconds, bool):
        raise TypeError("with_seconds must be True or False")
    if not isinstance(per_game, bool):
        raise TypeError("per_game must be True or False")
    journal = _path("journal", journal)
    info = _classes(games, where, params)
    ident = _heaplab.census_identity(info["space"], start, n_max, seconds)
    payloads = info["payloads"]

    def table(rows: str) -> Any:
        if per_game:
            return _arrow(
                _heaplab.census_member_table(
                    rows,
                    "[" + ",".join(payloads) + "]",
                    _strings("games", games),
                    _strings("params", params),
                    where,
                    ident,
                    len(payloads),
                )
            )
        return _arrow(_heaplab.census_table(rows, ident, len(payloads), bool(with_seconds)))

    if journal is None:
        return table(_rows(client, payloads, start, n_max, seconds, retries, _task_fn, progress, None))
    jr = _heaplab.CensusJournal(journal, ident, len(payloads))
    try:
        # the rows the journal holds that fit this census, and the classes still to do
        kept, todo = jr.resume("[" + ",".join(payloads) + "]")
        fresh = _rows(
            client, [payloads[i] for i in todo], start, n_max, seconds, retries, _task_fn, progress, jr
        )
        rows = json.dumps(json.loads(kept) + json.loads(fresh))
        out = table(rows)
        jr.finish()
        return out
    finally:
        jr.close()


def _rows(
    client: Any,
    payloads: Sequence[str],
    start: int,
    n_max: int,
    seconds: Optional[float],
    retries: int,
    task: Callable[..., str],
    progress: Optional[Callable[[int, int], Any]],
    journal: Any,
) -> str:
    """Rows (a JSON list) of the classes `payloads`, here or on `client`, each appended to
    `journal` (a ``CensusJournal``) as it is finished."""
    if client is None:
        return _heaplab.census_rows(
            "[" + ",".join(payloads) + "]", start, n_max, seconds, progress, journal
        )
    return json.dumps(
        _distributed(client, payloads, start, n_max, seconds, retries, task, progress, journal)
    )


def _distributed(
    client: Any,
    payloads: Sequence[str],
    start: int,
    n_max: int,
    seconds: Optional[float],
    retries: int,
    task: Callable[..., str],
    progress: Optional[Callable[[int, int], Any]],
    journal: Any = None,
) -> list:
    """Rows of every class from tasks on `client`, a failed task's class as a failed row;
    each finished row appended to `journal` as it arrives."""
    from dask.distributed import as_completed

    if not payloads:  # (every class resumed from the journal)
        return []
    futures = client.map(
        task,
        payloads,
        start=start,
        n_max=n_max,
        seconds=seconds,
        retries=int(retries),
        pure=False,
    )
    for done, f in enumerate(as_completed(futures), 1):
        if journal is not None and f.status == "finished":
            journal.write(f.result())
        if progress is not None:
            progress(done, len(futures))
    rows = []
    for payload, f in zip(payloads, futures):
        if f.status == "finished":
            rows.append(json.loads(f.result()))
        else:
            err = f.exception()
            text = " ".join(str(err).split())
            msg = f"task failed after {retries} retries: {type(err).__name__}: {text}"
            rows.append(json.loads(_heaplab.census_failed_row(payload, msg)))
    return rows


@dataclass(frozen=True)
class GameCensus:
    """A per-game census: ``table`` holds one row per game (a ``pyarrow.Table`` when
    pyarrow is installed, else an Arrow stream for ``polars.from_arrow``), ``tally`` the
    summary ``heaplab census --per-game --json`` prints (counts, the period and preperiod
    distribution, the longest period and preperiod, Flammenkamp's conjectures with their
    counterexamples)."""

    table: Any
    tally: dict


def census_games(
    games: Any,
    where: str = "",
    params: Any = None,
    play: str = "normal",
    grundy: bool = False,
    limit: int = 1 << 24,
    progress: Optional[Callable[[int, int], Any]] = None,
    client: Any = None,
    retries: int = 2,
) -> GameCensus:
    """One row per game of a space of finite subtraction sets, the outcome period of each
    found at bit speed (the window engine of ``heaplab census --per-game``): columns
    ``census``, ``items``, ``item``, one per parameter (``a``, ``b``, …), ``game``,
    ``class`` (the primitive set: ``game`` divided by ``scale``, the gcd of its moves), ``scale``, ``moves`` and ``s1``…, ``status``
    (``certified`` or ``none`` when no period shows by ``limit``), ``preperiod``,
    ``period``, ``p_per_period``, ``p_before``, ``repeat_at``, ``computed``, and with
    ``grundy=True`` the Grundy period columns (``grundy_status``, ``grundy_preperiod``,
    ``grundy_period``, ``grundy_max``, ``grundy_p_per_period``).

    ``games`` is a template or a list (``"sub{a,b,c}"``), ``where`` the constraints
    (``"1 <= a < b < c <= 40"``), ``params`` explicit values (``["k=3..40"]``). With
    ``client`` (a ``dask.distributed.Client``) each chunk of 65,536 games is one task
    (``retries`` retries each) and the tables and tallies are joined here in the space's
    order: the same result as one process. ``play``
    is ``"normal"`` or ``"misere"``; ``grundy`` needs normal play. ``limit`` (positions,
    1 to 2^28) bounds each game's search for its period. All rows are held in memory
    (about 200 bytes a game): for tens of millions of games write Parquet shards with the
    command line instead. ``progress(done, total)`` is called with games finished.

    Raises ValueError naming the problem (a bad space, a game that is not a finite
    subtraction set, a bad ``play`` or ``limit``), KeyboardInterrupt on Ctrl-C."""
    from . import _arrow, _size

    if not isinstance(where, str):
        raise TypeError("where must be a str")
    if not isinstance(play, str):
        raise TypeError("play must be a str")
    if not isinstance(grundy, bool):
        raise TypeError("grundy must be True or False")
    limit = _size("limit", limit)
    if progress is not None and not callable(progress):
        raise TypeError("progress must be callable(done, total)")
    if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
        raise ValueError("retries must be an int >= 0")
    games, params = _strings("games", games), _strings("params", params)
    if client is None:
        table, tally = _heaplab.census_games(games, params, where, play, grundy, limit, progress)
        return GameCensus(_arrow(table), json.loads(tally))
    if not callable(getattr(client, "map", None)):
        raise TypeError("client must be a dask.distributed.Client")
    import pyarrow
    from dask.distributed import as_completed

    _, chunks = _heaplab.census_games_size(games, params, where)
    futures = client.map(
        _games_task,
        range(1, chunks + 1),
        chunks=chunks,
        games=games,
        params=params,
        where=where,
        play=play,
        grundy=grundy,
        limit=limit,
        retries=retries,
        pure=False,
    )
    parts: dict = {}
    for done, future in enumerate(as_completed(futures), 1):
        i, table, tally = future.result()  # a task that failed every retry raises here
        parts[i] = (table, tally)
        if progress is not None:
            progress(done, chunks)
    ordered = [parts[i] for i in range(1, chunks + 1)]
    table = pyarrow.concat_tables([t for t, _ in ordered])
    tally = _heaplab.merge_game_tallies([j for _, j in ordered])
    return GameCensus(table, json.loads(tally))


def _games_task(
    i: int, chunks: int, games: list, params: list, where: str, play: str, grundy: bool, limit: int
) -> tuple:
    """Chunk ``i - 1`` of a per-game census, computed where this runs (a Dask worker):
    ``(i, pyarrow.Table, tally JSON)``."""
    import pyarrow

    table, tally = _heaplab.census_games(
        games, params, where, play, grundy, limit, None, (i, chunks)
    )
    return i, pyarrow.table(table), tally
