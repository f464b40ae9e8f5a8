import Foundation

// Runs every comparison whose name starts with one of the arguments (all when there are none).
let filters = CommandLine.arguments.dropFirst()
let comparisons: [Comparison] = try jsonComparisons() + archiveComparisons() + storeComparisons()
let stopwatch = Stopwatch()
print("ModelKit benchmarks, \(ProcessInfo.processInfo.activeProcessorCount) cores, median of \(stopwatch.rounds) rounds")
for comparison in comparisons where filters.isEmpty || filters.contains(where: comparison.name.hasPrefix) {
    do {
        try comparison.run(with: stopwatch)
    } catch {
        print("\(comparison.name): failed: \(error)")
    }
}
