#!/usr/bin/env bash
# What one declaration costs the compiler in a debug build (Linux): N `@Model` structs against N
# plain structs with the same properties that are Codable and Hashable by the compiler's own
# synthesis, and N Swift Testing `@Test` functions against N plain functions with the same body.
# Each set is compiled alone as one module, in one frontend job (-wmo, -Onone, -g, as `swift
# build` compiles a target but without batching), ROUNDS times alternating; the figure is the
# fewest CPU-seconds of the rounds (user + sys, the macro plugins included), less an empty
# module's, divided by N.
#
#     bash Benchmarks/compile-cost.sh [N] [ROUNDS]
#
# `@Model`'s expansion is what every user of ModelKit compiles once per model: the ratio to the
# compiler-synthesised conformances is the figure to watch when the expansion changes. The
# `@Test` line says what a test function costs before its body does.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
count="${1:-60}"
rounds="${2:-3}"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

swift build --package-path "$root" --target ModelKit >"$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; exit 1; }
bin="$(swift build --package-path "$root" --show-bin-path)"

# The sources: one folder per set, one file of `count` declarations each, every file with the
# same imports, so that the empty module's figure is what every set costs before its declarations.
generate() {
    local name="$1" template="$2"
    mkdir -p "$scratch/$name"
    {
        printf 'import ModelKit\nimport Testing\n'
        for ((i = 0; i < count; i++)); do printf "${template//@N@/$i}\n"; done
    } >"$scratch/$name/Declarations.swift"
}
properties='    var id: Int\n    var name: String\n    var score: Double = 0\n    var tags: [String] = []\n    var note: String?'
body='    let values = [1, 2, @N@]\n    if values.count != 3 { throw CancellationError() }'
generate empty ''
generate model "@Model struct Model@N@ {\n    @Identifier ${properties#    }\n}"
generate codable "struct Model@N@: Codable, Hashable, Sendable {\n$properties\n}"
generate test "@Test func test@N@() throws {\n$body\n}"
generate function "func test@N@() throws {\n$body\n}"

# CPU-seconds of one compile of the folder $1.
compile_cpu() {
    local folder="$scratch/$1" out="$scratch/out"
    rm -rf "$out" && mkdir -p "$out"
    (cd "$out" && /usr/bin/time -f "%U %S" -o "$out/time" swiftc -module-name Declarations -parse-as-library \
        -emit-module -emit-module-path "$out/Declarations.swiftmodule" -c "$folder/Declarations.swift" -wmo \
        -Onone -g -enable-testing -swift-version 6 -package-name compilecost -I "$bin/Modules" \
        -module-cache-path "$bin/ModuleCache" -Xcc -fmodule-map-file="$bin/CModelKitRuntime.build/module.modulemap" \
        -Xcc -I -Xcc "$root/Sources/CModelKitRuntime/include" \
        -Xfrontend -load-plugin-executable -Xfrontend "$bin/ModelKitMacros-tool#ModelKitMacros" \
        >"$out/log" 2>&1) || { cat "$out/log" >&2; exit 1; }
    awk '{ printf "%.3f", $1 + $2 }' "$out/time"
}

sets=(empty model codable test function)
declare -A best
for ((round = 1; round <= rounds; round++)); do
    for set in "${sets[@]}"; do
        cpu=$(compile_cpu "$set")
        best[$set]=$(awk -v a="$cpu" -v b="${best[$set]:-1e9}" 'BEGIN { print (a < b) ? a : b }')
    done
done

awk -v n="$count" -v e="${best[empty]}" -v m="${best[model]}" -v c="${best[codable]}" \
    -v t="${best[test]}" -v f="${best[function]}" 'BEGIN {
    printf "empty module: %.2f CPU-s (fewest of %d rounds, %d declarations per set)\n", e, '"$rounds"', n
    pm = 1000 * (m - e) / n; pc = 1000 * (c - e) / n; pt = 1000 * (t - e) / n; pf = 1000 * (f - e) / n
    printf "@Model struct: %.1f ms each, Codable+Hashable struct: %.1f ms each, ratio %.2fx\n", pm, pc, pm / pc
    printf "@Test function: %.1f ms each, plain function: %.1f ms each, @Test adds %.1f ms\n", pt, pf, pt - pf
}'
