import Foundation

/// How the time of `work` grows from an input of scale 1 to one of scale 10.
///
/// Both inputs are made first; the small one is then worked on `rounds` times, the large one
/// `largeRounds` times, and the best times are compared, so a pause of the machine in one
/// round does not count. Work that grows linearly
/// gives a ratio near 10, quadratic work near 100: the complexity tests require under 20.
///
/// ```swift
/// let ratio = try growthRatio(make: { scale in objectWithKeys(10_000 * scale) }) { bytes in
///     _ = try JSONValue(parsing: bytes)
/// }
/// #expect(ratio < 20)
/// ```
public func growthRatio<Input>(
    rounds: Int = 3, largeRounds: Int = 2, make: (_ scale: Int) throws -> Input, work: (Input) throws -> Void
) rethrows -> GrowthRatio {
    let small = try make(1)
    let large = try make(10)
    let clock = ContinuousClock()
    func best(_ input: Input, rounds: Int) throws -> Duration {
        var best = Duration.seconds(Int64.max)
        for _ in 0..<max(rounds, 1) {
            let elapsed = try clock.measure { try work(input) }
            best = min(best, elapsed)
        }
        return best
    }
    let smallTime = try best(small, rounds: rounds)
    let largeTime = try best(large, rounds: largeRounds)
    return GrowthRatio(small: smallTime, large: largeTime)
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
