#!/usr/bin/env bash
# heaplab's tests, from nothing but Rust (cargo) and Python 3.9+ with venv: makes a virtual
# environment (HEAPLAB_VENV, default ~/.cache/heaplab/venv) with maturin, pytest, NumPy,
# pyarrow, polars and Dask from PyPI, builds and installs the Python package from this
# checkout into it, then runs every Rust test and every Python test.
set -euo pipefail
cd "$(dirname "$0")/.."

for tool in cargo python3; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "$tool is missing: install Rust 1.89 or later (https://rustup.rs) and Python 3.9+ with venv" >&2
    exit 1
  fi
done
VENV="${HEAPLAB_VENV:-$HOME/.cache/heaplab/venv}"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
# (maturin's build backend runs the `maturin` program: the venv's bin comes first on PATH)
export PATH="$VENV/bin:$PATH"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
  "maturin>=1.9,<2" pytest numpy pyarrow polars "dask[distributed]"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
  --force-reinstall --no-deps ./crates/python

cargo test --workspace
"$VENV/bin/python" -m pytest -q crates/python/tests
