#!/usr/bin/env bash
# The speed table beside its peer, in one command from the repository root:
#
#   benches/run.sh               # the NumPy peer, then `combat-odds bench` with its ratios
#   benches/run.sh --criterion   # the same, then every criterion bench (`cargo bench`)
#
# The peer installs NumPy into target/peer-venv the first time (benches/peer/run.sh).
set -euo pipefail

root="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

cargo build --release --quiet
peer="$(benches/peer/run.sh)"
rate="$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["resolutions_per_second"])' "$peer")"
target/release/combat-odds bench --peer-rate "$rate"

if [[ "${1:-}" == "--criterion" ]]; then
    cargo bench --bench fire
fi
