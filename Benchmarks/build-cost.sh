#!/usr/bin/env bash
# The share of a clean `swift build --build-tests` that is ModelKit's own code: a clean build of
# ModelKit against a clean build of Benchmarks/BuildCost (the same dependencies, used the same
# way, with no code of ours), each in a scratch folder of its own, alternating ROUNDS times
# (default 1). CPU time is user + sys of the whole build, children included (the compiler, the
# macro plugins, the linker).
#
#     bash Benchmarks/build-cost.sh [ROUNDS]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
rounds="${1:-1}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

# CPU-seconds of one clean build of the package at $1.
clean_build_cpu() {
    local package="$1" times="$scratch/times"
    rm -rf "$scratch/build"
    /usr/bin/time -f "%U %S" -o "$times" swift build --build-tests --package-path "$package" \
        --scratch-path "$scratch/build" >"$scratch/log" 2>&1 || { cat "$scratch/log"; exit 1; }
    awk '{ printf "%.1f", $1 + $2 }' "$times"
}

for round in $(seq "$rounds"); do
    baseline=$(clean_build_cpu "$root/Benchmarks/BuildCost")
    project=$(clean_build_cpu "$root")
    awk -v b="$baseline" -v p="$project" -v r="$round" 'BEGIN {
        own = p - b
        printf "round %d: ModelKit %.1f CPU-s, dependencies alone %.1f CPU-s, own code %.1f CPU-s = %.0f%% of the build\n", r, p, b, own, 100 * own / p
    }'
done
