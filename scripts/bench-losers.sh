#!/usr/bin/env bash
# Speed of `heaplab losers` on subtract-a-square against the C baseline sas_seg
# (../shared/baselines/sas_seg.c, a cache-blocked single-threaded sieve), in one run on one
# machine. Prints both wall times and their ratio for each N.
#
# usage: scripts/bench-losers.sh [N ...]        (default: 1e8 1e9)
#   BASELINES=path/to/baselines  (default: ../shared/baselines beside the checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
baselines=${BASELINES:-$root/../shared/baselines}
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/heaplab/target}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ ! -f "$baselines/sas_seg.c" ]; then
  echo "sas_seg.c not found in $baselines (set BASELINES=...)" >&2
  exit 2
fi
gcc -O3 -march=native -o "$work/sas_seg" "$baselines/sas_seg.c"
cargo build --release -q -p heaplab-report
heaplab="$CARGO_TARGET_DIR/release/heaplab"

sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1e8 1e9)
printf '%-8s %12s %12s %12s %10s %8s\n' N P-positions sas_seg_s heaplab_s heaplab_MiB ratio
for n in "${sizes[@]}"; do
  nint=$(python3 -c "print(int(float('$n')))")
  # sas_seg decides [0, N): ask it for N + 1 positions so both cover 0..=N.
  c_out=$("$work/sas_seg" $((nint + 1)))
  c_secs=$(echo "$c_out" | sed -n 's/.*time=\([0-9.]*\)s.*/\1/p')
  c_count=$(echo "$c_out" | sed -n 's/.* c=\([0-9]*\) .*/\1/p')
  /usr/bin/time -f '%e %M' -o "$work/time" "$heaplab" --quiet losers --game squares --max "$n" --json > "$work/out.json"
  read -r h_secs h_kb < "$work/time"
  h_count=$(python3 -c "import json;print(json.load(open('$work/out.json'))['p_positions'])")
  if [ "$h_count" != "$c_count" ]; then
    echo "count mismatch at N=$n: heaplab $h_count, sas_seg $c_count" >&2
    exit 1
  fi
  ratio=$(python3 -c "print(f'{$c_secs/$h_secs:.2f}')")
  printf '%-8s %12s %12s %12s %10s %8s\n' "$n" "$h_count" "$c_secs" "$h_secs" "$((h_kb / 1024))" "${ratio}x"
done
