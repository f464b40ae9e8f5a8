import Foundation

/// When a ``RemoteClient`` sends a request again, and how long it waits first.
///
/// Only idempotent requests are retried (`GET`, `PUT`, `DELETE`: sending one twice leaves the
/// server as sending it once does; `POST` and `PATCH` are never retried), and only after a failure
/// that says nothing was done: no connection, a connection dropped before the response (a
/// ``RemoteError/Kind/transport`` error), or a status in ``retriedStatuses`` (`429 Too Many
/// Requests` and `503 Service Unavailable` by default). A timeout is not retried: the client's
/// `timeout` bounds each attempt, and a server that did not answer in time may still be working.
///
/// The waits grow exponentially with jitter (half the step, plus a random part of the other
/// half, so that clients that failed together do not come back together), unless the response
/// says how long to wait in `Retry-After` (seconds or an HTTP date): then the client waits that
/// long, or fails at once with the status when the server asks for more than ``maxRetryAfter``.
///
/// ```swift
/// var client = RemoteClient(baseURL: URL(string: "https://api.example.com")!)
/// client.retryPolicy = RemoteRetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(200))
/// client.retryPolicy = .never   // one attempt per request
/// ```
public struct RemoteRetryPolicy: Hashable, Sendable {
    /// How many times a request is sent at most, the first time included (1: never retried).
    public var maxAttempts: Int
    /// The step before the first retry; each next retry doubles it.
    public var initialDelay: Duration
    /// The largest step.
    public var maxDelay: Duration
    /// The statuses after which a request is sent again.
    public var retriedStatuses: Set<Int>
    /// The longest `Retry-After` the client waits for.
    public var maxRetryAfter: Duration

    /// A policy; every parameter has the default's value unless given.
    public init(
        maxAttempts: Int = 3, initialDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
        retriedStatuses: Set<Int> = [429, 503], maxRetryAfter: Duration = .seconds(60)
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.retriedStatuses = retriedStatuses
        self.maxRetryAfter = maxRetryAfter
    }

    /// Three attempts, waits from 0.5 s doubling up to 30 s, after 429 and 503, `Retry-After` up to a minute.
    public static let `default` = RemoteRetryPolicy()

    /// One attempt per request.
    public static let never = RemoteRetryPolicy(maxAttempts: 1)

    /// Whether a request sent with `method` may be sent again.
    static func isIdempotent(_ method: RemoteRequest.Method) -> Bool {
        switch method {
        case .get, .put, .delete: true
        case .post, .patch: false
        }
    }

    /// The wait before retry number `retry` (1 for the first), `randomPart` in 0...1 choosing the jitter.
    package func delay(beforeRetry retry: Int, randomPart: Double) -> Duration {
        let doublings = min(max(retry - 1, 0), 30)
        let step = min(initialDelay * (1 << doublings), maxDelay)
        return step / 2 + step / 2 * min(max(randomPart, 0), 1)
    }
}

extension RemoteRetryPolicy {
    /// How long a `Retry-After` field asks to wait (`120`, or `Wed, 21 Oct 2026 07:28:00 GMT`),
    /// measured from `now`; nil when there is none or it does not parse. A date in the past is no wait.
    package static func retryAfter(_ field: String?, now: Date = Date()) -> Duration? {
        guard let value = field?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let date = httpDate(value) else { return nil }
        return .milliseconds(max(0, Int64((date.timeIntervalSince(now) * 1000).rounded(.up))))
    }

    /// An HTTP date in the preferred form (RFC 9110: `Sun, 06 Nov 1994 08:49:37 GMT`).
    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: text)
    }
}
