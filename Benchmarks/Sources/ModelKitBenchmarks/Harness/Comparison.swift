import Foundation

/// One side-by-side measurement: ModelKit and a baseline doing the same work on the same input.
struct Comparison {
    /// The benchmark's name, e.g. `json.decode.twitter`.
    let name: String
    /// The baseline's name, e.g. `JSONDecoder`.
    let baselineName: String
    /// What one run processes, to turn time into a rate.
    let unit: RateUnit
    /// One run of ModelKit's side.
    let modelKit: () throws -> Void
    /// One run of the baseline's side.
    let baseline: () throws -> Void
    /// Extra facts printed after the line (output sizes, counts), computed once.
    var notes: () throws -> String? = { nil }
    /// One round of the baseline timed by the baseline itself, in seconds per run, for a baseline
    /// in another process (serde_json's anchor); `baseline` then runs once, before the rounds.
    var baselineRound: (() throws -> Double)? = nil
}

/// How a run's work is counted.
enum RateUnit {
    /// Bytes per run, reported in MB/s (10^6 bytes).
    case bytes(Int)
    /// Operations per run, reported as nanoseconds per operation.
    case operations(Int, label: String)
    /// Not time: the peak resident memory one run of a side adds, in bytes, as `measure` finds
    /// it (true: ModelKit's side); the ratio is the baseline's peak over ModelKit's.
    case peakMemory(measure: (_ modelKitSide: Bool) throws -> Int)
}

/// Times closures: several rounds, each long enough to measure, alternating the two sides so
/// that both see the same machine (a busy neighbour slows both, not one).
struct Stopwatch {
    var rounds = 7
    var minimumRoundSeconds = 0.2

    /// Seconds per run of one round of `body`.
    func round(_ body: () throws -> Void) throws -> Double {
        var runs = 0
        let start = DispatchTime.now().uptimeNanoseconds
        var elapsed: UInt64 = 0
        repeat {
            try body()
            runs += 1
            elapsed = DispatchTime.now().uptimeNanoseconds - start
        } while Double(elapsed) / 1e9 < minimumRoundSeconds
        return Double(elapsed) / 1e9 / Double(runs)
    }

    /// Seconds per run of each side (medians over rounds) and the median of the per-round ratios.
    /// `theirRound`, when given, times one round of their side in place of `round(theirs)`.
    func compare(
        _ ours: () throws -> Void, _ theirs: () throws -> Void, theirRound: (() throws -> Double)? = nil
    ) throws -> (ours: Double, theirs: Double, ratio: Double) {
        try ours()  // warm up: caches, lazy schemas, page faults
        try theirs()
        var mine: [Double] = []
        var base: [Double] = []
        var ratios: [Double] = []
        for _ in 0..<rounds {
            let a = try round(ours)
            let b = try theirRound?() ?? round(theirs)
            mine.append(a)
            base.append(b)
            ratios.append(b / a)
        }
        return (median(mine), median(base), median(ratios))
    }

    private func median(_ values: [Double]) -> Double {
        values.sorted()[values.count / 2]
    }
}

extension Comparison {
    /// Runs both sides, alternating, and prints the comparison line.
    func run(with stopwatch: Stopwatch) throws {
        if case .peakMemory(let measure) = unit { return try runMeasuringMemory(measure) }
        let (ours, theirs, ratio) = try stopwatch.compare(modelKit, baseline, theirRound: baselineRound)
        switch unit {
        case .bytes(let bytes):
            let mine = Double(bytes) / ours / 1e6
            let base = Double(bytes) / theirs / 1e6
            print(
                "\(name): modelkit \(format(mine)) MB/s, \(baselineName) \(format(base)) MB/s, ratio \(format(ratio))x")
        case .peakMemory:
            break
        case .operations(let count, let label):
            let mine = ours / Double(count) * 1e9
            let base = theirs / Double(count) * 1e9
            print(
                "\(name): modelkit \(format(mine)) ns/\(label), \(baselineName) \(format(base)) ns/\(label), ratio \(format(ratio))x"
            )
        }
        if let notes = try notes() { print("  \(notes)") }
    }
}

extension Comparison {
    /// Measures each side three times, alternating, and prints the medians.
    private func runMeasuringMemory(_ measure: (Bool) throws -> Int) throws {
        var mine: [Int] = []
        var base: [Int] = []
        for _ in 0..<3 {
            mine.append(try measure(true))
            base.append(try measure(false))
        }
        let ours = mine.sorted()[1]
        let theirs = base.sorted()[1]
        print(
            "\(name): modelkit \(megabytes(ours)), \(baselineName) \(megabytes(theirs)), ratio \(format(Double(theirs) / Double(max(ours, 1))))x")
        if let notes = try notes() { print("  \(notes)") }
    }
}

func format(_ value: Double) -> String {
    String(format: value >= 100 ? "%.0f" : value >= 10 ? "%.1f" : "%.2f", value)
}

/// Runs asynchronous work to its end from the benchmarks' synchronous harness (which runs on the
/// main thread, outside the task pool, so waiting here blocks no task). One call per run of a
/// side, around its whole loop, so the hop costs nothing measurable.
func waitFor<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    Task {
        do {
            outcome.finish(.success(try await body()))
        } catch {
            outcome.finish(.failure(error))
        }
    }
    return try outcome.wait()
}

/// The result of work on another thread, handed over once.
private final class Outcome<T: Sendable>: @unchecked Sendable {
    // @unchecked: `result` is written once before `done` is signalled and read after waiting.
    private var result: Result<T, any Error>?
    private let done = DispatchSemaphore(value: 0)

    func finish(_ result: Result<T, any Error>) {
        self.result = result
        done.signal()
    }

    func wait() throws -> T {
        done.wait()
        guard let result else { throw BenchmarkError("the asynchronous work ended without a result") }
        return try result.get()
    }
}
