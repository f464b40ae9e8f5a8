import Foundation

/// A small HTTP/1.1 server on 127.0.0.1 for the tests: a table of routes to async handlers,
/// one request per connection.
///
/// It listens from `init` on a port the system picks (``port``). One thread accepts
/// connections; each connection gets its own thread, which reads and parses the request
/// (``HTTPRequestParser``), runs the first matching route's handler in a `Task` and waits for
/// it, sends the response with `Content-Length` and `Connection: close`, and closes. A
/// malformed request gets a 400 saying why, a request no route matches a 404, a handler that
/// throws a 500.
///
/// ``stop()`` closes the listening socket (new connections are refused) and drops the open
/// connections: it shuts their sockets down and cancels their handlers, without waiting for
/// them. Nothing the server starts keeps the process alive: its threads end with the sockets,
/// and the process exits without waiting for them.
final class LocalHTTPServer: @unchecked Sendable {
    // @unchecked: the mutable state (routes, connections, wake pipe) is only touched under `lock`.

    /// What answers a request.
    typealias Handler = @Sendable (HTTPRequest) async throws -> HTTPResponse

    /// The port the server listens on, on 127.0.0.1.
    let port: UInt16

    private let lock = NSLock()
    private var routes: [Route] = []
    private var connections: [ObjectIdentifier: Connection] = [:]
    private var stopped = false
    /// The write end of the pipe the accept thread watches: closing it wakes the thread. Nil once stopped.
    private var wakeDescriptor: Int32?
    /// Left when the accept thread has closed the listening socket.
    private let acceptLoop = DispatchGroup()

    /// Listens on 127.0.0.1, at a port the system picks.
    init() throws {
        let (listener, port) = try SocketCalls.listenOnLoopback()
        let wake = try SocketCalls.closing(listener) { try SocketCalls.makePipe() }
        self.port = port
        wakeDescriptor = wake.write
        acceptLoop.enter()
        Thread { [self] in acceptConnections(listener: listener, wake: wake.read) }.start()
    }

    /// Answers requests `pattern` matches with `handler`; the first route appended that matches wins.
    ///
    /// A pattern is `METHOD /path` (or `/path` for every method); a path component `*` matches
    /// any one component, and a last `*` one or more: `GET /users/*` matches `GET /users/42`
    /// and `GET /users/42/posts`, not `GET /users`. Components match the path as sent, percent-encoded.
    func appendRoute(_ pattern: String, handler: @escaping Handler) {
        let route = Route(pattern: pattern, handler: handler)
        lock.withLock { routes.append(route) }
    }

    /// Stops listening and drops the open connections, without waiting for their handlers.
    func stop() async {
        let (open, wake) = lock.withLock {
            stopped = true
            defer { wakeDescriptor = nil }
            return (Array(connections.values), wakeDescriptor)
        }
        for connection in open { connection.drop() }
        if let wake { SocketCalls.closeDescriptor(wake) }
        await withCheckedContinuation { continuation in
            acceptLoop.notify(queue: .global()) { continuation.resume() }
        }
    }

    // MARK: - Connections

    /// The accept thread: takes connections until the wake pipe is closed or accepting fails,
    /// then closes the listening socket and the pipe.
    private func acceptConnections(listener: Int32, wake: Int32) {
        defer {
            SocketCalls.closeDescriptor(listener)
            SocketCalls.closeDescriptor(wake)
            acceptLoop.leave()
        }
        while true {
            guard let ready = try? SocketCalls.waitUntilReadable([listener, wake]), ready == [true, false] else { return }
            let descriptor: Int32?
            do {
                descriptor = try SocketCalls.acceptConnection(on: listener)
            } catch {
                return   // out of descriptors or worse: clients are refused rather than left waiting
            }
            guard let descriptor else { continue }
            let connection = Connection(descriptor: descriptor)
            let accepted = lock.withLock {
                if !stopped { connections[ObjectIdentifier(connection)] = connection }
                return !stopped
            }
            guard accepted else {
                connection.close()
                return
            }
            Thread { [self] in serve(connection) }.start()
        }
    }

    /// A connection's thread: reads the request, answers it and closes.
    private func serve(_ connection: Connection) {
        defer {
            _ = lock.withLock { connections.removeValue(forKey: ObjectIdentifier(connection)) }
            connection.close()
        }
        let response: HTTPResponse
        do {
            guard let request = try connection.readRequest() else { return }
            if let route = lock.withLock({ routes.first { $0.matches(request) } }) {
                response = connection.run(route.handler, for: request)
            } else {
                response = HTTPResponse(statusCode: .notFound)
            }
        } catch let error as MalformedRequest {
            response = .badRequest(error.description)
        } catch {
            return   // the socket failed, timed out or was dropped: no one to answer
        }
        if response.dropsConnection { return }
        connection.answer(response)
    }
}

/// A route: the method and path components it matches, and its handler.
private struct Route: Sendable {
    /// Nil for every method.
    let method: String?
    let components: [Substring]
    let handler: LocalHTTPServer.Handler

    init(pattern: String, handler: @escaping LocalHTTPServer.Handler) {
        let parts = pattern.split(separator: " ", maxSplits: 1)
        method = parts.count == 2 ? String(parts[0]) : nil
        components = (parts.last ?? "").split(separator: "/")
        self.handler = handler
    }

    func matches(_ request: HTTPRequest) -> Bool {
        if let method, method != request.method { return false }
        let path = request.path.split(separator: "/")
        if components.last == "*" {
            guard path.count >= components.count else { return false }
        } else {
            guard path.count == components.count else { return false }
        }
        return zip(components, path).allSatisfy { $0 == "*" || $0 == $1 }
    }
}

/// One accepted connection: its socket, and the handler running for it.
///
/// Only the connection's own thread reads, writes and closes the socket; ``drop()``, from any
/// thread, shuts it down (which wakes a blocked receive or send) and cancels the handler.
private final class Connection: @unchecked Sendable {
    // @unchecked: `closed`, `dropped`, `runningHandler` and `response` are only touched under `lock`.

    /// How long a receive or send may block before the connection is given up.
    static let timeoutSeconds = 30
    /// How long, after the response, the client has to close its end.
    static let lingerSeconds = 1

    private let descriptor: Int32
    private let lock = NSLock()
    private var closed = false
    private var dropped = false
    private var runningHandler: Task<Void, Never>?
    private var response: HTTPResponse?

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The request; nil when the client closed before sending one.
    func readRequest() throws -> HTTPRequest? {
        try SocketCalls.setTimeout(descriptor, seconds: Self.timeoutSeconds)
        var parser = HTTPRequestParser()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = try SocketCalls.receive(descriptor, into: &buffer)
            if count == 0 {
                guard parser.hasStarted else { return nil }
                throw MalformedRequest(description: "the connection ended before the request was complete")
            }
            if let request = try parser.append(buffer[..<count]) { return request }
            if parser.takeContinueRequest() { try SocketCalls.sendAll(descriptor, HTTPResponse.continueBytes) }
        }
    }

    /// Runs `handler` in a task and waits for its response (a 500 when it throws).
    ///
    /// The task runs on this connection's thread (``HandlerExecutor``), not on the cooperative
    /// pool: when every suite runs at once, the pool's threads are busy with other tests for
    /// seconds at a time, and a client's URLSession on Linux (FoundationNetworking) spins on its
    /// socket for as long as the answer is late.
    func run(_ handler: @escaping LocalHTTPServer.Handler, for request: HTTPRequest) -> HTTPResponse {
        let finished = DispatchSemaphore(value: 0)
        let operation: @Sendable () async -> Void = { [self] in
            let response: HTTPResponse
            do {
                response = try await handler(request)
            } catch {
                response = HTTPResponse(statusCode: .internalServerError)
            }
            lock.withLock { self.response = response }
            finished.signal()
        }
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, *) {
            let executor = HandlerExecutor()
            keep(Task(executorPreference: executor) {
                await operation()
                executor.finish()
            })
            executor.runUntilFinished()
        } else {
            keep(Task(operation: operation))
        }
        finished.wait()
        return lock.withLock {
            runningHandler = nil
            return response ?? HTTPResponse(statusCode: .internalServerError)
        }
    }

    /// Keeps the running handler's task for ``drop()`` to cancel, or cancels it at once if the
    /// connection was dropped already.
    private func keep(_ task: Task<Void, Never>) {
        lock.withLock {
            if dropped { task.cancel() } else { runningHandler = task }
        }
    }

    /// Sends `response`, ends sending, and gives the client a moment (and up to a megabyte) to
    /// close its end first, so that bytes it sent which were not read (after a 400) do not reset
    /// the connection under the response.
    func answer(_ response: HTTPResponse) {
        do {
            try SocketCalls.sendAll(descriptor, response.encoded)
            if let body = response.streamedBody { try send(body) }
            SocketCalls.shutdown(descriptor, receiving: false)
            try SocketCalls.setTimeout(descriptor, seconds: Self.lingerSeconds)
            var buffer = [UInt8](repeating: 0, count: 4096)
            var drained = 0
            while drained < 1 << 20 {
                let count = try SocketCalls.receive(descriptor, into: &buffer)
                if count == 0 { break }
                drained += count
            }
        } catch {
            // The client is gone, or lingers: closing is all that is left.
        }
    }

    /// Writes a streamed body a chunk at a time, until all is sent or the client has gone.
    private func send(_ body: StreamedBody) throws {
        defer { body.progress.finish() }
        var index = 0
        while let chunk = body.chunk(index) {
            try SocketCalls.sendAll(descriptor, chunk)
            body.progress.add(chunk.count)
            index += 1
        }
    }

    /// Shuts the socket down and cancels the handler: the connection's thread then finishes.
    func drop() {
        let task = lock.withLock {
            dropped = true
            if !closed { SocketCalls.shutdown(descriptor, receiving: true) }
            return runningHandler
        }
        task?.cancel()
    }

    /// Closes the socket, once.
    func close() {
        lock.withLock {
            guard !closed else { return }
            closed = true
            SocketCalls.closeDescriptor(descriptor)
        }
    }
}

/// A task executor whose jobs the thread that calls ``runUntilFinished()`` runs: a handler's
/// task, on its connection's thread, which would otherwise only wait for it.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
private final class HandlerExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `finished` are only touched under `condition`.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let late = condition.withLock {
            jobs.append(job)
            condition.signal()
            return finished
        }
        // A job after the handler's end (a task it left behind) runs on a thread of its own.
        if late { Thread { [self] in runJobs() }.start() }
    }

    /// Ends ``runUntilFinished()`` once the jobs queued so far have run.
    func finish() {
        condition.withLock {
            finished = true
            condition.signal()
        }
    }

    /// Runs jobs as they are enqueued until ``finish()``.
    func runUntilFinished() {
        while runJobs() {}
    }

    /// Waits for jobs or the end, runs the jobs queued; false at the end with none left.
    @discardableResult
    private func runJobs() -> Bool {
        let batch = condition.withLock {
            while jobs.isEmpty && !finished { condition.wait() }
            defer { jobs = [] }
            return jobs
        }
        for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        return !batch.isEmpty
    }
}
