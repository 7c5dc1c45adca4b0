#!/usr/bin/env bash
# Re-runs every experiment: a single fire's report goes to results/<ruleset>/ as JSON
# and CSV; an engagement's study goes to results/<name>/ (one CSV and Parquet frame per
# measure, summary.json). The manifest lists the seed, trials, rules hash and version
# behind each.
# Usage: experiments/run.sh [--trials N] [--seed S]   (defaults: 1,000,000 trials, seed 2026)
set -euo pipefail
cd "$(dirname "$0")/.."
trials=1000000
seed=2026
while [ $# -gt 0 ]; do
  case "$1" in
    --trials) trials="$2"; shift 2 ;;
    --seed) seed="$2"; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
cargo build --release --quiet
bin=target/release/combat-odds
manifest=results/MANIFEST.md
mkdir -p results
{
  echo "# Results manifest"
  echo
  echo "Written by \`experiments/run.sh --trials $trials --seed $seed\`."
  echo
  echo "| experiment | ruleset | trials | seed | rules hash | version | p_kill exact | p_kill estimate [95% CI] |"
  echo "|---|---|---|---|---|---|---|---|"
} > "$manifest.tmp"
engagements=()
comparisons=()
for file in experiments/*.toml; do
  name=$(basename "$file" .toml)
  # Sweep studies are re-run by experiments/answers.sh.
  if grep -q '^kind = "sweep"' "$file"; then
    continue
  fi
  if grep -q '^kind = "compare"' "$file"; then
    comparisons+=("$file")
    continue
  fi
  if grep -q '^kind = "engagement"' "$file"; then
    engagements+=("$file")
    continue
  fi
  ruleset=$(sed -n 's/^ruleset = "\(.*\)"/\1/p' "$file")
  mkdir -p "results/$ruleset"
  "$bin" fire "$file" --trials "$trials" --seed "$seed" --format json --output "results/$ruleset/$name.json" --force
  "$bin" fire "$file" --trials "$trials" --seed "$seed" --format csv --output "results/$ruleset/$name.csv" --force
  python3 - "$file" "results/$ruleset/$name.json" >> "$manifest.tmp" <<'PY'
import json, sys
r = json.load(open(sys.argv[2]))
k = r["p_kill"]
exact = "n/a" if k["exact"] is None else f'{k["exact"]:.6f}'
print(f'| {sys.argv[1]} | {r["ruleset"]} | {r["trials"]} | {r["seed"]} | {r["rules_hash"]} | {r["version"]} | {exact} | {k["estimate"]:.6f} [{k["ci_low"]:.6f}, {k["ci_high"]:.6f}] |')
PY
done
{
  echo
  echo "## Engagements"
  echo
  echo "Each row's directory holds one CSV and Parquet frame per measure and summary.json."
  echo
  echo "| experiment | ruleset | trials | seed | rules hash | wall time | winner: estimate (exact) |"
  echo "|---|---|---|---|---|---|---|"
} >> "$manifest.tmp"
for file in "${engagements[@]}"; do
  name=$(basename "$file" .toml)
  "$bin" run "$file" --trials "$trials" --seed "$seed" --out "results/$name" --force
  python3 - "$file" "results/$name" >> "$manifest.tmp" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[2] + "/summary.json"))
rows = list(csv.DictReader(open(sys.argv[2] + "/winner.csv")))
def cell(row):
    exact = "" if row["exact"] == "" else f' ({float(row["exact"]):.6f})'
    return f'{row["outcome"]} {float(row["probability"]):.6f}{exact}'
winners = "; ".join(cell(row) for row in rows)
print(f'| [{sys.argv[1]}]({sys.argv[2].removeprefix("results/")}/) | {r["ruleset"]} | {r["trials"]} | {r["seed"]} | {r["rules_hash"]} | {r["wall_time_s"]:.2f} s | {winners} |')
PY
done
{
  echo
  echo "## Comparisons"
  echo
  echo "Each directory holds compare.csv/.parquet, differences.csv/.parquet (paired weapons) and their charts (p_kill_vs_range and differences_vs_range, or bars without ranges)."
  echo
  for file in "${comparisons[@]}"; do
    echo "- [$file]($(basename "$file" .toml)/)"
  done
} >> "$manifest.tmp"
for file in "${comparisons[@]}"; do
  name=$(basename "$file" .toml)
  "$bin" compare "$file" --trials "$trials" --seed "$seed" --out "results/$name" --force > /dev/null
done
mv "$manifest.tmp" "$manifest"
# The regression gate's baseline, from the same trials and seed.
"$bin" regress --update --trials "$trials" --seed "$seed"
echo "wrote results/ and $manifest"
