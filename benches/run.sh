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
bench="$(target/release/combat-odds bench --peer-rate "$rate")"
echo "$bench"

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

# Every shipped engagement, and every point of every shipped sweep: exact, or refused
# with its reason (a note that Monte Carlo answers alone), within 1 s of starting. Each
# engagement is timed from the process's start to its end (`run --trials 1000`), each
# sweep point by its own `wall_time_s`; peak memory (GNU time's maximum resident set)
# over all of them, met under 100 MB.
for file in experiments/*_engagement_*.toml; do
    name="$(basename "$file" .toml)"
    start="$(date +%s.%N)"
    /usr/bin/time -f '%M' -o "$work/$name.rss" target/release/combat-odds run "$file" --trials 1000 \
        --out "$work/engagements/$name" > /dev/null
    end="$(date +%s.%N)"
    python3 -c 'import sys; print(float(sys.argv[2]) - float(sys.argv[1]))' "$start" "$end" > "$work/$name.seconds"
done
for file in experiments/sweep_*.toml; do
    name="$(basename "$file" .toml)"
    /usr/bin/time -f '%M' -o "$work/$name.rss" target/release/combat-odds sweep "$file" --trials 1000 \
        --out "$work/sweeps/$name" > /dev/null
done
python3 - "$work" <<'ROW'
import json, pathlib, sys
work = pathlib.Path(sys.argv[1])
def answered(summary):
    # Exact, or a reasoned refusal: the line saying Monte Carlo answers alone.
    return summary["p_kill"]["exact"] is not None or any(
        "Monte Carlo answers alone" in n or "no exact odds" in n for n in summary["notes"])
engagements = sorted((work / "engagements").iterdir())
seconds = max(float((work / f"{e.name}.seconds").read_text()) for e in engagements)
ok = all(answered(json.loads((e / "summary.json").read_text())) for e in engagements)
label = f"every shipped engagement ({len(engagements)}), exact or refused, slowest"
print(f"| {label:<48} | {seconds:>10.2f} | {'s':<4} | {'< 1':>8} | {'yes' if ok and seconds < 1 else 'no':<4} |")
points = [r["summary"] for s in sorted((work / "sweeps").iterdir())
          for r in json.loads((s / "sweep.json").read_text())["results"]]
seconds = max(p["wall_time_s"] for p in points)
ok = all(answered(p) for p in points)
label = f"every shipped sweep point ({len(points)}), exact or refused, slowest"
print(f"| {label:<48} | {seconds:>10.2f} | {'s':<4} | {'< 1':>8} | {'yes' if ok and seconds < 1 else 'no':<4} |")
mb = max(int(f.read_text().split()[-1]) for f in work.glob("*.rss")) / 1024
label = "peak memory, every shipped engagement and sweep"
print(f"| {label:<48} | {mb:>10.1f} | {'MB':<4} | {'< 100':>8} | {'yes' if mb < 100 else 'no':<4} |")
ROW

# A platoon against a platoon: five Shermans against five Panthers at 4 in., exact
# within 5 s or refused within 5 s with the states it would need.
python3 - "$work" <<'FILE'
import pathlib, sys
work = pathlib.Path(sys.argv[1])
five = (work / "five_shermans.toml").read_text()
unit = 'name = "Panther"\nquality'
(work / "five_v_five.toml").write_text(five.replace(unit, 'name = "Panther"\ncount = 5\nquality', 1))
FILE
start="$(date +%s.%N)"
target/release/combat-odds fire "$work/five_v_five.toml" --trials 1000 --format json > "$work/five_v_five.json"
end="$(date +%s.%N)"
python3 - "$start" "$end" "$work/five_v_five.json" <<'ROW'
import json, re, sys
seconds = float(sys.argv[2]) - float(sys.argv[1])
report = json.load(open(sys.argv[3]))
states = [m.group(1) for n in report["notes"] for m in [re.search(r"would need up to (\d+) states", n)] if m]
exact = report["p_kill"]["exact"] is not None
what = "exact" if exact else f"refused, {states[0]} states" if states else "neither"
met = "yes" if seconds < 5 and (exact or states) else "no"
label = f"CD 5 Shermans vs 5 Panthers: {what}"
print(f"| {label:<48} | {seconds:>10.2f} | {'s':<4} | {'< 5':>8} | {met:<4} |")
ROW

# The farmhouse compiled: `run --trials 1000000` in each mode, met when the compiled
# run is compiled (its turns drawn a phase at a time where one draw cannot take them).
for mode in compiled literal; do
    start="$(date +%s.%N)"
    target/release/combat-odds run experiments/cd_engagement_company_at_the_farmhouse.toml --trials 1000000 \
        --mode "$mode" --out "$work/farmhouse-$mode" > /dev/null
    end="$(date +%s.%N)"
    python3 - "$start" "$end" "$work/farmhouse-$mode/summary.json" "$mode" <<'ROW'
import json, sys
seconds = float(sys.argv[2]) - float(sys.argv[1])
mode = sys.argv[4]
ran = json.load(open(sys.argv[3]))["mode"]
label = f"CD farmhouse, run 1,000,000 trials, {mode}"
target, met = ("compiled", "yes" if ran == "compiled" else "no") if mode == "compiled" else ("", "")
print(f"| {label:<48} | {seconds:>10.2f} | {'s':<4} | {target:>8} | {met:<4} |")
ROW
done

# The stretch target: compiled single resolution at 600 M/s a core or more, read off
# the bench's own row above.
python3 - "$bench" <<'ROW'
import sys
row = next(l for l in sys.argv[1].splitlines() if "CD single resolution, compiled, one core" in l)
rate = float(row.split("|")[2])
label = "CD single resolution, compiled (stretch)"
print(f"| {label:<48} | {rate:>10.2f} | {'M/s':<4} | {'>= 600':>8} | {'yes' if rate >= 600 else 'no':<4} |")
ROW

if [[ "${1:-}" == "--criterion" ]]; then
    cargo bench --bench fire
fi
