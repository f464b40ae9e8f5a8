#!/usr/bin/env bash
# Builds ModelKit's libFuzzer harnesses and runs one over its corpus.
#
#     Fuzz/run.sh HARNESS [SECONDS | -runs=N] [extra libFuzzer flags...]
#     Fuzz/run.sh build      (build every harness, run none)
#     Fuzz/run.sh list
#
# HARNESS is one of the executables of Fuzz/Package.swift (fuzz-json-value, ...). The corpus is
# Fuzz/.build-fuzz/corpus/HARNESS, seeded from the project's fixtures on first use; crashes go
# to Fuzz/.build-fuzz/artifacts/HARNESS/. Set FUZZ_SKIP_BUILD=1 to reuse the last build,
# FUZZ_OPTIMIZE=1 to compile ModelKit and the harnesses with -O (a separate build, several
# times more executions per second; the macro plugin stays a debug build).
set -euo pipefail

fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$fuzz_dir")
scratch="$fuzz_dir/.build-fuzz"
harnesses=(fuzz-json-model fuzz-json-value fuzz-plist-binary fuzz-plist-xml fuzz-archive-models fuzz-archive-dump fuzz-preferences)

usage() {
    echo "usage: $0 HARNESS [SECONDS | -runs=N] [libFuzzer flags...] | build | list" >&2
    echo "harnesses: ${harnesses[*]}" >&2
    exit 2
}

[[ $# -ge 1 ]] || usage
name=$1
shift
if [[ $name == list ]]; then printf '%s\n' "${harnesses[@]}"; exit 0; fi
[[ $name == build || " ${harnesses[*]} " == *" $name "* ]] || usage

budget=(-max_total_time=60)
if [[ $# -ge 1 ]]; then
    case $1 in
        -runs=*) budget=("$1") ;;
        ''|*[!0-9]*) usage ;;
        *) budget=(-max_total_time="$1") ;;
    esac
    shift
fi

# The fuzz package depends on the root package through this link: SwiftPM names a path
# dependency after its folder, and the root's folder may be called `fuzz` like this package's.
mkdir -p "$scratch"
ln -sfn ../.. "$scratch/modelkit"

build="$scratch"
toolset="$fuzz_dir/toolset.json"
if [[ ${FUZZ_OPTIMIZE:-0} == 1 ]]; then
    build="$scratch/optimized"
    toolset="$fuzz_dir/toolset-optimized.json"
fi

if [[ ${FUZZ_SKIP_BUILD:-0} != 1 ]]; then
    # toolset.json adds -sanitize=fuzzer,address to every target compiled for the destination,
    # so ModelKit's readers are instrumented for coverage and checked by AddressSanitizer, not
    # just the harnesses. Not -Xswiftc: SwiftPM passes that to the host build of the @Model
    # macro plugin and swift-syntax too, which would link the plugin with libFuzzer's main.
    # Always the debug configuration: a release build of swift-syntax for the plugin takes
    # minutes longer here; toolset-optimized.json adds -O for the fuzzed code only.
    swift build --package-path "$fuzz_dir" --scratch-path "$build" --toolset "$toolset" >&2
fi
[[ $name != build ]] || exit 0
binary="$build/debug/$name"
[[ -x $binary ]] || { echo "no binary at $binary" >&2; exit 1; }

# Seeds: the project's fixtures, copied once into the writable corpus (flat names).
corpus="$scratch/corpus/$name"
seeds=()
case $name in
    fuzz-json-model|fuzz-json-value|fuzz-preferences)
        seeds=("$root/Tests/ModelKitJSONTests/Fixtures/JSONTestSuite" "$root/Tests/ModelKitTestSupport/Fixtures/twitter.json") ;;
    fuzz-plist-binary|fuzz-plist-xml|fuzz-archive-models|fuzz-archive-dump)
        seeds=("$root/Tests/ModelKitTestSupport/Fixtures/archives") ;;
esac
if [[ ! -d $corpus ]] || [[ -z $(ls -A "$corpus") ]]; then
    mkdir -p "$corpus"
    for seed in "${seeds[@]}"; do
        [[ -e $seed ]] || continue
        while IFS= read -r -d '' file; do
            relative=${file#"$root"/Tests/}
            cp "$file" "$corpus/seed-${relative//\//_}"
        done < <(find "$seed" -type f ! -name '*.md' -print0)
    done
fi
# Inputs that once crashed a harness are in its corpus on every run, also one seeded before
# they were added.
if [[ -d $fuzz_dir/Regressions/$name ]]; then cp "$fuzz_dir/Regressions/$name"/* "$corpus"/ 2>/dev/null || true; fi

# JSON harnesses: twitter.json (617 KB) takes more than the 1 s timeout in a debug ASan build
# of fuzz-json-model, and long inputs slow the others tenfold; inputs, seeds included, are cut to
# 64 KB (a later -max_len overrides). Large inputs are covered by the unit tests' limit and
# complexity tests.
defaults=()
case $name in fuzz-json-model|fuzz-json-value|fuzz-preferences) defaults=(-max_len=65536) ;; esac

artifacts="$scratch/artifacts/$name"
mkdir -p "$artifacts"
log="$scratch/logs/$name.log"
mkdir -p "$(dirname "$log")"

set +e
"$binary" "$corpus" "${budget[@]}" -timeout=1 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" ${defaults[@]+"${defaults[@]}"} "$@" >"$log" 2>&1
status=$?
set -e

# libFuzzer's last status line (#N DONE cov: ft: ... exec/s:) and its final stats.
grep -E '^#[0-9]+[[:space:]]+(DONE|INITED)' "$log" | tail -1 || true
grep -E '^(Done [0-9]+ runs|stat::)' "$log" || true
if [[ $status -ne 0 ]]; then
    echo "$name: libFuzzer exited with $status; see $log and $artifacts" >&2
    grep -E 'ERROR: |==ERROR|Fatal error|SUMMARY' "$log" | head -5 >&2 || true
fi
exit $status
