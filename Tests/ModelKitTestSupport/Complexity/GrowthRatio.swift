import Foundation

/// How the time of `work` grows from an input of scale 1 to one of scale 10.
///
/// Both inputs are made first; then the small one is worked on `rounds` times and the large
/// one `largeRounds` times, interleaved, and the best times are compared (one large round is
/// enough: it is long, so it measures steadily; the short small rounds are the noisy ones). Time is the CPU time
/// of the calling thread, not the wall clock, so other processes and tests running at the same
/// time do not count. Work that grows linearly gives a ratio near 10, quadratic work near 100:
/// the complexity tests require under 20.
///
/// A stall of the machine (a paused virtual CPU, memory reclaim) can still land in one
/// measurement and only ever adds time. So while the ratio is at `recheckAbove` or over, both
/// sizes are measured again, up to `extraRounds` times, keeping the best times: a noisy
/// linear measurement comes back under the bound, quadratic work stays near 100 however often
/// it is measured.
///
/// ```swift
/// let ratio = try growthRatio(make: { scale in objectWithKeys(10_000 * scale) }) { bytes in
///     _ = try JSONValue(parsing: bytes)
/// }
/// #expect(ratio.ratio < 20)
/// ```
public func growthRatio<Input>(
    rounds: Int = 3, largeRounds: Int = 1, recheckAbove: Double = 20, extraRounds: Int = 3,
    make: (_ scale: Int) throws -> Input, work: (Input) throws -> Void
) rethrows -> GrowthRatio {
    let small = try make(1)
    let large = try make(10)
    func measure(_ input: Input) throws -> Duration {
        let start = threadCPUTime()
        try work(input)
        return threadCPUTime() - start
    }
    var bestSmall = Duration.seconds(Int64.max)
    var bestLarge = Duration.seconds(Int64.max)
    for round in 0..<max(rounds, largeRounds, 1) {
        if round < rounds { bestSmall = min(bestSmall, try measure(small)) }
        if round < largeRounds { bestLarge = min(bestLarge, try measure(large)) }
    }
    var growth = GrowthRatio(small: bestSmall, large: bestLarge)
    for _ in 0..<extraRounds where growth.ratio >= recheckAbove {
        bestLarge = min(bestLarge, try measure(large))
        bestSmall = min(bestSmall, try measure(small))
        growth = GrowthRatio(small: bestSmall, large: bestLarge)
    }
    return growth
}

/// The CPU time the calling thread has used.
func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
}

/// The best times at scale 1 and 10, and their ratio.
public struct GrowthRatio: CustomStringConvertible, Sendable {
    public let small: Duration
    public let large: Duration

    /// The large time over the small one (1 when the small one took no measurable time).
    public var ratio: Double {
        let smallSeconds = small / .seconds(1)
        return smallSeconds > 0 ? (large / .seconds(1)) / smallSeconds : 1
    }

    public var description: String {
        let milliseconds = { (duration: Duration) in String(format: "%.2f ms", duration / .milliseconds(1)) }
        return "1x \(milliseconds(small)), 10x \(milliseconds(large)), ratio \(String(format: "%.1f", ratio))"
    }
}
