#if PostgreSQL
    import Foundation
    import Logging
    import ModelKitCore
    import ModelKitStore
    import PostgresNIO

    /// Listens, on a pooled connection of its own, for the commits other stores and processes
    /// announce, and posts them to a store's change hub.
    ///
    /// A write transaction sends one `NOTIFY` per table it changed, with a payload of its store's
    /// origin, the schema, the table and the counts: `origin \t schema \t table \t saved \t deleted`.
    /// PostgreSQL delivers it when the transaction commits, and never when it rolls back. A store
    /// posts its own commits itself, at once, so the listener skips its own origin.
    final class PostgresChangeListener: Sendable {
        private enum Phase {
            case idle
            case starting([CheckedContinuation<Void, any Error>])
            case listening
            case stopped
        }

        private let client: PostgresClient
        private let schema: String
        private let origin: String
        private let logger: Logger
        private let phase = Locked<Phase>(.idle)
        private let task = Locked<Task<Void, Never>?>(nil)

        init(client: PostgresClient, schema: String, origin: String, logger: Logger) {
            self.client = client
            self.schema = schema
            self.origin = origin
            self.logger = logger
        }

        /// Starts listening, once; a lost connection is replaced until ``stop()``.
        func start(posting hub: StoreChangeHub) {
            let starts = phase.withLock { phase in
                guard case .idle = phase else { return false }
                phase = .starting([])
                return true
            }
            guard starts else { return }
            let newTask = Task { [weak hub] in
                while !Task.isCancelled, let hub {
                    do {
                        try await listen(posting: hub)
                    } catch {
                        logger.debug("listening for changes failed: \(error)")
                    }
                    // Listening ended (a lost connection): waiters hear of it; try again shortly.
                    resumeWaiters(throwing: StoreError(.database, reason: "cannot listen for changes on the server"))
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
            task.withLock { $0 = newTask }
        }

        private func listen(posting hub: StoreChangeHub) async throws {
            try await client.withConnection { connection in
                try await connection.listen(on: Self.channelName) { notifications in
                    self.markListening()
                    for try await notification in notifications {
                        if let change = self.change(in: notification.payload) { hub.post([change]) }
                    }
                }
            }
        }

        /// Waits until the store listens.
        func ready() async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Result<Void, any Error>? = phase.withLock { phase in
                    switch phase {
                    case .listening: return .success(())
                    case .stopped: return .failure(StoreError(.closed, reason: "it was closed"))
                    case .idle: return .failure(StoreError(.database, reason: "the store is not listening"))
                    case .starting(let waiters):
                        phase = .starting(waiters + [continuation])
                        return nil
                    }
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        }

        func stop() {
            let waiters = phase.withLock { phase -> [CheckedContinuation<Void, any Error>] in
                defer { phase = .stopped }
                if case .starting(let waiters) = phase { return waiters }
                return []
            }
            for waiter in waiters { waiter.resume(throwing: StoreError(.closed, reason: "it was closed")) }
            task.withLock { $0?.cancel() }
        }

        private func markListening() {
            let waiters = phase.withLock { phase -> [CheckedContinuation<Void, any Error>] in
                guard case .starting(let waiters) = phase else { return [] }
                phase = .listening
                return waiters
            }
            for waiter in waiters { waiter.resume() }
        }

        private func resumeWaiters(throwing error: StoreError) {
            let waiters = phase.withLock { phase -> [CheckedContinuation<Void, any Error>] in
                switch phase {
                case .starting(let waiters):
                    phase = .starting([])
                    return waiters
                case .listening:
                    phase = .starting([])
                    return []
                case .idle, .stopped:
                    return []
                }
            }
            for waiter in waiters { waiter.resume(throwing: error) }
        }

        // MARK: Payloads

        static let channelName = PostgresStore.channel

        /// The payload announcing `change`.
        static func payload(_ change: StoreChange, schema: String, origin: String) -> String {
            [origin, schema, change.modelName, String(change.saved), String(change.deleted)].joined(separator: "\t")
        }

        /// The change a payload announces, when another store made it in this store's schema.
        func change(in payload: String) -> StoreChange? {
            let fields = payload.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 5, fields[0] != origin, fields[1] == schema,
                let saved = Int(fields[3]), let deleted = Int(fields[4])
            else { return nil }
            return StoreChange(modelName: String(fields[2]), saved: saved, deleted: deleted)
        }
    }
#endif
