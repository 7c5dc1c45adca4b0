#!/usr/bin/env bash
# Re-runs the committed scenario-balance answers the README quotes: each sweep study
# into results/sweeps/<name>/ (frames, sweep.json, charts) with its table in
# results/sweeps/<name>.txt, and each balance search into results/balance/<name>.txt.
# Usage: experiments/answers.sh   (100,000 trials per point, seed 2026)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/combat-odds
trials=100000

for study in cd_shermans_vs_panther mc_hmg_vs_rifle_sections cc_veteran_vs_hull_down coc_force_morale_vs_dice; do
  "$bin" sweep "experiments/sweep_$study.toml" --trials "$trials" --out "results/sweeps/$study" --force \
    > "results/sweeps/$study.txt.tmp"
  mv "results/sweeps/$study.txt.tmp" "results/sweeps/$study.txt"
done

balance() {
  local name="$1"
  shift
  "$bin" balance "$@" --trials "$trials" > "results/balance/$name.txt.tmp"
  mv "results/balance/$name.txt.tmp" "results/balance/$name.txt"
}
balance cd_panther_even_range experiments/cd_engagement_shermans_vs_panther.toml \
  --vary engagement.range --from 2 --to 20 --step 2 --measure winner --outcome German
balance mc_sections_for_even experiments/mc_engagement_hmg_vs_rifle_platoon.toml \
  --vary 'side[1].unit[0].count' --from 1 --to 8 --step 1
balance cc_shermans_for_even experiments/cc_engagement_shermans_vs_panther_flank.toml \
  --vary 'side[1].unit[0].count' --from 1 --to 8 --step 1 --measure winner --outcome Americans
balance coc_range_for_british experiments/coc_engagement_sections_at_the_hedge.toml \
  --vary engagement.range --from 6 --to 30 --step 6 --target 0.25
