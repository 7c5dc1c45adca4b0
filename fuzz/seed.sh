#!/usr/bin/env bash
# Builds each target's seed corpus in fuzz/corpus/<target>/ from the shipped files
# (experiments/*.toml, rulesets/*, results/**/summary.json and sweep.json), so that
# nothing is duplicated in the repository. Run from anywhere; safe to run again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus="$root/fuzz/corpus"
mkdir -p "$corpus"/{scenario,sweep_file,merge}

# The scenario loader: every shipped scenario, then every table file of each ruleset
# over one scenario of that ruleset (`NAME.toml`, the table, NUL, the scenario).
for f in "$root"/experiments/*.toml; do
    case $(basename "$f") in sweep_*) continue ;; esac
    cp "$f" "$corpus/scenario/$(basename "$f")"
done
declare -A prefix=([chain-of-command]=coc [command-decision]=cd [company-commander]=cc [mission-command]=mc)
for ruleset in "${!prefix[@]}"; do
    scenario=$(ls "$root"/experiments/"${prefix[$ruleset]}"_engagement_*.toml | head -n 1)
    for table in "$root"/rulesets/"$ruleset"/*.toml; do
        name=$(basename "$table")
        { printf '%s\n' "$name"; cat "$table"; printf '\0'; cat "$scenario"; } \
            >"$corpus/scenario/override_${ruleset}_$name"
    done
done

# Sweep files: each shipped sweep, NUL, the base scenario it names.
for f in "$root"/experiments/sweep_*.toml; do
    base=$(sed -n 's/^scenario = "\(.*\)"/\1/p' "$f")
    { cat "$f"; printf '\0'; cat "$root/experiments/$base"; } >"$corpus/sweep_file/$(basename "$f")"
done

# The files merge reads: each run's summary.json whole and as two shards (the second
# holding no trials); each sweep's sweep.json cut to its first two points, as one
# shard 1/1 and as shards 1/2 and 2/2 (a point each).
for f in "$root"/results/*/summary.json; do
    name=$(basename "$(dirname "$f")")
    jq -c . "$f" >"$corpus/merge/summary_$name"
    {
        jq -c '.shard = {index: 1, count: 2}' "$f"
        printf '\0'
        jq -c '.shard = {index: 2, count: 2} | .trials = 0 | .measures[].counts |= map(0)' "$f"
    } >"$corpus/merge/summary_shards_$name"
done
for f in "$root"/results/sweeps/*/sweep.json; do
    name=$(basename "$(dirname "$f")")
    cut='.results |= .[:2] | .points = 2'
    jq -c "$cut | .shard = {index: 1, count: 1}" "$f" >"$corpus/merge/sweep_$name"
    {
        jq -c "$cut | .shard = {index: 1, count: 2} | .results |= [.[0]]" "$f"
        printf '\0'
        jq -c "$cut | .shard = {index: 2, count: 2} | .results |= [.[1]]" "$f"
    } >"$corpus/merge/sweep_shards_$name"
done
for target in scenario sweep_file merge; do
    echo "$target: $(ls "$corpus/$target" | wc -l) seeds"
done
