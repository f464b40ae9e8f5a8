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
    /// Waiting for a connection is not cancellable (the pool's own limits apply).
    final class PostgresLease: Sendable {
        let connection: PostgresConnection
        private let done: Locked<CheckedContinuation<Void, Never>?>

        private init(connection: PostgresConnection, done: CheckedContinuation<Void, Never>) {
            self.connection = connection
            self.done = Locked(done)
        }

        /// Leases a connection from `client`, waiting for one to be free.
        static func take(from client: PostgresClient) async throws -> PostgresLease {
            try await withCheckedThrowingContinuation { (leased: CheckedContinuation<PostgresLease, any Error>) in
                Task.detached {
                    do {
                        // The closure never throws, and nothing throws after it returns: once
                        // it has handed the lease out, `catch` cannot run.
                        try await client.withConnection { connection in
                            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                                leased.resume(returning: PostgresLease(connection: connection, done: done))
                            }
                        }
                    } catch {
                        leased.resume(throwing: error)
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
#endif
