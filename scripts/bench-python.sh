#!/usr/bin/env bash
# The Python package against the command line on the same work, side by side in one run:
# `Game('squares').grundy(10**7)` (a NumPy uint16 array) against
# `heaplab table --game squares --max 1e7 --grundy` with its output thrown away
# (`--format parquet > /dev/null`, the cheapest writer). Wall time of the whole process for
# both (interpreter start and import included for Python), alternating, best of REPEAT
# (default 3), and the peak memory of each. Python's is compared with the table's own size
# (N + 1 values of 2 bytes) above an interpreter that has only imported heaplab and NumPy.
#
# usage: [REPEAT=k] [N=1e7] [PYTHON=python] scripts/bench-python.sh
# Needs the package installed in PYTHON's environment (pip install ./crates/python).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/heaplab/target}"
python=${PYTHON:-python}
n=${N:-1e7}
repeat=${REPEAT:-3}
cargo build --release -q -p heaplab-report
cli="$CARGO_TARGET_DIR/release/heaplab"
nint=$("$python" -c "print(int(float('$n')))")

measure() { # prints "seconds peak_kib" of a command
  /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1
}
best() { "$python" -c "import sys; print(min(float(x) for x in sys.argv[1:]))" "$@"; }

cs=() ps=() cm=0 pm=0
for _ in $(seq "$repeat"); do
  read -r s m < <(measure "$cli" --quiet table --game squares --max "$n" --grundy --format parquet)
  cs+=("$s"); cm=$m
  read -r s m < <(measure "$python" -c "import heaplab; heaplab.Game('squares').grundy($nint)")
  ps+=("$s"); pm=$m
done
read -r _ base < <(measure "$python" -c "import heaplab, numpy")
cb=$(best "${cs[@]}"); pb=$(best "${ps[@]}")
echo "squares Grundy values to N = $n, best of $repeat:"
echo "  heaplab table (to /dev/null): ${cs[*]} s -> $cb s, peak $((cm / 1024)) MiB"
echo "  python grundy():              ${ps[*]} s -> $pb s, peak $((pm / 1024)) MiB"
"$python" -c "
n = $nint + 1
print(f'  python / command line: {$pb / $cb:.2f}x')
print(f'  python memory above the interpreter: {($pm - $base) / 1024:.1f} MiB; the table: {2 * n / 2**20:.1f} MiB')
"
