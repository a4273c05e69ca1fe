"""Games beyond one heap from Python: the same calls as the command line."""

import numpy as np
import pytest

import heaplab


def test_wythoff_square_is_symmetric_and_matches_cgsuite_row_10():
    w = heaplab.Game("wythoff")
    assert isinstance(w, heaplab.BeyondGame) and w.structure == "two heaps"
    g = w.grundy(20)
    assert g.shape == (21, 21) and g.dtype == np.uint32
    assert (g == g.T).all()
    # CGSuite's GameHeapTest: Wythoff (10, n) for n = 0..20
    assert g[10].tolist() == [10, 11, 9, 8, 13, 12, 0, 15, 16, 17, 14, 18, 7, 6, 2, 3, 1, 4, 5, 23, 28]
    rows = w.grundy(1000, row=2)
    assert rows.shape == (3, 1001)
    assert (rows == w.grundy(1000)[:3]).all()


def test_pairs_as_arrow_and_one_position_near_a_quintillion():
    t = heaplab.Game("wythoff").losers(30)
    assert t.column_names == ["k", "a", "b"]
    assert t.column("a").to_pylist() == [0, 1, 3, 4, 6, 8, 9, 11, 12, 14, 16, 17]
    d = heaplab.Game("wythoff").who(10**18, 10**18 - 1)
    assert d["win"] is True and d["to"] == [2, 1]
    assert heaplab.Game("wythoff").who(6, 10)["win"] is False


def test_fibonacci_nim_and_loopy_games():
    f = heaplab.Game("fibonacci-nim")
    assert f.losers(100).column("n").to_pylist() == [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]
    assert f.who(100) == {"win": True, "take": 3, "method": "least winning moves"}
    p = heaplab.Game("put-or-take{squares}")
    t = p.outcomes(30)
    out = dict(zip(t.column("n").to_pylist(), t.column("outcome").to_pylist()))
    assert [n for n, o in out.items() if o == "loss"] == [0, 5, 20, 29]  # OEIS A005240
    assert out[2] == out[3] == "draw" and out[6] == "undecided"
    assert b"window" in t.schema.metadata[b"statement"]
    with pytest.raises(ValueError, match="loopy"):
        p.grundy(10)


def test_bad_input_raises_one_line_errors():
    with pytest.raises(ValueError, match=r"\(0,0\) is no move"):
        heaplab.Game("vectors{(0,0)}")
    with pytest.raises(ValueError, match="a position is two heaps"):
        heaplab.Game("wythoff").who(3)
    with pytest.raises(ValueError, match="beyond one heap"):
        heaplab.Game("wythoff").analyze(10)
    with pytest.raises(ValueError, match="at most"):
        heaplab.Game("wythoff").grundy(10**6)


def test_sums_mixing_games_beyond_one_heap_and_rules_of_your_own():
    d = heaplab.who("wythoff:3,5 + fibonacci-nim:10 + squares:7")
    assert isinstance(d, heaplab.MixedSum)
    assert [t.grundy for t in d.terms] == [0, 5, 0] and d.grundy == 5 and d.win
    assert d.move_term == 2 and d.winning_move == "term 2 (fibonacci-nim): to 8,2"
    # (4, 7) is a P-position of Wythoff's game and 3 + 3 of Nim is 0: a loss
    assert heaplab.who("wythoff:4,7 + nim:3 + nim:3").win is False
    with pytest.raises(ValueError, match="no Grundy value"):
        heaplab.who("wythoff:3,5 + put-or-take{squares}:3")
    with pytest.raises(ValueError, match="not a heap size"):
        heaplab.who("wythoff:3,x + nim:1")
    # a two-heap rule of your own restating two-heap Nim, and a take-away allowance f(k)
    g = heaplab.Game("pair{x = 0 OR y = 0}").grundy(15)
    assert (g == np.bitwise_xor.outer(np.arange(16), np.arange(16))).all()
    t = heaplab.Game("takeaway{2 * k + 1}").losers(100)
    assert t.column("n").to_pylist() == [1, 2, 3, 4, 6, 9, 13, 19, 28, 47, 75]
    with pytest.raises(ValueError, match="unknown name `n`"):
        heaplab.Game("pair{n = 1}")
