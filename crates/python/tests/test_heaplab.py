"""The Python package against published sequences, the command line and brute force."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from functools import lru_cache

import numpy as np
import polars as pl
import pyarrow as pa
import pytest

import heaplab

# A030193: P-positions of subtract-a-square (first 30 terms)
A030193 = [0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95,
           109, 119, 124, 127, 130, 132, 137, 142, 147]
# A014586: Grundy values of subtract-a-square (first 40 terms)
A014586 = [0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 3, 2,
           3, 4, 5, 3, 2, 3, 4, 0, 1, 2, 3, 2, 0]
# A002186: Kayles (0.77), g(0..12)
KAYLES = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]


def mex(values):
    m = 0
    while m in values:
        m += 1
    return m


@lru_cache(maxsize=None)
def squares_grundy(n):
    """Subtract-a-square by the definition."""
    return mex({squares_grundy(n - s * s) for s in range(1, int(n ** 0.5) + 1) if s * s <= n})


def test_the_readme_line():
    assert heaplab.Game("squares").losers(10**6).size == 13952


def test_published_sequences():
    g = heaplab.Game("squares")
    assert g.losers(147).tolist() == A030193
    values = g.grundy(39)
    assert values.tolist() == A014586 and values.dtype == np.uint8
    assert heaplab.Game("0.77").grundy(12).tolist() == KAYLES
    assert heaplab.Game("kayles").spec == "0.77"
    wins = heaplab.Game("squares").outcomes(147)
    assert wins.dtype == np.bool_ and np.flatnonzero(~wins).tolist() == A030193


def test_grundy_is_the_smallest_type_and_not_a_copy():
    g = heaplab.Game("squares").grundy(10**7)
    assert g.dtype == np.uint16 and g.size == 10**7 + 1 and g.max() == 376
    # values below 256 up to 10^6: uint8
    assert heaplab.Game("squares").grundy(10**6).dtype == np.uint8
    # the engine's buffer, owned by the Rust side (no NumPy copy)
    assert not g.flags.owndata and g.base is not None
    brute = [squares_grundy(n) for n in range(2000)]
    assert g[:2000].tolist() == brute
    assert heaplab.Game("grundy-game").grundy(100).dtype == np.uint8


def test_iter_losers_streams_the_same_list():
    g = heaplab.Game("squares")
    chunks = list(g.iter_losers(3 * 10**6))
    assert len(chunks) > 1 and all(c.dtype == np.uint64 for c in chunks)
    assert np.array_equal(np.concatenate(chunks), g.losers(3 * 10**6))


def test_analyze_kayles():
    a = heaplab.Game("0.77").analyze(300)
    p = a.periodicity
    assert (p.preperiod, p.period, p.saltus, p.certified) == (71, 12, 0, True)
    assert "Guy" in p.certificate
    assert a.grundy.max == 8 and a.grundy.first_occurrence[:5] == [0, 1, 2, 3, 5]
    assert a.p_positions.count == 1  # Kayles loses only at 0
    assert p.exceptions == [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70]
    assert p.exception_count == 14 and a.candidate is None
    o = heaplab.Game("sub{1,2,3}").analyze(1000, values="outcome")
    assert (o.periodicity.period, o.p_positions.count) == (4, 251)
    assert o.p_positions.exact_density == [1, 4]
    short = heaplab.Game("0.77").analyze(150)
    assert short.periodicity is None
    c = short.candidate
    assert (c.period, c.preperiod, c.accept_at, c.prove_at) == (12, 71, 165, 168)


def test_growth_laws():
    # half|sub{1}: P-positions 0 and 3·2^k − 1 grow exponentially, ratio 2
    a = heaplab.Game("half|sub{1}").analyze(10**6)
    g = a.p_positions.growth
    assert isinstance(g, heaplab.GrowthFit) and g.law == "logarithmic"
    c, r = g.exponential
    assert abs(r - 2.0) < 0.01 and abs(c - 1.5) < 0.05
    assert abs(g.ratio - 2.0) < 0.01 and g.error < 0.01
    assert a.p_positions.alpha is None
    assert a.grundy.growth.law == "power" and abs(a.grundy.growth.alpha - 1.0) < 0.01
    # subtract-a-square: two power laws, count ≈ 0.97·n^0.69 and values ≈ 1.33·n^0.35
    s = heaplab.Game("squares").analyze(10**6)
    p, v = s.p_positions.growth, s.grundy.growth
    assert (p.law, v.law) == ("power", "power")
    assert 0.68 < p.alpha < 0.70 and 0.34 < v.alpha < 0.36
    assert s.p_positions.alpha == p.alpha
    assert abs(v.at(10**6) - 168) < 10  # the largest value to 10^6 is 168
    assert p.from_ == 100 and p.to == 10**6
    # a periodic game has none
    k = heaplab.Game("0.77").analyze(2000)
    assert k.p_positions.growth is None and k.grundy.growth is None


def test_winning_moves_and_compare():
    w = heaplab.Game("squares").winning_moves(10**6)
    assert w.complete and len(w.moves) == 11
    assert (w.moves[0].removed, w.moves[0].leaves) == (1600, [998400])
    # a sum: the moves that raise a heap's value count too
    s = heaplab.winning_moves("squares:8 + divisors:12 + squares:2")
    assert sorted((m.heap, m.removed) for m in s.moves) == [(0, 4), (1, 2), (1, 6)]
    cut = heaplab.Game("0.77").winning_moves(30, limit=3)
    assert (len(cut.moves), cut.complete) == (3, False)
    c = heaplab.compare(".161", ".36", 700)
    assert not c.equal and c.differences[0][0] == 519 and c.count == 20
    assert heaplab.compare("nim", "0.77", 1000, values="outcome").equal
    with pytest.raises(ValueError):
        heaplab.Game("squares").winning_moves(5, limit=0)


def test_who_one_heap_and_sums():
    d = heaplab.Game("0.77").who(10**18)
    assert d.win and d.grundy == [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7][10**18 % 12]
    assert d.winning_move.removed + sum(d.winning_move.leaves) == 10**18
    s = heaplab.Game("squares").who(5, 7, 9)
    assert [h.grundy for h in s.heaps] == [0, 0, 2] and s.grundy == 2 and s.win
    after = s.winning_move.result
    assert squares_grundy(after[0][1]) ^ squares_grundy(after[1][1]) ^ squares_grundy(after[2][1]) == 0
    lost = heaplab.Game("squares").who(5, 7)
    assert not lost.win and lost.winning_move is None
    mixed = heaplab.who("divisors:1e18 + upto{5}:999999999999999999 + nim:7")
    assert mixed.grundy == 18 ^ 3 ^ 7
    one = heaplab.who("squares:1000")
    assert one == heaplab.Game("squares").who(1000)


def test_counts_project_euler():
    c = heaplab.count("squares", 3, 29, sorted=True)
    assert (c.p_positions, c.total) == (1160, 4960)
    assert heaplab.count("0.07", 1, 5, n_min=1).n_positions == 3
    assert heaplab.count("0.07", 1, 50, n_min=1).n_positions == 40
    # one misère heap: Kayles' misère P-positions 1, 4, 9, 12, 20, by its quotient's period
    k = heaplab.count("misere(0.77)", 1, 10**18)
    assert (k.p_positions, k.total) == (5, 10**18 + 1) and "period" in k.method
    big = heaplab.count("divisors", 3, 10**14, n_min=1)
    assert big.total == 10**42 and isinstance(big.p_positions, int)
    # ordered pairs from enumeration
    g = [squares_grundy(n) for n in range(31)]
    pairs = sum(1 for a in range(31) for b in range(31) if g[a] == g[b])
    assert heaplab.count("squares", 2, 30).p_positions == pairs


def test_arrow_round_trip():
    g = heaplab.Game("squares")
    t = g.table(10**6)
    df = pl.from_arrow(t)
    assert df.columns == ["n", "win", "grundy"]
    assert df.schema["n"] == pl.UInt64 and df.schema["win"] == pl.Boolean
    assert df.schema["grundy"] == pl.UInt8  # values below 256 up to 10^6
    assert np.array_equal(df["grundy"].to_numpy(), g.grundy(10**6))
    assert np.array_equal(df["win"].to_numpy(), g.outcomes(10**6))
    assert df["n"][-1] == 10**6
    # any PyCapsule consumer takes the raw table too
    raw = heaplab.Game("0.77")._raw.table(100, False, None)
    assert isinstance(raw, heaplab.ArrowTable) and raw.column_names == ["n", "win"]
    assert pa.table(raw).num_rows == 101 and pl.DataFrame(raw).height == 101
    rows = pl.from_arrow(heaplab.sweep("sub{1,2,k}", "k=3..6", 1000))
    assert rows["period"].to_list() == [4, 3, 3, 7] and rows.columns[0] == "k"


def _command_line():
    """The heaplab binary `cargo test` built (HEAPLAB_BIN, else the target folder)."""
    if os.environ.get("HEAPLAB_BIN"):
        return os.environ["HEAPLAB_BIN"]
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
    for profile in ("debug", "release"):
        path = os.path.join(target, profile, "heaplab")
        if os.path.exists(path):
            return path
    return None


HEAPLAB_BIN = _command_line()


@pytest.mark.skipif(not HEAPLAB_BIN, reason="no heaplab binary built (cargo test builds it)")
def test_arrow_matches_the_command_lines_parquet(tmp_path):
    out = tmp_path / "t.parquet"
    subprocess.run(
        [HEAPLAB_BIN, "--quiet", "table", "--game", "squares", "--max", "1e6", "--grundy", "-o", str(out)],
        check=True,
    )
    cli = pl.read_parquet(out)
    ours = pl.from_arrow(heaplab.Game("squares").table(10**6))
    assert cli.schema == ours.schema and cli.equals(ours)
    check = json.loads(
        subprocess.run(
            [HEAPLAB_BIN, "check", "--game", "squares", "--max", "1e4", "--claim",
             "n = 0 OR win = is_square(n)", "--json"],
            capture_output=True, text=True,
        ).stdout
    )
    assert heaplab.check("squares", 10**4, "n = 0 OR win = is_square(n)").failures == check["failures"]


def test_check_claims():
    assert heaplab.check("sub{1,2,3}", 10**6, "win = (n % 4 <> 0)").holds
    assert heaplab.check("divisors", 10**5, "n = 0 OR grundy = v2(n)").holds
    r = heaplab.check("squares", 10**4, "n = 0 OR win = is_square(n)")
    assert (r.holds, r.rows, r.failures) == (False, 10001, 9322)
    assert r.counterexamples["n"].to_list()[:3] == [3, 6, 8]
    assert heaplab.check(
        "sqrt", 10**12, "k = 0 OR gap = floor((1 + isqrt(1 + 4 * prev)) / 2) + 1", on="losers"
    ).holds
    # null for v2(0) and negative arguments; nested calls; xor
    assert heaplab.check("squares", 100, "n = 0 OR v2(n) >= 0").holds
    assert heaplab.check("squares", 100, "isqrt(n - 3) IS NULL OR n >= 3").holds
    assert heaplab.check("squares", 1000, "popcount(xor(n, n)) = 0 AND is_prime(2)").holds
    assert heaplab.check("squares", 100, "n < 2 OR NOT is_prime(isqrt(n) * isqrt(n) + isqrt(n) * 0) OR is_square(n) = false").failures == 0


def test_check_look_ups_and_proofs_for_every_n():
    # Kayles: g(n) = g(n - 12) from 83 on, proven by Guy–Smith; 82 is the last exception + 12
    r = heaplab.check("0.77", 1000, "n < 83 OR grundy = grundy_at(n - 12)")
    assert r.holds and r.for_all.startswith("period 12 proven")
    assert heaplab.check("0.77", 1000, "n < 82 OR grundy = grundy_at(n - 12)").failures == 1
    # sub{1,4,5} by residues mod 8: proven for every n; to N = 5 it needs N = 7
    claim = ("grundy = CASE WHEN n % 8 IN (0, 2) THEN 0 WHEN n % 8 IN (1, 3) THEN 1 "
             "WHEN n % 8 IN (4, 6) THEN 2 ELSE 3 END")
    assert heaplab.check("sub{1,4,5}", 1000, claim).for_all.startswith("period 8 proven")
    short = heaplab.check("sub{1,4,5}", 5, claim)
    assert short.holds and (short.for_all, short.for_all_from) == (None, 7)
    # win_at from the outcomes alone; null past the table
    assert heaplab.check("sub{1,2,3}", 100, "win_at(n + 1000) IS NULL AND win = win_at(n)").holds
    assert heaplab.check("squares", 100, "n < 1 OR grundy_at(n - 1) IS NOT NULL").holds
    with pytest.raises(ValueError, match="on the table"):
        heaplab.check("squares", 100, "grundy_at(p) = 0", on="losers")


def test_check_runs_in_chunks_and_refuses_what_the_command_line_refuses():
    # 3·10^6 rows: three chunks of 2^20; the failures counted across them
    n = 3 * 10**6
    win = heaplab.Game("squares").outcomes(n)
    root = np.floor(np.sqrt(np.arange(n + 1, dtype=np.float64))).astype(np.int64)
    square = root * root == np.arange(n + 1)
    want = int((win[1:] != square[1:]).sum())
    r = heaplab.check("squares", n, "n = 0 OR win = is_square(n)")
    assert (r.rows, r.failures) == (n + 1, want)
    assert r.counterexamples.height == 10 and r.counterexamples["n"].to_list()[:3] == [3, 6, 8]
    # the P-position list across chunk boundaries: prev is the P-position before
    ps = heaplab.Game("squares").losers(7 * 10**8)
    assert ps.size > 2**20
    assert heaplab.check("squares", 7 * 10**8, "k = 0 OR (gap = p - prev AND gap > 0)", on="losers").holds
    for bad, says in [
        ("win = 'true'", "string literal at column 7"),
        ("n = 1; n = 2", "`;` at column 6"),
        ("isqrt(n) = ", "isqrt(n)"),
        ("n" + "+n" * 3000 + " >= 0", "more than 2000"),
        ("n - MIN(n) < 5", "aggregate"),
        ("isqrt(1e19) > 0", "64-bit range"),
        ("GRUNDY >= 0", "the columns are n, win, grundy"),
        ("isqrt(" * 300 + "n" + ")" * 300 + " >= 0", "more than 256"),
    ]:
        with pytest.raises(ValueError, match=re.escape(says)) as e:
            heaplab.check("sub{1,2,3}", 20, bad)
        assert "__heaplab" not in str(e.value)
    # a constant claim is one truth for every row
    assert heaplab.check("squares", 3 * 2**20, "1 = 2").failures == 3 * 2**20 + 1
    assert heaplab.check("squares", 50, "1 = 1").holds
    # the command line's budget: a claim on n alone is still refused past the table limit
    with pytest.raises(ValueError, match="too large"):
        heaplab.check("squares", 2**64 - 1, "n >= 0")
    with pytest.raises(TypeError):
        heaplab.check("squares", 10, 5)


def test_attack_regressions():
    import copy
    import pickle
    # games pickle and copy by their spec
    g = heaplab.Game("sub{1,3,4}")
    assert pickle.loads(pickle.dumps(g)).spec == copy.copy(g).spec == "sub{1,3,4}"
    # refusals pickle under the package's name
    with pytest.raises(heaplab.RefusedError) as e:
        heaplab.Game("squares").who(10**18)
    assert type(pickle.loads(pickle.dumps(e.value))) is heaplab.RefusedError
    # hand-overs past the machine's memory are refused up front, not aborted
    with pytest.raises(heaplab.RefusedError):
        heaplab.Game("nim").outcomes(10**13)
    with pytest.raises(heaplab.RefusedError):
        heaplab.Game("sub{1,2}").table(10**13, grundy=False)
    # stone piles are integers within 64 bits
    with pytest.raises(ValueError, match="64 bits"):
        heaplab.stone(1, [2**63])
    with pytest.raises(TypeError):
        heaplab.stone(1, {3: 1})
    assert heaplab.stone(np.int64(1), [np.int64(3)]).first_total == 3
    # nim's table is linear (it was quadratic)
    t = time.time()
    assert heaplab.Game("nim").grundy(10**7)[-1] == 10**7
    assert time.time() - t < 20


def test_iter_losers_keeps_a_chunk_across_an_interruption_and_refuses_reentry():
    n = 3 * 10**8
    calls = {"n": 0}

    def stop_once(done, total):
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt

    it = heaplab.Game("squares").iter_losers(n, progress=stop_once)
    got = []
    while True:
        try:
            chunk = next(it)
        except KeyboardInterrupt:
            continue
        except StopIteration:
            break
        got.append(chunk)
    assert np.array_equal(np.concatenate(got), heaplab.Game("squares").losers(n))

    box = {}

    def reenter(done, total):
        box.setdefault("error", None)
        try:
            next(box["it"])
        except RuntimeError as e:
            box["error"] = str(e)

    box["it"] = heaplab.Game("squares").iter_losers(2 * 10**9, progress=reenter)
    for _ in box["it"]:
        if "error" in box:
            break
    assert "already running" in (box.get("error") or "")


def test_progress_of_iter_losers_only_grows():
    seen = []
    for _ in heaplab.Game("squares").iter_losers(10**8, progress=lambda d, t: seen.append(d)):
        pass
    assert seen == sorted(seen) and seen[-1] == 10**8 + 1


def test_stone_games():
    # greedy fails on [2, 10, 1, 2, 10, 2]: margin -15 against the best reply, +1 with best play
    g = heaplab.stone(1, [2, 10, 1, 2, 10, 2], line=True, strategy="greedy")
    assert (g.margin, heaplab.stone(1, [2, 10, 1, 2, 10, 2]).margin) == (-15, 1)
    assert g.line[0].took == "first" and len(g.line) == 6
    with pytest.raises(ValueError, match="unknown strategy"):
        heaplab.stone(1, [1, 2], strategy="lazy")
    r = heaplab.stone(2, [2, 7, 9, 4, 4], line=True)
    assert (r.first_total, r.second_total, r.margin, r.winner) == (10, 16, -6, "second")
    assert [m.values for m in r.line] == [[2], [7, 9], [4, 4]]


def test_games_list():
    specs = [f.spec for f in heaplab.games()]
    assert "squares" in specs and "0.77" in specs or "kayles" in " ".join(specs)
    sub = next(f for f in heaplab.games() if f.name == "sub")
    assert (sub.spec, sub.structure) == ("sub{1,2,3}", "finite set")


def test_progress_callback_sees_the_run():
    seen = []
    heaplab.Game("squares").grundy(2 * 10**6, progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1] == (2 * 10**6 + 1, 2 * 10**6 + 1)
    assert all(d <= t for d, t in seen)

    class Stop(Exception):
        pass

    def stop(done, total):
        if done > 0:
            raise Stop()

    with pytest.raises(Stop):
        heaplab.Game("squares").grundy(5 * 10**7, progress=stop)


@pytest.mark.parametrize(
    "call",
    [
        "heaplab.Game('squares').grundy(10**9)",  # the case
        "heaplab.Game('0.137').grundy(10**9)",  # a proven period's engine, the first array call
        "heaplab.sweep('sub{1,2,k}', 'k=3..100000', 10**5)",  # engines on worker threads
    ],
)
def test_keyboard_interrupt_within_a_second(call):
    code = (
        "import heaplab, sys\n"
        "print('ready', flush=True)\n"
        "try:\n"
        f"    {call}\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(0)\n"
        "sys.exit(3)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    time.sleep(2.0)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    rc = p.wait(timeout=30)
    took = time.monotonic() - t0
    assert rc == 0 and p.stdout.read().strip() == "interrupted"
    assert took < 1.0, took


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: heaplab.Game("foo"), ValueError),
        (lambda: heaplab.Game("sub{1,-2}"), ValueError),
        (lambda: heaplab.Game(5), TypeError),
        (lambda: heaplab.Game("squares").grundy(-1), ValueError),
        (lambda: heaplab.Game("squares").grundy(2**64), ValueError),
        (lambda: heaplab.Game("squares").grundy(1.5), TypeError),
        (lambda: heaplab.Game("squares").grundy("10"), TypeError),
        (lambda: heaplab.Game("squares").grundy(10, progress=5), TypeError),
        (lambda: heaplab.Game("squares").grundy(10**15), (ValueError, heaplab.RefusedError)),
        (lambda: heaplab.Game("primes").losers(10**12), heaplab.RefusedError),
        (lambda: heaplab.Game("squares").who(10**18), heaplab.RefusedError),
        (lambda: heaplab.who(""), ValueError),
        (lambda: heaplab.who("squares:5 + foo:3"), ValueError),
        (lambda: heaplab.who("squares:x"), ValueError),
        (lambda: heaplab.count("squares", 0, 5), ValueError),
        (lambda: heaplab.count("squares", 65, 5), ValueError),
        (lambda: heaplab.check("squares", 10, ""), ValueError),
        (lambda: heaplab.check("squares", 10, "nosuch = 1"), ValueError),
        (lambda: heaplab.check("squares", 10, "isqrt(n / 3) = 1"), ValueError),
        (lambda: heaplab.check("squares", 10, "n + 1"), ValueError),
        (lambda: heaplab.stone(4, [1, 2]), ValueError),
        (lambda: heaplab.stone(1, []), ValueError),
        (lambda: heaplab.sweep("sub{1,k}", "k=", 10), ValueError),
        (lambda: heaplab.Game("squares").analyze(10, values="nope"), ValueError),
    ],
)
def test_bad_input_raises(call, error):
    with pytest.raises(error) as e:
        call()
    assert str(e.value) and "\n" not in str(e.value).strip()


def test_misere_play():
    # misère Nim sub{1,2,3}: the misère P-positions are n ≡ 1 (mod 4)
    g = heaplab.Game("sub{1,2,3}", play="misere")
    assert g.spec == "misere(sub{1,2,3})"
    assert g == heaplab.Game("misere(sub{1,2,3})")
    assert list(g.losers(20)) == [1, 5, 9, 13, 17]
    assert not g.who(10**18 + 1).win
    # nim: misère nim-value n, except that 0 and 1 swap
    assert list(heaplab.Game("nim", play="misere").grundy(6)) == [1, 0, 2, 3, 4, 5, 6]
    # Kayles' misère nim-values (brute force over the game tree; CGSuite's MisereNimValue)
    kayles = heaplab.Game("0.77", play="misere")
    assert list(kayles.grundy(12)) == [1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0]
    # the genus sequence, certified by the window argument
    a = heaplab.Game("sub{1,4,5}", play="misere").analyze(100)
    assert a.genus is not None and a.genus.periodicity.certified
    assert a.genus.first[:2] == ["0^{120}", "1^{031}"]
    # a tame sum by the misère-Nim rule, a wild one refused by name
    s = heaplab.who("misere(squares):2 + misere(squares):5 + misere(squares):10")
    assert isinstance(s, heaplab.MisereSum) and s.win and s.winning_move.heap == 0
    assert s.heaps[0].phylum == "tame" and s.heaps[0].genus == "0^{120}"
    with pytest.raises(heaplab.HeaplabError, match="not tame"):
        heaplab.who("misere(divisors):6 + misere(divisors):1")
    # Kayles heaps by canonical forms: every winning move listed leads to a P-position
    m = heaplab.Game("0.77", play="misere").winning_moves(5, 7, limit=10)
    assert isinstance(m, heaplab.MisereSum) and m.win and m.moves
    with pytest.raises(ValueError, match="play"):
        heaplab.Game("squares", play="loser")
    # genus and phylum columns in misère tables of one-heap games
    t = pl.from_arrow(heaplab.Game("divisors", play="misere").table(8))
    assert t.columns == ["n", "win", "grundy", "genus", "phylum"]
    assert t["genus"][6] == "1^{31}" and t["phylum"][6] == "restive"


def test_rules_and_unions():
    # a rule of your own equals the family it imitates; unions of families are written one way
    assert list(heaplab.Game("rule{k <= isqrt(n)}").grundy(200)) == list(heaplab.Game("sqrt").grundy(200))
    assert heaplab.Game("sub{1}|half").spec == "half|sub{1}"
    assert list(heaplab.Game("nondivisors").losers(100)) == [0, 1, 2]
    with pytest.raises(ValueError, match="unknown name `sqrt`"):
        heaplab.Game("rule{k <= sqrt(n)}")


def test_rules_beyond_the_menu():
    # Grundy's game as CGSuite writes it (A002188), Nim as a repeating code, Ruler
    assert heaplab.Game("4!.0").grundy(12).tolist() == [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]
    assert heaplab.Game("0.[3]").grundy(50).tolist() == list(range(51))
    r = heaplab.Game("ruler").grundy(64).tolist()
    assert all(r[n] == n & -n for n in range(1, 65))
    # Mock Turtles: the odious numbers (A000069)
    assert heaplab.Game("mock-turtles").grundy(8).tolist()[1:] == [1, 2, 4, 7, 8, 11, 13, 14]
    # a coin-turning move says which coins it turns
    d = heaplab.Game("ruler").who(12)
    assert d.win and d.winning_move.turned is not None and d.winning_move.turned[-1] == 12
    # prescribed starting outcomes: outcomes only
    assert heaplab.Game("seed(sub{1,2}; NN)").losers(20).tolist() == [2, 5, 8, 11, 14, 17, 20]
    with pytest.raises(heaplab.HeaplabError, match="outcomes only"):
        heaplab.Game("seed(sub{1,2}; NN)").grundy(10)
    with pytest.raises(ValueError, match="position 6"):
        heaplab.Game("0.7[3")


def remoteness_by_recursion(moves, n_max, misere):
    """Smith's remoteness by plain recursion over the options (``moves(n)``: the heaps they
    leave), the outcomes by their own recursion: 0 without options; from an N-position
    1 + the least remoteness of a P-position option; else 1 + the largest."""

    @lru_cache(maxsize=None)
    def win(n):
        os = moves(n)
        return misere if not os else any(not win(m) for m in os)

    @lru_cache(maxsize=None)
    def r(n):
        os = moves(n)
        if not os:
            return 0
        if win(n):
            return 1 + min(r(m) for m in os if not win(m))
        return 1 + max(r(m) for m in os)

    return [r(n) for n in range(n_max + 1)]


def test_remoteness_and_birthday_columns():
    def sub134(n):
        return [n - s for s in (1, 3, 4) if s <= n]

    for play, misere in (("normal", False), ("misere", True)):
        t = heaplab.Game("sub{1,3,4}", play=play).table(
            300, grundy=False, remoteness=True, birthday=True
        )
        assert t.column_names == ["n", "win", "remoteness", "birthday"]
        # the smallest unsigned type of each: remoteness below 256, birthdays up to 300
        assert t.schema.field("remoteness").type == pa.uint8()
        assert t.schema.field("birthday").type == pa.uint16()
        r = t.column("remoteness").to_pylist()
        assert r == remoteness_by_recursion(sub134, 300, misere)
        # P-positions: even remoteness in normal play, odd in misère play
        win = t.column("win").to_pylist()
        assert all((not w) == (x % 2 == int(misere)) for w, x in zip(win, r))
        assert t.column("birthday").to_pylist() == list(range(301))
    # sub{1,2} by hand: 3 and 6 are P-positions (even), 4 and 5 move to 3
    t = heaplab.Game("sub{1,2}").table(6, remoteness=True)
    assert t.column_names == ["n", "win", "grundy", "remoteness"]
    assert t.column("remoteness").to_pylist() == [0, 1, 1, 2, 3, 3, 4]
    # Grundy's game: the longest play splits off one token at a time, down to a heap of 2
    t = heaplab.Game("grundy-game").table(8, birthday=True)
    assert t.column("birthday").to_pylist() == [0, 0, 0, 1, 2, 3, 4, 5, 6]
    # remoteness of a sum is not a function of its heaps': refused with the reason
    with pytest.raises(heaplab.HeaplabError, match="split a heap"):
        heaplab.Game("0.77").table(10, remoteness=True)
    with pytest.raises(heaplab.RefusedError, match="N <="):
        heaplab.Game("nim").table(10**8, grundy=False, remoteness=True)


def test_the_misere_quotient_of_0_75_is_r8():
    # Plambeck and Siegel's R8 (JCTA 2008): a^2 = 1, b^3 = b, bc = ab, c^2 = b^2, P = {a, b^2}
    q = heaplab.Game("0.75", play="misere").quotient(30)
    assert q.order == 8
    assert q.p_portion == ["a", "b^2"]
    assert q.relations == ["a^2 = 1", "bc = ab", "c^2 = b^2", "b^3 = b"]
    assert q.generators == [("a", 1), ("b", 2), ("c", 5)]
    assert q.heap_elements.dtype == np.uint32 and q.heap_elements.shape == (31,)
    assert q.heap_words[:6] == ["1", "a", "b", "a", "b", "c"]
    assert q.period.preperiod == 8 and q.period.period == 2 and q.period.proved
    assert q.products.shape == (8, 8)
    assert heaplab.Game("0.75").quotient(30).relations == q.relations
    d = heaplab.Game("0.75", play="misere").who(1000000, 999999, 7)
    assert d.win and d.heaps[0].misere_value is None and d.heaps[0].element == "b"
    with pytest.raises(heaplab.HeaplabError):
        heaplab.Game("squares").quotient(5)
    # a code whose digits repeat for ever is cut at n_max: an observed period, no proof
    r = heaplab.Game("4.7[4]").quotient(40)
    assert r.order == 8 and r.period.period == 2 and not r.period.proved
    with pytest.raises(heaplab.HeaplabError, match="repeat for ever"):
        heaplab.Game("0.[3]").quotient(2_000_000)
    # heaps of 0.75 and Kayles together: their joint quotient (order 48) decides the sum
    s = heaplab.who("misere(0.75):1000000 + misere(0.77):999999 + misere(0.77):5")
    assert s.win and "joint misère quotient of 0.75 and 0.77, order 48" in s.method


def test_the_joint_quotient_of_several_games():
    # 0.75 with Kayles: one monoid (order 48) for every sum mixing their heaps, as
    # `heaplab quotient --game 0.75 --with 0.77 --max 30` gives it
    q = heaplab.joint_quotient(["0.75", "0.77"], 30)
    assert q.games == ["0.75", "0.77"] and q.max == 30 and q.order == 48
    assert len(q.p_portion) == 11 and q.p_portion[:3] == ["a", "b^2", "ad"]
    assert q.generators[:4] == [("a", "0.75", 1), ("b", "0.75", 2), ("c", "0.75", 5), ("d", "0.77", 5)]
    assert [h.shape for h in q.heap_elements] == [(31,), (31,)]
    assert q.heap_elements[0].dtype == np.uint32
    assert q.heap_words[0][:6] == ["1", "a", "b", "a", "b", "c"] and q.heap_words[1][5] == "d"
    assert q.periods[0].period == 2 and q.periods[0].proved and q.periods[1] is None
    assert q.growth[-1] == ("0.77", 27, 48)
    assert heaplab.joint_quotient(("0.75",), 30).order == 8
    with pytest.raises(heaplab.HeaplabError, match="are the same game"):
        heaplab.joint_quotient(["4!.0", "grundy-game"], 10)
    with pytest.raises(heaplab.HeaplabError, match="listed twice"):
        heaplab.joint_quotient(["0.77", "0.77"], 10)
    with pytest.raises(heaplab.HeaplabError):
        heaplab.joint_quotient(["squares", "0.77"], 10)
    with pytest.raises(TypeError):
        heaplab.joint_quotient("0.77", 10)
    with pytest.raises(ValueError):
        heaplab.joint_quotient(["0.77", "0.07"], -1)


def test_quotient_growth_limit_and_extended_codes():
    # 4!.0 is Grundy's game: the same quotient (order 48 from heap 20)
    assert heaplab.Game("4!.0").quotient(20).relations == heaplab.Game("grundy-game").quotient(20).relations
    assert heaplab.Game("4!.0").quotient(20).order == 48
    # Grundy's game grows again at heap 29, past the quick limit, and its guesses fail:
    # refused, naming the heap and the way
    with pytest.raises(heaplab.HeaplabError, match="grows at heap 29"):
        heaplab.Game("4!.0").quotient(30)
    # Kayles' growths at heaps 25 and 27 are guessed and proved: order 40, period 12 from 71
    k = heaplab.Game("0.77").quotient(200)
    assert k.order == 40 and k.period.period == 12 and k.period.preperiod == 71 and k.period.proved
    # a grow_to below the quick limit never makes it stricter
    assert heaplab.Game("0.77").quotient(9, grow_to=4).order == 18
    with pytest.raises(heaplab.HeaplabError, match="four or more heaps"):
        heaplab.Game("0.G").quotient(5)
    # three-heap moves: no period proof, so a run past a day is refused up front
    with pytest.raises(heaplab.RefusedError, match="use N <="):
        heaplab.Game("0.F").quotient(10**6)
    with pytest.raises(ValueError):
        heaplab.Game("0.77").quotient(9, grow_to=-1)
