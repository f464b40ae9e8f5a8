#if PostgreSQL
    import ModelKitCore
    import PostgresNIO

    /// A connection leased from the pool for as long as a transaction needs it, used where the
    /// transaction was called.
    ///
    /// PostgresNIO lends a connection only to a closure (`withConnection`), and Swift 6.3 runs a
    /// closure formed in a function that runs on its caller's actor away from that actor when a
    /// module without that default (PostgresNIO) calls it. A transaction's body maps rows into
    /// the caller's context, which must stay on the caller's actor: so a task of its own holds
    /// the lease and hands the connection (`Sendable`) out, and the body runs in the caller's
    /// domain; ``release()`` ends the lease.
    ///
    /// Waiting for a connection is bounded by the store's `connectionTimeout`: PostgresNIO's pool
    /// waits for as long as the server is unreachable and ignores cancellation, so the wait runs in
    /// a task of its own and the caller gets an error when the time is up (a connection that comes
    /// later goes straight back to the pool).
    final class PostgresLease: Sendable {
        let connection: PostgresConnection
        private let done: Locked<CheckedContinuation<Void, Never>?>

        private init(connection: PostgresConnection, done: CheckedContinuation<Void, Never>) {
            self.connection = connection
            self.done = Locked(done)
        }

        /// Leases a connection from `client`, waiting for one to be free for at most `limit`.
        static func take(from client: PostgresClient, within limit: Duration) async throws -> PostgresLease {
            let answer = OnceAnswer<PostgresLease>()
            // The timer ends with the call: every query takes a lease, and a timer left sleeping
            // for the whole `limit` after each would pile up under load.
            let timer = Locked<Task<Void, Never>?>(nil)
            defer { timer.withLock { $0?.cancel() } }
            return try await withCheckedThrowingContinuation { (leased: CheckedContinuation<PostgresLease, any Error>) in
                answer.start(leased) { $0.release() }
                Task.detached {
                    do {
                        // The closure never throws, and nothing throws after it returns: once
                        // it has handed the lease out, `catch` cannot run.
                        try await client.withConnection { connection in
                            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                                answer.give(.success(PostgresLease(connection: connection, done: done)))
                            }
                        }
                    } catch {
                        answer.give(.failure(error))
                    }
                }
                timer.withLock {
                    $0 = Task.detached {
                        guard (try? await Task.sleep(for: limit)) != nil else { return }
                        answer.give(.failure(PostgresUnreachable(limit: limit)))
                    }
                }
            }
        }

        /// Gives the connection back to the pool; later calls do nothing.
        func release() {
            done.withLock { done in
                done?.resume()
                done = nil
            }
        }

        deinit {
            release()
        }
    }

    /// No connection within the store's `connectionTimeout`.
    struct PostgresUnreachable: Error {
        let limit: Duration
    }

    /// The first of several answers to one continuation; what comes after it is handed to `late`.
    final class OnceAnswer<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value, any Error>?
            var late: (@Sendable (Value) -> Void)?
        }

        private let state = Locked(State())

        func start(_ continuation: CheckedContinuation<Value, any Error>, late: @escaping @Sendable (Value) -> Void) {
            state.withLock { state in
                state.continuation = continuation
                state.late = late
            }
        }

        func give(_ result: Result<Value, any Error>) {
            let (continuation, late) = state.withLock { state in
                defer { state.continuation = nil }
                return (state.continuation, state.late)
            }
            if let continuation {
                continuation.resume(with: result)
            } else if case .success(let value) = result {
                late?(value)
            }
        }
    }
#endif
