#!/usr/bin/env bash
# Run the NumPy peer benchmark in its own virtualenv.
#
# Usage: benches/peer/run.sh [--trials N] [--seed S] [--repeat R] [--batch B]
#
# The virtualenv lives at ${PEER_VENV:-target/peer-venv}, a relative path being
# taken from the repository root, so it sits in the ignored target/ directory
# and survives between runs. Everything but the final JSON line goes to stderr,
# so `run.sh > result.json` captures just the result.
set -euo pipefail

# Resolve the repository root from this script's own location, so the script
# behaves the same from whatever directory it is started in.
here="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd -- "$here/../.." && pwd)"

venv="${PEER_VENV:-target/peer-venv}"
case "$venv" in
    /*) ;;
    *) venv="$root/$venv" ;;
esac

# Build the virtualenv only once; checking for its interpreter rather than the
# directory also recovers from a half-created one.
if [[ ! -x "$venv/bin/python" ]]; then
    echo "creating virtualenv at $venv" >&2
    "${PYTHON:-python3}" -m venv "$venv" >&2
fi

# Always run pip: when the pinned NumPy is already there this is a quick no-op,
# and when requirements.txt changes the venv follows it. Its output is sent to
# stderr to keep stdout to the one JSON line.
"$venv/bin/python" -m pip install -q --disable-pip-version-check \
    -r "$here/requirements.txt" >&2

exec "$venv/bin/python" "$here/cd_fire.py" "$@"
