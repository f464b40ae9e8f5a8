import Foundation

// Runs every comparison whose name starts with one of the arguments (all when there are none).
// `--profile NAME` runs only ModelKit's side of one comparison for 10 seconds, for a profiler.
var arguments = Array(CommandLine.arguments.dropFirst())
// The memory lines run each decode in a child process of this executable (MemoryBenchmarks.swift).
if arguments.first == "--memory-child" {
    try runMemoryChild(Array(arguments.dropFirst()))
    exit(0)
}
/// Runs the lines named by `prefix`, which run only when named and before the comparisons load
/// their inputs (so the process's own peak shows what they take); exits when nothing else was asked.
@MainActor func runWhenNamed(_ prefix: String, _ body: ([String]) throws -> Void) {
    guard arguments.contains(where: { $0.hasPrefix(prefix) }) else { return }
    do {
        try body(arguments)
    } catch {
        print("\(prefix): failed: \(error)")
    }
    if arguments.allSatisfy({ $0.hasPrefix(prefix) }) { exit(0) }
}
// The streaming lines write ~1 GB files.
runWhenNamed("json.stream") { arguments in
    try streamingBenchmarks(arguments)
    try productStreamBenchmarks(arguments)
}
// A million rows through a cursor.
runWhenNamed("store.cursor", cursorBenchmark)
// Hummingbird routes under load on loopback, with the package's `Hummingbird` trait: two servers
// in this process and a load generator's threads.
runWhenNamed("server.", serverBenchmarks)
// Each group is built only when a requested name falls in it: building prepares the inputs (the
// store group writes 100,000 rows), which would otherwise dominate a profiler's run.
let groups: [(prefixes: [String], make: () throws -> [Comparison])] = [
    (["json.decode.twitter", "json.encode.twitter", "memory.decode.twitter"], twitterComparisons),
    (["json.decode.users", "json.encode.users", "memory.decode.users"], usersComparisons),
    (["dictionary.decode.users"], usersDictionaryComparisons),
    (["json.decode.catalogue", "json.encode.catalogue", "memory.decode.catalogue"], catalogueComparisons),
    (["json.decode.nested", "json.encode.nested", "memory.decode.nested"], nestedComparisons),
    (["json.decode.feed", "json.encode.feed"], feedComparisons),
    // serde_json's lines, one group per corpus (all of them for `json.serde`).
    (["json.serde.floats"], { try serdeComparisons("floats") }),
    (["json.serde.integers"], { try serdeComparisons("integers") }),
    (["json.serde.dictionaries"], { try serdeComparisons("dictionaries") }),
    (["json.serde.strings"], { try serdeComparisons("strings") }),
    (["json.serde.citm"], { try serdeComparisons("citm") }),
    (["archive."], archiveComparisons),
    (["store."], storeComparisons),
    (["identity."], { identityComparisons() }),
    (["store."], postgresComparisons),
]
let requested = arguments.filter { !$0.hasPrefix("--") && Int($0) == nil }
let requestedGroups = groups.filter { group in
    requested.isEmpty || group.prefixes.contains { prefix in requested.contains { $0.hasPrefix(prefix) || prefix.hasPrefix($0) } }
}

/// The comparison named `name`, from the one group that holds it.
@MainActor func comparison(named name: String) throws -> Comparison? {
    for group in requestedGroups where group.prefixes.contains(where: name.hasPrefix) {
        if let comparison = try group.make().first(where: { $0.name == name }) { return comparison }
    }
    return nil
}

if arguments.first == "--profile", arguments.count == 2, let comparison = try comparison(named: arguments[1]) {
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
    let comparison = try comparison(named: arguments[1])
{
    try comparison.modelKit()
    for _ in 0..<count { try comparison.modelKit() }
    print("\(comparison.name): \(count) runs")
    exit(0)
}
let stopwatch = Stopwatch()
print("ModelKit benchmarks, \(ProcessInfo.processInfo.activeProcessorCount) cores, median of \(stopwatch.rounds) rounds")
// One group at a time: its inputs are made right before its lines run and released after them,
// so that no line runs beside another group's. With the users group's inputs alive (11 MB of
// JSON, its models and its JSONSerialization objects), glibc's malloc served
// json.decode.nested's small arrays at half the speed (the same binary read 125 MB/s against
// 234 MB/s alone, JSONDecoder 18.6 against 20.4; with jemalloc, 245 MB/s either way).
for group in requestedGroups {
    let comparisons: [Comparison]
    do {
        comparisons = try group.make()
    } catch {
        print("\(group.prefixes[0]): failed to prepare: \(error)")
        continue
    }
    for comparison in comparisons where arguments.isEmpty || arguments.contains(where: comparison.name.hasPrefix) {
        do {
            try comparison.run(with: stopwatch)
        } catch {
            print("\(comparison.name): failed: \(error)")
        }
    }
}
