#!/usr/bin/env python3
"""Checks a per-game census against `heaplab analyze`, game by game.

Usage: scripts/census-vs-analyze.py CENSUS.parquet [--rows 1000] [--seed 1] [--heaplab PATH]

Draws random rows (seeded) from a census written by `heaplab census --per-game` and runs
`heaplab analyze --values outcome` (and, when the census has Grundy columns, the default
Grundy analysis) on each game, to N = twice the positions the census computed. Every row's
preperiod and period must equal analyze's certified ones. Prints the disagreements and a
one-line verdict; exits 1 on any disagreement. Needs polars (pip install polars).
"""
import argparse
import json
import subprocess
import sys

import polars as pl


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("census")
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--heaplab", default="heaplab")
    a = ap.parse_args()
    df = pl.read_parquet(a.census)
    play = "misere" if "misère play" in df["census"][0] else "normal"
    sample = df.sample(n=min(a.rows, df.height), seed=a.seed)
    bad = 0
    for r in sample.iter_rows(named=True):
        n = max(2 * (r["computed"] + 1), 1024)
        checks = [("outcome", "", r["preperiod"], r["period"])]
        if "grundy_period" in r:
            checks.append(("grundy", "grundy_", r["grundy_preperiod"], r["grundy_period"]))
        for values, _, pre, per in checks:
            out = subprocess.run(
                [a.heaplab, "analyze", "--game", r["game"], "--max", str(n), "--values",
                 values, "--play", play, "--json", "--quiet"],
                capture_output=True, text=True, check=True)
            p = json.loads(out.stdout)["periodicity"]
            got = (p["preperiod"], p["period"], p["certified"]) if p else None
            if got != (pre, per, True):
                bad += 1
                print(f"{r['game']} ({values}): census {pre}, {per}; analyze {got}")
    print(f"{sample.height} rows of {a.census}: {bad} disagreements with heaplab analyze")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
