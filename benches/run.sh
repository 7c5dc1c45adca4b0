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

# Issue 32's platoon row: the shipped Shermans against a Panther grown to five and
# closed to 4 in., `run --trials 100000` from start to finish, exact solution and
# compiled chain included. Its figure is wall time, so a busy host reads slow.
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sed -e 's/^range = 17.5/range = 4/' -e 's/^count = 3/count = 5/' \
    experiments/cd_engagement_shermans_vs_panther.toml > "$work/five_shermans.toml"
start="$(date +%s.%N)"
target/release/combat-odds run "$work/five_shermans.toml" --trials 100000 --out "$work/out" > /dev/null
end="$(date +%s.%N)"
exact="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["p_kill"]["exact"] is not None)' "$work/out/summary.json")"
python3 - "$start" "$end" "$exact" <<'ROW'
import sys
seconds = float(sys.argv[2]) - float(sys.argv[1])
met = "yes" if seconds < 1 and sys.argv[3] == "True" else "no"
print(f"| {'CD five Shermans vs a Panther, 4 in., exact run':<48} | {seconds:>10.2f} | {'s':<4} | {'< 1':>8} | {met:<4} |")
ROW

# Issue 32's sweep row: the shipped 40-point Command Decision sweep at 100,000 trials,
# met when under 15 s with every point exact; and the peak memory of both runs (GNU
# time's maximum resident set), met under 100 MB.
start="$(date +%s.%N)"
/usr/bin/time -f '%M' -o "$work/sweep.rss" target/release/combat-odds sweep \
    experiments/sweep_cd_shermans_vs_panther.toml --trials 100000 --out "$work/sweep" > "$work/sweep.txt"
end="$(date +%s.%N)"
/usr/bin/time -f '%M' -o "$work/five.rss" target/release/combat-odds run "$work/five_shermans.toml" \
    --trials 100000 --out "$work/out" --force > /dev/null
python3 - "$start" "$end" "$work" <<'ROW'
import pathlib, sys
work = pathlib.Path(sys.argv[3])
seconds = float(sys.argv[2]) - float(sys.argv[1])
lines = [l for l in (work / "sweep.txt").read_text().splitlines() if ": winner = " in l]
exact = len(lines) == 40 and all(l.endswith("(exact)") for l in lines)
met = "yes" if seconds < 15 and exact else "no"
print(f"| {'CD 40-point sweep, 100,000 trials, every point exact':<48} | {seconds:>10.2f} | {'s':<4} | {'< 15':>8} | {met:<4} |")
mb = max(int((work / f).read_text().split()[-1]) for f in ("sweep.rss", "five.rss")) / 1024
met = "yes" if mb < 100 else "no"
print(f"| {'peak memory, the two runs above':<48} | {mb:>10.1f} | {'MB':<4} | {'< 100':>8} | {met:<4} |")
ROW

if [[ "${1:-}" == "--criterion" ]]; then
    cargo bench --bench fire
fi
