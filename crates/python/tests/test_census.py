"""Censuses from Python: one process, and a real two-worker Dask LocalCluster."""

import json

import pyarrow as pa
import pytest
from dask.distributed import Client, LocalCluster

import heaplab

SPACE = dict(games=["0.??", "sub{a,b,c}"], where="1 <= a < b < c <= 12", n_max=4096)


def mex(s):
    m = 0
    while m in s:
        m += 1
    return m


def subtraction_values(moves, n):
    g = []
    for x in range(n + 1):
        g.append(mex({g[x - s] for s in moves if s <= x}))
    return g


@pytest.fixture(scope="module")
def single():
    return heaplab.census(**SPACE, with_seconds=False)


def test_single_process_rows(single):
    assert isinstance(single, pa.Table)
    rows = single.to_pylist()
    info = heaplab.census_classes(SPACE["games"], SPACE["where"])
    assert info["items"] == 64 + 220
    assert len(rows) == len(info["classes"]) < 64 + 220
    assert [r["class"] for r in rows] == list(range(len(rows)))
    assert sum(r["members"] for r in rows) == 284
    assert "seconds" not in single.column_names
    by_game = {r["game"]: r for r in rows}
    # every three-move set certified; sub{2,4,6} is sub{1,2,3} scaled; values by brute force
    for r in rows:
        if r["game"].startswith("sub"):
            assert r["status"] == "certified", r
    r = by_game["sub{1,2,3}"]
    assert (r["preperiod"], r["period"]) == (0, 4)
    assert "sub{2,4,6} (scale 2)" in r["member_list"]
    g = subtraction_values([1, 3, 4], 40)
    r = by_game["sub{1,3,4}"]
    assert r["period"] == 7 and g[:14] == g[7:21]
    assert r["max_grundy"] == max(g)
    # Kayles and Dawson's Kayles recognised
    assert by_game["0.77"]["known"].startswith("Kayles 0.77")
    assert "0.07 (shift 1)" in by_game["0.137"]["member_list"]
    assert not any(r["disagrees"] for r in rows)
    # with seconds: the same rows plus the column
    # (sub{1,3} and sub{1,5} are sub{1}: the odd move is provably redundant)
    t = heaplab.census(["sub{1,a}"], where="2 <= a <= 5")
    assert t.column_names[-1] == "seconds" and t.num_rows == 3
    assert t.column("member_list").to_pylist()[1] == "sub{1,3} (less {3}); sub{1,5} (less {5})"


def test_two_worker_cluster_equals_one_process(single):
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster, Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        dist = heaplab.census(**SPACE, client=client, with_seconds=False)
        assert dist.equals(single)
        assert dist.to_pylist() == single.to_pylist()

        # a task that keeps failing: retried, then reported as its class's row
        def flaky(class_json, start, n_max, seconds):
            if json.loads(class_json)["index"] == 3:
                raise RuntimeError("worker lost")
            return heaplab._census._task(class_json, start, n_max, seconds)

        t = heaplab.census(
            ["sub{1,a}"], where="2 <= a <= 6", client=client, retries=1, _task_fn=flaky
        ).to_pylist()
        assert [r["status"] for r in t] == ["certified"] * 3 + ["failed"]
        assert "RuntimeError: worker lost" in t[3]["verdict"]
        assert t[3]["game"] == "sub{1,6}"

        # a per-game census of two chunks (82,160 games), one task each: the same table and
        # tally as one process
        space = dict(games="sub{a,b,c}", where="1 <= a < b < c <= 80")
        one = heaplab.census_games(**space)
        calls = []
        two = heaplab.census_games(**space, client=client, progress=lambda d, t: calls.append((d, t)))
        assert one.table.num_rows == 82160 and two.table.equals(one.table)
        assert two.tally == one.tally and calls[-1] == (2, 2)


def test_bad_spaces_raise():
    with pytest.raises(ValueError, match="has no upper bound"):
        heaplab.census("sub{a,b}", where="1 <= a < b")
    with pytest.raises(ValueError, match="not in any game"):
        heaplab.census_classes("sub{a}", where="a < 3, b < 2")
    with pytest.raises(ValueError, match="start <= max"):
        heaplab.census("0.?", n_max=10, start=20)
    with pytest.raises(ValueError, match="seconds"):
        heaplab.census("0.?", seconds=-1.0)
    with pytest.raises(TypeError):
        heaplab.census([1, 2])
    with pytest.raises(ValueError):
        heaplab.census("0.?", n_max=-5)
    with pytest.raises(TypeError):
        heaplab.census({"0.?", "4.?"})  # a set has no order
    with pytest.raises(ValueError, match="retries"):
        heaplab.census("0.?", retries=-1)
    with pytest.raises(TypeError, match="retries"):
        heaplab.census("0.?", retries=1.5)
    with pytest.raises(TypeError, match="Client"):
        heaplab.census("0.?", client="x")
    with pytest.raises(ValueError, match="no games"):
        heaplab.census("sub{a}", where="3 <= a <= 2")
    with pytest.raises(ValueError, match="too large for an analysis"):
        heaplab.census("0.?", start=10**12, n_max=10**12)
    with pytest.raises(ValueError, match="octal digit"):
        heaplab.census("sub{1?}")


def test_analysis_reports_rare_values_of_octal_codes():
    a = heaplab.Game("0.6").analyze(2000)
    bits = int(a.rare.mask.split("0x")[1].split(",")[0], 16)
    cls = int(a.rare.mask[-1])
    g = heaplab.Game("0.6").grundy(2000).tolist()
    rare = [n for n in range(1, 2001) if (bin(g[n] & bits).count("1") & 1) ^ (
        n & 1 if a.rare.mask.startswith("domain") else 0) == cls]
    assert (a.rare.count, a.rare.last, a.rare.last_value) == (len(rare), rare[-1], g[rare[-1]])
    assert heaplab.Game("sub{1,2,3}").analyze(100).rare is None


def test_classes_and_progress_count_classes():
    info = heaplab.census_classes("sub{a,b}", where="1 <= a < b <= 4")
    assert info["items"] == 6
    games = [c["game"] for c in info["classes"]]
    assert games == ["sub{1,2}", "sub{1}", "sub{1,4}", "sub{2,3}", "sub{3,4}"]
    assert info["classes"][0]["members"][1] == {"item": 4, "spec": "sub{2,4}", "reduction": "scale 2"}
    seen = []
    heaplab.census("sub{a,b}", where="1 <= a < b <= 4", progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (5, 5)
    assert all(t == 5 for _, t in seen) and [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_analysis_lists_the_periods_officers_p_positions_exclude():
    a = heaplab.Game("0.6").analyze(4096)
    e = a.excluded_periods
    assert a.periodicity is None and e.takes == [1]
    ps = [n for n, v in enumerate(heaplab.Game("0.6").grundy(4096).tolist()) if v == 0]
    assert e.preperiod_at_most == ps[-1] == 408
    assert e.sums == sorted({b + 1 for b in ps if b >= 1})
    assert e.periods == sorted({d for m in e.sums for d in range(1, m + 1) if m % d == 0})
    # a game with a period found lists none
    assert heaplab.Game("0.77").analyze(2000).excluded_periods is None


def outcome_period(moves, misere, n=600):
    """The least (preperiod, period) of the P-position bits of a subtraction set by the
    definition, from n + 1 outcomes (n far past any period of these small sets)."""
    lose = []
    for x in range(n + 1):
        opts = [x - s for s in moves if s <= x]
        if not opts:
            lose.append(not misere)  # no move: the player to move loses (wins in misère)
        else:
            lose.append(all(not lose[o] for o in opts))
    for q in range(1, n // 3):
        p = max((i + 1 for i in range(n - q + 1) if lose[i] != lose[i + q]), default=0)
        if p <= n // 3:
            return (p, q)
    raise AssertionError("no period")


def test_census_games_rows_match_the_definition():
    space = dict(games="sub{a,b,c}", where="1 <= a < b < c <= 10")
    normal = heaplab.census_games(**space, grundy=True)
    misere = heaplab.census_games(**space, play="misere")
    assert isinstance(normal, heaplab.GameCensus)
    rows = normal.table.to_pylist()
    assert len(rows) == 120 == normal.tally["rows"]
    assert [r["item"] for r in rows] == list(range(120))
    assert rows[0]["game"] == "sub{1,2,3}" and (rows[0]["a"], rows[0]["b"], rows[0]["c"]) == (1, 2, 3)
    # sub{1,2,3}: P-positions are the multiples of 4, Grundy values n mod 4
    assert (rows[0]["preperiod"], rows[0]["period"], rows[0]["grundy_period"]) == (0, 4, 4)
    scaled = [r for r in rows if r["game"] == "sub{2,4,6}"][0]
    assert scaled["scale"] == 2 and scaled["class"] == "sub{1,2,3}" and scaled["period"] == 8
    for r, m in zip(rows, misere.table.to_pylist()):
        moves = [r["a"], r["b"], r["c"]]
        assert r["status"] == "certified" == m["status"]
        assert (r["preperiod"], r["period"]) == outcome_period(moves, False), r["game"]
        assert (m["preperiod"], m["period"]) == outcome_period(moves, True), r["game"]
        g = subtraction_values(moves, 300)
        q, p = r["grundy_period"], r["grundy_preperiod"]
        assert all(g[i] == g[i + q] for i in range(p, 300 - q))
        assert max(g) == r["grundy_max"]
    assert normal.tally["primitive"] == sum(r["scale"] == 1 for r in rows)
    assert {c["claim"] for c in normal.tally["claims"]}


def test_census_games_joins_normal_and_misere_by_parameters():
    pl = pytest.importorskip("polars")
    space = dict(games="sub{1,b,c}", where="1 < b < c <= 20")
    n = pl.from_arrow(heaplab.census_games(**space).table)
    m = pl.from_arrow(heaplab.census_games(**space, play="misere").table)
    j = n.join(m, on=["b", "c"], suffix="_misere").filter(pl.col("period") != pl.col("period_misere"))
    assert j.height < n.height == 171
    assert set(j.columns) >= {"b", "c", "period", "period_misere"}


def test_census_games_errors():
    with pytest.raises(ValueError, match="play"):
        heaplab.census_games("sub{a,b}", where="1 <= a < b <= 5", play="both")
    with pytest.raises(ValueError, match="Grundy"):
        heaplab.census_games("sub{a,b}", where="1 <= a < b <= 5", play="misere", grundy=True)
    with pytest.raises(ValueError, match="limit"):
        heaplab.census_games("sub{a,b}", where="1 <= a < b <= 5", limit=0)
    with pytest.raises(ValueError):
        heaplab.census_games("0.??")
    with pytest.raises(ValueError):
        heaplab.census_games("sub{a,b}", where="1 <= a < b <= 0")
    with pytest.raises(TypeError):
        heaplab.census_games("sub{a,b}", where=3)
    calls = []
    heaplab.census_games("sub{a,b}", where="1 <= a < b <= 30", progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (435, 435)


def test_census_per_game_rows_carry_their_class():
    t = heaplab.census(**SPACE, per_game=True)
    rows = t.to_pylist()
    assert len(rows) == 284 and [r["item"] for r in rows] == list(range(284))
    subs = [r for r in rows if r["game"].startswith("sub")]
    assert len(subs) == 220
    for r in subs:
        moves = [r["a"], r["b"], r["c"]]
        assert r["game"] == "sub{%d,%d,%d}" % tuple(moves)
        g = subtraction_values(moves, 1500)
        p, q = r["preperiod"], r["period"]
        assert all(g[i] == g[i + q] for i in range(p, 1500 - q)), r["game"]
        assert p == 0 or g[p - 1] != g[p - 1 + q], r["game"]
    scaled = [r for r in subs if r["game"] == "sub{2,4,6}"][0]
    assert scaled["reduction"] == "scale 2" and scaled["representative"] == "sub{1,2,3}"
    assert (scaled["period"], scaled["class_period"]) == (8, 4)
    octal = [r for r in rows if not r["game"].startswith("sub")]
    assert len(octal) == 64 and all(r["a"] is None and r["d1"] is not None for r in octal)
