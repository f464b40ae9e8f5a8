import Foundation
import ModelKitCore

extension RemoteClient {
    /// Sends `request` until it has an answer: authorized before each attempt, each attempt
    /// within the timeout, sent again as the retry policy allows and once more after a 401 the
    /// authorizer refreshes. A final status outside 2xx (and `accepted`) is an error.
    func send(_ request: RemoteRequest, accepting accepted: Set<Int> = []) async throws -> RemoteResponse {
        var attempts = 1
        var refreshed = false
        while true {
            let authorized = try await authorize(request)
            do {
                let response = try await sendOnce(authorized)
                if response.status == 401, !refreshed, let authorizer {
                    refreshed = true
                    if try await refresh(with: authorizer, after: response, to: authorized) {
                        attempts += 1
                        continue
                    }
                }
                if response.isSuccess || accepted.contains(response.status) { return response }
                guard let wait = retryWait(after: response, of: request, attempts: attempts) else {
                    throw RemoteError.status(request, response).after(attempts)
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
    private func retryWait(after response: RemoteResponse, of request: RemoteRequest, attempts: Int) -> Duration? {
        guard retryPolicy.retriedStatuses.contains(response.status), retries(request, after: attempts) else { return nil }
        if let asked = RemoteRetryPolicy.retryAfter(response) {
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
