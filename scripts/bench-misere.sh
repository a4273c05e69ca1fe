#!/usr/bin/env bash
# Misère against normal play with the same engine: `heaplab losers --count` on a game in
# both plays, alternating, best of R runs each, in one run on one machine. Prints the
# P-position counts, the best wall times, the peak memory and the misère/normal ratio.
#
# usage: scripts/bench-misere.sh [GAME [N [R]]]      (default: squares 1e9 3)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/heaplab/target}"
game=${1:-squares}
n=${2:-1e9}
runs=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release -q -p heaplab-report
heaplab="$CARGO_TARGET_DIR/release/heaplab"

declare -A best mem count
for ((r = 1; r <= runs; r++)); do
  for play in normal misere; do
    /usr/bin/time -f '%e %M' -o "$work/time" \
      "$heaplab" --quiet losers --game "$game" --max "$n" --count --play "$play" --json > "$work/out.json"
    read -r secs kb < "$work/time"
    count[$play]=$(python3 -c "import json;print(json.load(open('$work/out.json'))['p_positions'])")
    if [ -z "${best[$play]:-}" ] || python3 -c "import sys;sys.exit(not ($secs < ${best[$play]}))"; then
      best[$play]=$secs
      mem[$play]=$((kb / 1024))
    fi
  done
done
printf '%-10s %-8s %-7s %14s %10s %10s\n' game N play P-positions best_s MiB
for play in normal misere; do
  printf '%-10s %-8s %-7s %14s %10s %10s\n' "$game" "$n" "$play" "${count[$play]}" "${best[$play]}" "${mem[$play]}"
done
python3 -c "print(f'misère / normal time: {${best[misere]}/${best[normal]}:.2f}')"
