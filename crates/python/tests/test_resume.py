"""Resumable runs: table and losers checkpoints, census journals — killed with SIGKILL in a
child process, resumed here, equal to uninterrupted runs; and the refusals."""

import json
import os
import signal
import struct
import subprocess
import sys
import time

import numpy as np
import pytest
from dask.distributed import Client, LocalCluster

import heaplab

CENSUS = dict(games=["0.???", "sub{a,b,c}"], where="1 <= a < b < c <= 12")


class Stop(Exception):
    pass


def killed_midway(code: str, ready, sizes):
    """Runs `code` with NMAX replaced by n in a child, for the first n in `sizes` whose run
    is still going when `ready()` holds; kills it with SIGKILL then, and returns that n."""
    for n in sizes:
        child = subprocess.Popen([sys.executable, "-c", code.replace("NMAX", str(n))])
        try:
            deadline = time.monotonic() + 120
            while child.poll() is None and not ready() and time.monotonic() < deadline:
                time.sleep(0.01)
            if child.poll() is None and ready():
                child.send_signal(signal.SIGKILL)
                child.wait()
                return n
        finally:
            if child.poll() is None:
                child.kill()
            child.wait()
        # (finished before it was killed, or too slow to save: a larger run)
        assert child.returncode == 0, f"the child failed with {child.returncode}"
    pytest.fail("every child finished before it could be killed")


def officers(n: int) -> list:
    """Grundy values of 0.6 (take one token, leaving one heap or two) by the definition."""
    g = []
    for x in range(n + 1):
        options = {g[x - 1]} if x >= 2 else set()
        options |= {g[a] ^ g[x - 1 - a] for a in range(1, x - 1)}
        m = 0
        while m in options:
            m += 1
        g.append(m)
    return g


def left(folder) -> list:
    """The files left in `folder`, but for the temporary file of a checkpoint that was being
    written when its run was killed."""
    return sorted(f for f in os.listdir(folder) if not f.endswith(".tmp"))


def saved_values(path) -> int:
    """How many values a Grundy checkpoint holds (its header: HLGRUNDY, layout, version,
    game, value width, count)."""
    b = open(path, "rb").read()
    assert b[:8] == b"HLGRUNDY"
    vlen = struct.unpack_from("<I", b, 12)[0]
    glen = struct.unpack_from("<I", b, 16 + vlen)[0]
    at = 20 + vlen + glen
    assert b[20 + vlen : at] == b"0.6"
    return struct.unpack_from("<Q", b, at + 1)[0]


def test_a_killed_table_run_resumes_to_the_same_table(tmp_path):
    cp = tmp_path / "kayles.ckpt"
    code = (
        "import heaplab; "
        f"heaplab.Game('0.6').table(NMAX, checkpoint={str(cp)!r}, checkpoint_every=0.2)"
    )
    n = killed_midway(code, cp.exists, [2**18, 2**20, 2**22])
    saved = saved_values(cp)
    assert 0 < saved < n + 1
    seen = []
    resumed = heaplab.Game("0.6").table(
        n, checkpoint=cp, checkpoint_every=0.2, progress=lambda d, t: seen.append((d, t))
    )
    # it went on from the saved values; the checkpoint and its lock are gone
    assert seen[0][0] >= saved and seen[-1] == (n + 1, n + 1)
    assert left(tmp_path) == []
    whole = heaplab.Game("0.6").table(n)
    assert resumed.column_names == whole.column_names == ["n", "win", "grundy"]
    assert resumed.equals(whole)
    g = whole.column("grundy").to_numpy()
    assert g[:300].tolist() == officers(299)
    assert np.array_equal(resumed.column("win").to_numpy(), g != 0)


def test_a_killed_losers_run_resumes_to_the_same_list(tmp_path):
    cp = tmp_path / "squares.ckpt"
    spool = tmp_path / "squares.ckpt.spool"
    code = (
        "import heaplab; "
        f"heaplab.Game('squares').losers(NMAX, checkpoint={str(cp)!r}, checkpoint_every=0.2)"
    )
    n = killed_midway(code, cp.exists, [10**8, 4 * 10**8, 16 * 10**8])
    assert spool.stat().st_size > 0
    seen = []
    resumed = heaplab.Game("squares").losers(
        n, checkpoint=str(cp), checkpoint_every=0.2, progress=lambda d, t: seen.append((d, t))
    )
    assert seen[0][0] > 0 and seen[-1] == (n + 1, n + 1)
    assert left(tmp_path) == []
    whole = heaplab.Game("squares").losers(n)
    assert resumed.dtype == np.uint64 and np.array_equal(resumed, whole)
    assert resumed[:10].tolist() == [0, 2, 5, 7, 10, 12, 15, 17, 20, 22]


def test_a_killed_census_resumes_to_the_same_rows(tmp_path):
    journal = tmp_path / "census.journal"

    def rows_written():
        try:
            return journal.read_text().count("\n") > 20
        except OSError:
            return False

    code = (
        "import heaplab; "
        f"heaplab.census({CENSUS['games']!r}, where={CENSUS['where']!r}, n_max=NMAX, "
        f"with_seconds=False, journal={str(journal)!r})"
    )
    n = killed_midway(code, rows_written, [2048, 8192, 32768])
    lines = journal.read_text().splitlines()
    header = json.loads(lines[0])
    total = len(heaplab.census_classes(CENSUS["games"], CENSUS["where"])["classes"])
    assert header["classes"] == total and header["shard"] == "1/1"
    resumed = heaplab.census(**CENSUS, n_max=n, with_seconds=False, journal=journal)
    assert not journal.exists() and left(tmp_path) == []
    whole = heaplab.census(**CENSUS, n_max=n, with_seconds=False)
    assert resumed.num_rows == total
    assert resumed.to_pylist() == whole.to_pylist()
    assert resumed.equals(whole)


def test_a_census_journal_resumes_on_a_cluster(tmp_path):
    journal = tmp_path / "c.journal"
    space = dict(games=["0.??"], n_max=2048, with_seconds=False)

    def stop(done, total):
        if done == total:
            raise Stop

    # a run stopped as it ends leaves every row in its journal: the first five are kept
    with pytest.raises(Stop):
        heaplab.census(**space, journal=journal, progress=stop)
    lines = journal.read_text().splitlines()
    whole = heaplab.census(**space)
    assert len(lines) == 1 + whole.num_rows
    kept = lines[1:6]
    journal.write_text("\n".join(lines[:6]) + "\n")
    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    ) as cluster, Client(cluster) as client:
        seen = []
        dist = heaplab.census(
            **space, client=client, journal=journal, progress=lambda d, t: seen.append(t)
        )
    # only the classes missing from the journal were tasks
    assert seen and seen[-1] == whole.num_rows - len(kept)
    assert dist.to_pylist() == whole.to_pylist()
    assert not journal.exists()


def stopped_after_a_save(g, cp):
    """`g`'s Grundy table to 2^20 with a checkpoint at `cp`, stopped once it has saved."""

    def stop_when_saved(done, total):
        if cp.exists():
            raise Stop

    with pytest.raises(Stop):
        g.table(2**20, checkpoint=cp, checkpoint_every=0, progress=stop_when_saved)


def test_refused_table_checkpoints(tmp_path):
    cp = tmp_path / "t.ckpt"
    g = heaplab.Game("0.6")
    stopped_after_a_save(g, cp)
    good = cp.read_bytes()
    assert saved_values(cp) > 0
    assert left(tmp_path) == ["t.ckpt"]  # the lock went with the run
    # a byte flipped
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 0x10
    cp.write_bytes(bytes(bad))
    with pytest.raises(ValueError, match=r"checkpoint `.*t\.ckpt` is damaged .*remove it to start over"):
        g.table(2**20, checkpoint=cp)
    # another game's
    cp.write_bytes(good)
    with pytest.raises(ValueError, match=r"t\.ckpt` belongs to game 0\.6, not 0\.7"):
        heaplab.Game("0.7").table(2**20, checkpoint=cp)
    assert cp.read_bytes() == good  # refused, not touched
    # runs that cannot be continued or saved
    with pytest.raises(ValueError, match="pass grundy=True"):
        g.table(100, grundy=False, checkpoint=cp)
    with pytest.raises(ValueError, match="in normal play, not"):
        heaplab.Game("0.6", play="misere").table(100, checkpoint=cp)
    with pytest.raises(ValueError, match="in normal play, not divisors"):
        heaplab.Game("divisors").table(100, checkpoint=cp)
    with pytest.raises(ValueError, match="checkpoint_every"):
        g.table(100, checkpoint=cp, checkpoint_every=-1)
    with pytest.raises(TypeError, match="checkpoint must be a path"):
        g.table(100, checkpoint=3)
    with pytest.raises(ValueError, match="is a folder"):
        g.table(100, checkpoint=tmp_path)

    # a checkpoint another run holds
    clash = []

    def second_run(done, total):
        # (while the run holds the lock: its last call, at the end, comes after it lets go)
        if not clash and done < total:
            try:
                g.table(2**17, checkpoint=cp)
            except heaplab.HeaplabError as e:
                clash.append(str(e))

    # long enough that progress is reported while it runs, however fast the machine
    table = g.table(2**22, checkpoint=cp, progress=second_run)
    assert clash and "is in use by another heaplab run" in clash[0]
    # resumed from the saved values
    assert table.equals(g.table(2**22)) and left(tmp_path) == []


def test_refused_losers_checkpoints(tmp_path):
    cp = tmp_path / "l.ckpt"
    spool = tmp_path / "l.ckpt.spool"
    g = heaplab.Game("squares")
    n = 10**8

    def stop_when_saved(done, total):
        if cp.exists():
            raise Stop

    with pytest.raises(Stop):
        g.losers(n, checkpoint=cp, checkpoint_every=0, progress=stop_when_saved)
    good = cp.read_bytes()
    assert left(tmp_path) == ["l.ckpt", "l.ckpt.spool"]
    bad = bytearray(good)
    bad[len(bad) // 2] ^= 1
    cp.write_bytes(bytes(bad))
    with pytest.raises(ValueError, match=r"l\.ckpt` is damaged .*remove it to start over"):
        g.losers(n, checkpoint=cp)
    cp.write_bytes(good)
    with pytest.raises(ValueError, match=r"belongs to another run, with game squares \(not cubes\)"):
        heaplab.Game("cubes").losers(n, checkpoint=cp)
    with pytest.raises(ValueError, match=r"with n_max 100000000 \(not 1000\)"):
        g.losers(1000, checkpoint=cp)
    # the spool changed under the checkpoint
    ok = spool.read_bytes()
    spool.write_bytes(ok[:8] + (12345).to_bytes(8, "little") + ok[16:])
    with pytest.raises(ValueError, match=r"l\.ckpt\.spool` does not match checkpoint .*saved part has changed"):
        g.losers(n, checkpoint=cp)
    spool.write_bytes(ok[:8])
    with pytest.raises(ValueError, match="shorter than the"):
        g.losers(n, checkpoint=cp)
    # a P-position checkpoint is no Grundy-table checkpoint
    with pytest.raises(ValueError, match=r"l\.ckpt` is not a heaplab Grundy-table checkpoint"):
        heaplab.Game("0.6").table(1000, checkpoint=cp)
    # P-positions in the spool past the checkpoint are cut off on resume: the list is right
    spool.write_bytes(ok + (7).to_bytes(8, "little"))
    ps = g.losers(n, checkpoint=cp)
    assert left(tmp_path) == []
    assert ps.size == 346814 and (np.diff(ps.astype(np.int64)) > 0).all()
    first = g.losers(10**6)
    assert np.array_equal(ps[: first.size], first)


def test_refused_census_journals(tmp_path):
    journal = tmp_path / "j.journal"
    space = dict(games=["sub{a,b}"], where="1 <= a < b <= 9", with_seconds=False)
    whole = heaplab.census(**space)
    lines = [json.dumps({"census": "another", "classes": 3, "shard": "1/1"}), ""]
    journal.write_text("\n".join(lines))
    with pytest.raises(ValueError, match=r"j\.journal` is the journal of another census or shard: census another \(another game pattern"):
        heaplab.census(**space, journal=journal)
    assert journal.read_text() == "\n".join(lines)
    # the same space with another budget is another census
    journal.unlink()

    def stop(done, total):
        if done >= 3:
            raise Stop

    with pytest.raises(Stop):
        heaplab.census(**space, journal=journal, progress=stop)
    with pytest.raises(ValueError, match="journal of another census"):
        heaplab.census(**space, n_max=4096, journal=journal)
    # an edited row is computed again; rows are kept by the rule
    text = journal.read_text().splitlines()
    assert len(text) >= 4
    text[1] = ("1" if text[1][0] == "0" else "0") + text[1][1:]
    journal.write_text("\n".join(text) + "\n" + text[2][:15])
    assert heaplab.census(**space, journal=journal).equals(whole)
    assert left(tmp_path) == []


def test_checkpoints_are_sealed_with_the_users_key(tmp_path, monkeypatch):
    """A checkpoint resumes only under the key it was sealed with (made on first use,
    readable by the user only); another key, or a key file that holds no key, is refused.
    (Forged checkpoints — a value changed, the xxh3 computed afresh — are the Rust tests'.)"""
    key = tmp_path / "keys" / "mine.key"
    monkeypatch.setenv("HEAPLAB_CHECKPOINT_KEY", str(key))
    cp = tmp_path / "t.ckpt"
    g = heaplab.Game("0.6")
    stopped_after_a_save(g, cp)
    assert os.stat(key).st_mode & 0o777 == 0o600
    assert len(key.read_text().strip()) == 64
    other = tmp_path / "other.key"
    monkeypatch.setenv("HEAPLAB_CHECKPOINT_KEY", str(other))
    # no key there: none is made, since it could not open the checkpoint
    with pytest.raises(ValueError, match=r"there is no checkpoint key at `.*other\.key`"):
        g.table(2**20, checkpoint=cp)
    assert not other.exists()
    other.write_text("5a" * 32 + "\n")
    os.chmod(other, 0o600)
    with pytest.raises(ValueError, match=r"t\.ckpt` was not sealed with the checkpoint key `.*other\.key`"):
        g.table(2**20, checkpoint=cp)
    # a key others may read is refused: they could seal checkpoints
    os.chmod(other, 0o644)
    with pytest.raises(OSError, match=r"others may read or change it \(mode 644\)"):
        g.table(2**20, checkpoint=cp)
    os.chmod(other, 0o600)
    other.write_text("not a key\n")
    with pytest.raises(ValueError, match=r"other\.key` is not 64 hexadecimal digits"):
        g.table(2**20, checkpoint=cp)
    monkeypatch.setenv("HEAPLAB_CHECKPOINT_KEY", str(tmp_path / "t.ckpt" / "no" / "key"))
    with pytest.raises(OSError, match=r"cannot read the checkpoint key `.*t\.ckpt/no/key`: Not a directory"):
        g.table(2**20, checkpoint=cp)
    monkeypatch.setenv("HEAPLAB_CHECKPOINT_KEY", str(key))
    assert g.table(2**20, checkpoint=cp).equals(g.table(2**20))
    assert left(tmp_path) == ["keys", "other.key"]
