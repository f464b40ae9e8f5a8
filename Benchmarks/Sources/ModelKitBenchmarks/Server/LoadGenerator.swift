import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A load generator on loopback: each connection a thread of its own with a blocking socket, kept
/// alive, sending one request and reading its whole response before the next (as wrk does, with
/// one request in flight per connection). Only the status line and `Content-Length` are parsed:
/// the client's own cost stays small beside the server's.
struct LoadGenerator {
    /// The request, head and body, as sent.
    let request: [UInt8]
    let port: Int
    let connections: Int

    init(port: Int, path: String, body: Data, connections: Int) {
        let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        self.request = Array(head.utf8) + Array(body)
        self.port = port
        self.connections = connections
    }

    /// Requests answered with 200 per second, over `seconds`, on all connections.
    func requestsPerSecond(seconds: Double) throws -> Double {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
        let counts = Counts()
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<connections {
            group.enter()
            let thread = Thread { [self] in
                defer { group.leave() }
                do {
                    let socket = try ClientSocket(port: port)
                    var answered = 0
                    while DispatchTime.now().uptimeNanoseconds < deadline {
                        try socket.send(request)
                        let status = try socket.readResponse()
                        guard status == 200 else { throw BenchmarkError("the server answered \(status)") }
                        answered += 1
                    }
                    counts.add(answered, error: nil)
                } catch {
                    counts.add(0, error: error)
                }
            }
            thread.start()
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let (total, error) = counts.result
        if let error { throw error }
        return Double(total) / elapsed
    }

    /// The whole response to one request: its status and body.
    func exchange() throws -> (status: Int, body: [UInt8]) {
        let socket = try ClientSocket(port: port)
        try socket.send(request)
        var body: [UInt8] = []
        let status = try socket.readResponse(body: &body)
        return (status, body)
    }
}

/// The connections' totals, added from their threads.
private final class Counts: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var total = 0
    private var error: (any Error)?

    func add(_ count: Int, error: (any Error)?) {
        lock.withLock {
            total += count
            if let error, self.error == nil { self.error = error }
        }
    }

    var result: (Int, (any Error)?) { lock.withLock { (total, error) } }
}

/// A blocking TCP connection to 127.0.0.1.
private final class ClientSocket {
    let descriptor: Int32
    /// Bytes read past the last response.
    private var buffer: [UInt8] = []

    init(port: Int) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw BenchmarkError("socket() failed: errno \(errno)") }
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw BenchmarkError("connect() to port \(port) failed: errno \(errno)")
        }
    }

    deinit { close(descriptor) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + sent, bytes.count - sent) }
            guard count > 0 else { throw BenchmarkError("write() failed: errno \(errno)") }
            sent += count
        }
    }

    /// Reads one response, dropping its body; returns its status.
    func readResponse() throws -> Int {
        var ignored: [UInt8]? = nil
        return try readResponse(keeping: &ignored)
    }

    /// Reads one response into `body`; returns its status.
    func readResponse(body: inout [UInt8]) throws -> Int {
        var kept: [UInt8]? = []
        let status = try readResponse(keeping: &kept)
        body = kept ?? []
        return status
    }

    private func readResponse(keeping body: inout [UInt8]?) throws -> Int {
        let headEnd = try readUntilHeadEnd()
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw BenchmarkError("no status line in \(head.prefix(80))")
        }
        let lengthLine = lines.first { $0.lowercased().hasPrefix("content-length:") }
        guard let length = lengthLine.flatMap({ Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) }) else {
            throw BenchmarkError("a response without Content-Length: \(head.prefix(200))")
        }
        let bodyStart = headEnd + 4
        while buffer.count < bodyStart + length { try fill() }
        if body != nil { body = Array(buffer[bodyStart..<(bodyStart + length)]) }
        buffer.removeSubrange(0..<(bodyStart + length))
        return status
    }

    /// The offset of `\r\n\r\n` in the buffer, reading until it is there.
    private func readUntilHeadEnd() throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= 4 {
                for index in searchFrom...(buffer.count - 4)
                where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
                    return index
                }
                searchFrom = buffer.count - 3
            }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
        guard count > 0 else { throw BenchmarkError("the server closed the connection (read returned \(count), errno \(errno))") }
        buffer += chunk[..<count]
    }
}
