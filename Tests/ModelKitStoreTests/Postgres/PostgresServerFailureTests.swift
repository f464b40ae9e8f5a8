#if PostgreSQL
    import Foundation
    import ModelKit
    import ModelKitPostgres
    import ModelKitStore
    import ModelKitTestSupport
    import Testing

    /// A row of the failure tests.
    @Model struct OutageReading {
        @Identifier var id: Int
        var value: Double
    }

    /// The PostgreSQL store against a real server's failures, each on a cluster of its own (the
    /// shared server stays up for the tests beside them): the server stopped under a live store,
    /// started again, and restarted under a change consumer.
    @Suite(.enabled(if: PostgresTestServer.isAvailable, "needs MODELKIT_POSTGRES_URL"))
    struct PostgresServerFailureTests {
        /// What `body` returns or throws, or nil when it takes longer than `limit` (a hang): the
        /// body runs in a task of its own, left behind if it hangs, so the test still ends.
        static func within<T: Sendable>(
            _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
        ) async -> Result<T, any Error>? {
            let answer = Locked<CheckedContinuation<Result<T, any Error>?, Never>?>(nil)
            return await withCheckedContinuation { continuation in
                answer.withLock { $0 = continuation }
                let give: @Sendable (Result<T, any Error>?) -> Void = { result in
                    answer.withLock { pending in
                        pending?.resume(returning: result)
                        pending = nil
                    }
                }
                Task {
                    do { give(.success(try await body())) } catch { give(.failure(error)) }
                }
                Task {
                    try? await Task.sleep(for: limit)
                    give(nil)
                }
            }
        }

        @Test func aStoppedServerFailsCallsInBoundedTimeAndTheStoreWorksOnceItReturns() async throws {
            let cluster = try ThrowawayCluster()
            defer { cluster.remove() }
            let store = try PostgresStore(url: cluster.url, maximumConnections: 4, connectionTimeout: .seconds(3))
            try await Self.firstCall { try await store.save((1...3).map { OutageReading(id: $0, value: Double($0)) }) }
            try cluster.stop()

            let clock = ContinuousClock()
            let start = clock.now
            let outcome = await Self.within(.seconds(60)) { try await store.fetchAll(OutageReading.self).count }
            let elapsed = clock.now - start
            let failure = try #require(outcome, "the call still waited after 60 s")
            guard case .failure(let error) = failure, let storeError = error as? StoreError else {
                Issue.record("expected a StoreError, got \(failure)")
                return
            }
            #expect(storeError.kind == .database)
            #expect(elapsed < .seconds(20), "the call failed after \(elapsed)")
            // A write fails the same way, and nothing is half-written.
            let write = await Self.within(.seconds(60)) { try await store.save(OutageReading(id: 4, value: 4)) }
            #expect((try? #require(write).get()) == nil)

            try cluster.resume()
            // The same store object works again, with everything committed before the outage.
            let again = await Self.within(.seconds(60)) {
                try await store.fetchAll(ModelQuery(OutageReading.self).order(by: \OutageReading.id)).map(\.id)
            }
            #expect(try #require(again).get() == [1, 2, 3])
            let saved = await Self.within(.seconds(60)) {
                try await store.save(OutageReading(id: 5, value: 5))
                return try await store.fetchCount(OutageReading.self)
            }
            #expect(try #require(saved).get() == 4)
            await store.close()
        }

        /// A consumer of `changes(to:)` across a restart: it goes on seeing other stores' commits
        /// once the server is back (the listener reconnects), within a bounded time.
        @Test func aChangeConsumerGoesOnAfterARestart() async throws {
            let cluster = try ThrowawayCluster()
            defer { cluster.remove() }
            let watcher = try PostgresStore(url: cluster.url, maximumConnections: 4, connectionTimeout: .seconds(3))
            let writer = try PostgresStore(url: cluster.url, maximumConnections: 4, connectionTimeout: .seconds(3))
            try await Self.firstCall { try await writer.save(OutageReading(id: 0, value: 0)) }
            let changes = watcher.changes(to: OutageReading.self)
            try await watcher.listening()
            let seen = Locked(0)
            let consumer = Task {
                for await change in changes {
                    seen.withLock { $0 += max(change.saved, 1) }
                }
            }
            try await writer.save(OutageReading(id: 1, value: 1))
            #expect(await Self.eventually { seen.withLock { $0 } >= 1 }, "a commit before the restart was not seen")
            let before = seen.withLock { $0 }

            try cluster.stop()
            try cluster.resume()
            // Commits after the restart, until one is seen (the listener reconnects in its own time).
            var next = 100
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            while clock.now < deadline, seen.withLock({ $0 }) == before {
                _ = await Self.within(.seconds(10)) { [next] in try await writer.save(OutageReading(id: next, value: 1)) }
                next += 1
                try await Task.sleep(for: .milliseconds(300))
            }
            #expect(seen.withLock { $0 } > before, "no commit after the restart was seen within 60 s")
            consumer.cancel()
            await watcher.close()
            await writer.close()
        }

        /// `sslmode=require` against a server with a self-signed certificate: refused (the
        /// certificate is verified: no connection within the timeout) unless `sslrootcert` names
        /// it; then the store works over TLS.
        @Test func aSelfSignedCertificateIsAcceptedOnlyWhenTheURLTrustsIt() async throws {
            let cluster = try ThrowawayCluster(tls: true)
            defer { cluster.remove() }
            let required = cluster.url.replacingOccurrences(of: "sslmode=disable", with: "sslmode=require")
            let untrusting = try PostgresStore(url: required, maximumConnections: 2, connectionTimeout: .seconds(5))
            let refused = await Self.within(.seconds(60)) { try await untrusting.fetchCount(OutageReading.self) }
            guard case .failure(let error)? = refused else {
                Issue.record("expected the untrusted certificate to be refused, got \(String(describing: refused))")
                return
            }
            // PostgresNIO's pool retries the handshake and keeps its error, so what the caller sees
            // is the store's bound; the same server then accepts the store that trusts it.
            #expect((error as? StoreError)?.reason.hasPrefix("no connection to the PostgreSQL server within 5.0 seconds") == true, "\(error)")
            await untrusting.close()

            let trusting = try PostgresStore(
                url: required + "&sslrootcert=" + cluster.certificatePath, maximumConnections: 2, connectionTimeout: .seconds(5))
            let saved = await Self.within(.seconds(60)) {
                try await trusting.save(OutageReading(id: 1, value: 1.5))
                return try await trusting.fetchAll(OutageReading.self).map(\.value)
            }
            #expect(try #require(saved).get() == [1.5])
            await trusting.close()
        }

        /// Whether `condition` holds within 30 s.
        /// The first call to a fresh cluster, tried up to three times: its first connection took
        /// more than the stores' 3 s timeout on the 2-core host busy compiling beside the suite
        /// (a timeout long enough for that, 6 s, made a later write under the outage outlast 60 s).
        static func firstCall(_ body: () async throws -> Void) async throws {
            for _ in 1..<3 {
                do { return try await body() } catch is StoreError { continue }
            }
            try await body()
        }

        static func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
            for _ in 0..<300 {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(100))
            }
            return condition()
        }
    }
#endif
