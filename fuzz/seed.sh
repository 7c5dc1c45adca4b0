#!/usr/bin/env bash
# Builds each target's seed corpus in fuzz/corpus/<target>/ from the shipped files
# (experiments/*.toml, rulesets/*, results/**/summary.json and sweep.json), so that
# nothing is duplicated in the repository. Run from anywhere; safe to run again.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
corpus="$root/fuzz/corpus"
mkdir -p "$corpus"/{scenario,sweep_file,merge,request}

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

# Requests: a byte naming the endpoint (its place in Endpoint::ALL: 0 fire, 1 fire.csv,
# 2 exact, 3 form, 4 percent, 5 answers, 6 sensitivity, 7 run, 8 compare, 9 sweep,
# 10 balance), then a JSON body as the page posts it, over shipped files and at trials
# the target's limits admit (but for sensitivity, the shipped sweep and the shipped
# comparison, whose set-up alone is past them: seeds of reading and pricing).
x="$root/experiments"
request() { # NAME BYTE JQ-FILTER [jq arguments]: the body is the filter's output
    local name=$1 byte=$2 filter=$3
    shift 3
    { printf "\\x$byte"; jq -nc "$@" "$filter"; } >"$corpus/request/$name"
}
duel=(--rawfile duel "$x/cd_tank_duel.toml")
request fire 00 '{scenario: $duel, trials: 1000, seed: 7}' "${duel[@]}"
request fire_csv 01 '{scenario: $duel, name: "cd_tank_duel.toml", trials: 500, mode: "literal"}' "${duel[@]}"
request exact 02 '{scenario: $duel, trials: 1000, exact_seconds: 0.01}' "${duel[@]}"
request form 03 '{scenario: $duel}' "${duel[@]}"
request percent 04 '{scenario: $duel, trials: 500}' "${duel[@]}"
request answers 05 '{scenario: $s}' --rawfile s "$x/coc_five_dice_senior_leader.toml"
request sensitivity 06 '{scenario: $duel, trials: 200, top: 5}' "${duel[@]}"
request run 07 '{scenario: $s, trials: 200}' --rawfile s "$x/cd_engagement_tank_duel.toml"
request compare 08 '{scenario: $s, trials: 10}' --rawfile s "$x/compare_at_gun_vs_medium_tank.toml"
request compare_one_range 08 '{scenario: $s, trials: 200}' --arg s 'kind = "compare"
name = "AT gun vs medium tank at 800 m"
weapons = ["pak40"]
target = "medium_tank"
quality = "regular"
ranges_m = [800]
'
# A shipped sweep whose base the target ships (by name), and one of three ranges of the
# duel given whole, its base named.
request sweep 09 '{sweep: $s, trials: 10, exact_seconds: 0}' --rawfile s "$x/sweep_mc_hmg_vs_rifle_sections.toml"
request sweep_duel 09 '{sweep: $s, trials: 100}' --arg s 'kind = "sweep"
name = "duel by range"
scenario = "cd_tank_duel.toml"

[[vary]]
key = "range"
values = [8, 16, 24]
'
request balance 0a '{scenario: $duel, vary: "range", from: 4, to: 40, trials: 200}' "${duel[@]}"
request balance_values 0a '{scenario: $duel, vary: "range", values: [8, 16, 24], target: 0.3, trials: 200}' "${duel[@]}"

for target in scenario sweep_file merge request; do
    echo "$target: $(ls "$corpus/$target" | wc -l) seeds"
done
