#if PostgreSQL
    import Foundation
    import ModelKitStore
    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif
    import Testing

    /// A PostgreSQL cluster of a test's own (`.ci/postgres.sh`), which the test stops and starts
    /// again: the shared test server must stay up for the tests running beside it.
    final class ThrowawayCluster: Sendable {
        let directory: URL
        /// `postgres://...?sslmode=disable`.
        let url: String

        /// Creates and starts a cluster, with TLS on (a self-signed certificate for 127.0.0.1 in
        /// ``certificatePath``) when `tls` is true.
        init(tls: Bool = false) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("modelkit-pg-" + UUID().uuidString)
            url = try Self.script("start", directory, environment: tls ? ["PG_SSL": "1"] : [:])
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// The server's certificate, when the cluster has TLS on.
        var certificatePath: String { directory.appendingPathComponent("server.crt").path }

        /// Stops the server (fast shutdown: open connections are closed).
        func stop() throws { _ = try Self.script("stop", directory) }

        /// Starts the server again, on the same port, with the same data.
        func resume() throws { _ = try Self.script("resume", directory) }

        /// Stops the server and removes its files.
        func remove() {
            _ = try? Self.script("stop", directory)
            try? FileManager.default.removeItem(at: directory)
        }

        /// Runs `.ci/postgres.sh COMMAND DIR`; its standard output.
        ///
        /// Through `posix_spawn` and `waitpid`, not Foundation's `Process`, whose `waitUntilExit()`
        /// (and `isRunning`) never saw the script end once it had started a server (Swift 6.3.1, Linux).
        private static func script(_ command: String, _ directory: URL, environment: [String: String] = [:]) throws -> String {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let output = directory.deletingLastPathComponent().appendingPathComponent(directory.lastPathComponent + "." + command + ".out")
            defer { try? FileManager.default.removeItem(at: output) }
            let settings = environment.map { "\($0.key)=\($0.value) " }.joined()
            let line = "\(settings)bash '\(root.appendingPathComponent(".ci/postgres.sh").path)' \(command) '\(directory.path)' >'\(output.path)'"
            let arguments = ["/bin/bash", "-c", line]
            var cArguments = arguments.map { strdup($0) } + [nil]
            defer { for argument in cArguments { free(argument) } }
            var pid: pid_t = 0
            guard posix_spawn(&pid, "/bin/bash", nil, nil, &cArguments, environ) == 0 else {
                throw StoreError(.cannotOpen, reason: "cannot run .ci/postgres.sh \(command)")
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            guard status == 0 else {
                throw StoreError(.cannotOpen, reason: ".ci/postgres.sh \(command) failed with status \(status)")
            }
            return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        }
    }
#endif
