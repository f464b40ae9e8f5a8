/// A compiled regular expression shared by every check of a `.pattern` constraint.
///
/// `Regex` is not `Sendable` (it compiles its program lazily, into storage its copies share), and
/// a constraint lives in a static constant every reader uses; so matching takes a lock. Compiling
/// once matters more than the lock: compiling costs far more than an uncontended lock.
final class PatternMatcher: Sendable {
    /// The compiled expression, nil when the pattern does not compile.
    private let regex: Locked<Regex<AnyRegexOutput>>?
    /// Why the pattern does not compile, if it does not.
    let problem: String?

    init(_ pattern: String) {
        do {
            regex = Locked(try Regex(pattern))
            problem = nil
        } catch {
            regex = nil
            problem = String(describing: error)
        }
    }

    /// Whether the expression finds a match in `string`; never for a pattern that does not compile.
    func matches(_ string: String) -> Bool {
        guard let regex else { return false }
        return regex.withLock { (try? $0.firstMatch(in: string)) != nil }
    }
}
