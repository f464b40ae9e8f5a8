import Foundation

// Runs every comparison whose name starts with one of the arguments (all when there are none).
// `--profile NAME` runs only ModelKit's side of one comparison for 10 seconds, for a profiler.
var arguments = Array(CommandLine.arguments.dropFirst())
// The streaming lines write ~1 GB files, so they run only when named (`json.stream`), and
// before the comparisons load their inputs, so the process's own peak shows what they take.
if arguments.contains(where: { $0.hasPrefix("json.stream") }) {
    do {
        try streamingBenchmarks(arguments)
    } catch {
        print("json.stream: failed: \(error)")
    }
    if arguments.allSatisfy({ $0.hasPrefix("json.stream") }) { exit(0) }
}
// Each group is built only when a requested name falls in it: building prepares the inputs (the
// store group writes 100,000 rows), which would otherwise dominate a profiler's run.
let groups: [(prefixes: [String], make: () throws -> [Comparison])] = [
    (["json.decode.twitter", "json.encode.twitter", "memory.decode.twitter"], twitterComparisons),
    (["json.decode.users", "json.encode.users", "memory.decode.users", "dictionary.decode.users"], usersComparisons),
    (["json.decode.catalogue", "json.encode.catalogue", "memory.decode.catalogue"], catalogueComparisons),
    (["json.decode.nested", "json.encode.nested", "memory.decode.nested"], nestedComparisons),
    (["archive."], archiveComparisons),
    (["store."], storeComparisons),
    (["identity."], { identityComparisons() }),
    (["store."], postgresComparisons),
]
let requested = arguments.filter { !$0.hasPrefix("--") && Int($0) == nil }
var comparisons: [Comparison] = []
for group in groups
where requested.isEmpty || group.prefixes.contains(where: { prefix in requested.contains { $0.hasPrefix(prefix) || prefix.hasPrefix($0) } }) {
    comparisons += try group.make()
}
if arguments.first == "--profile", arguments.count == 2, let comparison = comparisons.first(where: { $0.name == arguments[1] }) {
    let end = Date().addingTimeInterval(10)
    var runs = 0
    while Date() < end {
        try comparison.modelKit()
        runs += 1
    }
    print("\(comparison.name): \(runs) runs")
    exit(0)
}
// `--runs NAME N` runs ModelKit's side of one comparison N times (after one warm-up run), for
// instruction counts under `valgrind --tool=callgrind`, which do not move with the host's speed.
if arguments.first == "--runs", arguments.count == 3, let count = Int(arguments[2]),
    let comparison = comparisons.first(where: { $0.name == arguments[1] })
{
    try comparison.modelKit()
    for _ in 0..<count { try comparison.modelKit() }
    print("\(comparison.name): \(count) runs")
    exit(0)
}
let stopwatch = Stopwatch()
print("ModelKit benchmarks, \(ProcessInfo.processInfo.activeProcessorCount) cores, median of \(stopwatch.rounds) rounds")
for comparison in comparisons where arguments.isEmpty || arguments.contains(where: comparison.name.hasPrefix) {
    do {
        try comparison.run(with: stopwatch)
    } catch {
        print("\(comparison.name): failed: \(error)")
    }
}
