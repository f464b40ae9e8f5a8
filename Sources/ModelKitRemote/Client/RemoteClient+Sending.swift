import Foundation
import ModelKitCore

extension RemoteClient {
    /// Sends `request` until it has an answer: authorized before each attempt, each attempt
    /// within the timeout, sent again as the retry policy allows and once more after a 401 the
    /// authorizer refreshes. A final status outside 2xx (and `accepted`) is an error.
    func send(_ request: RemoteRequest, accepting accepted: Set<Int> = []) async throws -> RemoteResponse {
        try await exchange(request, accepting: accepted) { try await sendOnce($0) }
    }

    /// Sends `request` until it has an answer, each attempt made by `attempt` (a buffered or a
    /// streamed response): the loop ``send(_:accepting:)`` describes.
    func exchange<Answer: RemoteAnswer>(
        _ request: RemoteRequest, accepting accepted: Set<Int> = [], attempt: (RemoteRequest) async throws -> Answer
    ) async throws -> Answer {
        var attempts = 1
        var refreshed = false
        while true {
            let authorized = try await authorize(request)
            do {
                let answer = try await attempt(authorized)
                if answer.status == 401, !refreshed, let authorizer {
                    refreshed = true
                    if try await refresh(with: authorizer, after: answer.collected(for: authorized), to: authorized) {
                        attempts += 1
                        continue
                    }
                }
                if (200..<300).contains(answer.status) || accepted.contains(answer.status) { return answer }
                guard let wait = retryWait(after: answer, of: request, attempts: attempts) else {
                    throw RemoteError.status(request, try await answer.collected(for: authorized)).after(attempts)
                }
                try await pause(wait, request)
            } catch let error as RemoteError where error.kind == .transport && retries(request, after: attempts) {
                try await pause(retryPolicy.delay(beforeRetry: attempts, randomPart: .random(in: 0...1)), request)
            } catch let error as RemoteError {
                throw error.after(attempts)
            }
            attempts += 1
        }
    }

    /// One attempt: the transport's answer within the timeout, whatever its status.
    private func sendOnce(_ request: RemoteRequest) async throws -> RemoteResponse {
        let response: RemoteResponse
        do {
            try Task.checkCancellation()
            response = try await withThrowingTaskGroup(of: RemoteResponse.self) { group in
                group.addTask { try await transport.send(request) }
                group.addTask { [timeout] in
                    try await Task.sleep(for: timeout)
                    throw RemoteTimeout()
                }
                defer { group.cancelAll() }
                guard let first = try await group.next() else { throw CancellationError() }
                return first
            }
        } catch {
            throw RemoteError.sending(error, request, cancelled: Task.isCancelled)
        }
        if let limit = request.maxResponseSize, response.body.count > limit {
            throw RemoteError.tooLarge(request, status: response.status, announced: nil)
        }
        return response
    }

    /// Whether the policy sends `request` again after `attempts` attempts.
    private func retries(_ request: RemoteRequest, after attempts: Int) -> Bool {
        attempts < retryPolicy.maxAttempts && RemoteRetryPolicy.isIdempotent(request.method)
    }

    /// How long to wait before sending `request` again after `response`, or nil not to.
    private func retryWait(after response: some RemoteAnswer, of request: RemoteRequest, attempts: Int) -> Duration? {
        guard retryPolicy.retriedStatuses.contains(response.status), retries(request, after: attempts) else { return nil }
        if let asked = RemoteRetryPolicy.retryAfter(response.header("Retry-After")) {
            return asked <= retryPolicy.maxRetryAfter ? asked : nil
        }
        return retryPolicy.delay(beforeRetry: attempts, randomPart: .random(in: 0...1))
    }

    /// Waits before a retry; cancelling the calling task ends the wait with a cancellation error.
    private func pause(_ wait: Duration, _ request: RemoteRequest) async throws {
        do {
            try await Task.sleep(for: wait)
        } catch {
            throw RemoteError.sending(error, request, cancelled: true)
        }
    }

    /// `request` with the authorizer's credentials, when the client has one.
    private func authorize(_ request: RemoteRequest) async throws -> RemoteRequest {
        guard let authorizer else { return request }
        var authorized = request
        do {
            try await authorizer.authorize(&authorized)
        } catch {
            throw RemoteError.authorization(error, request, step: "authorize")
        }
        return authorized
    }

    /// Whether the authorizer renewed its credentials after a 401.
    private func refresh(
        with authorizer: any RemoteAuthorizer, after response: RemoteResponse, to request: RemoteRequest
    ) async throws -> Bool {
        do {
            return try await authorizer.refresh(after: response, to: request)
        } catch {
            throw RemoteError.authorization(error, request, step: "refresh the credentials of")
        }
    }
}

/// A response as one attempt returns it: buffered (``RemoteResponse``) or streamed
/// (``RemoteStreamedResponse``).
protocol RemoteAnswer {
    var status: Int { get }
    func header(_ name: String) -> String?
    /// The response with its whole body, for an error's text or an authorizer.
    func collected(for request: RemoteRequest) async throws -> RemoteResponse
}

extension RemoteResponse: RemoteAnswer {
    func collected(for request: RemoteRequest) async throws -> RemoteResponse { self }
}

extension RemoteStreamedResponse: RemoteAnswer {
    func collected(for request: RemoteRequest) async throws -> RemoteResponse {
        try await body.collected(status: status, headers: headers, request: request)
    }
}
