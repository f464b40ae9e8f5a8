#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed socket call: what was being done, and the `errno` it left.
struct SocketError: Error, CustomStringConvertible {
    /// What was being done, e.g. `binding to 127.0.0.1`.
    let step: String
    /// The `errno` value.
    let code: Int32

    /// `binding to 127.0.0.1 failed: address already in use (errno 98)`.
    var description: String {
        let message = String(cString: strerror(code))
        return "\(step) failed: \(message.prefix(1).lowercased())\(message.dropFirst()) (errno \(code))"
    }

    /// Whether the peer reset the connection.
    var isConnectionReset: Bool { code == ECONNRESET }
}

/// Thin wrappers over the POSIX socket calls of the test server, retrying on `EINTR`.
///
/// Every descriptor they make is close-on-exec, so processes the tests spawn hold none of the
/// server's sockets; sending never raises `SIGPIPE` (`MSG_NOSIGNAL` on Linux, `SO_NOSIGPIPE`
/// on Darwin).
enum SocketCalls {
    /// A TCP socket listening on 127.0.0.1 at a port the system picks, with `SO_REUSEADDR`.
    static func listenOnLoopback(backlog: Int32 = 128) throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = try makeTCPSocket()
        return try closing(descriptor) {
            try setOption(descriptor, SO_REUSEADDR, to: 1, step: "setting SO_REUSEADDR")
            let port = try bindToLoopback(descriptor)
            try check(listen(descriptor, backlog), step: "listening on 127.0.0.1")
            return (descriptor, port)
        }
    }

    /// A TCP socket bound to 127.0.0.1 on a port the system picks, never listening: connecting
    /// to the port is refused, and no other socket can take the port while this one is open (it
    /// is bound without `SO_REUSEADDR`), where the port of a stopped server can go to the next
    /// server a test starts meanwhile.
    static func bindToLoopbackWithoutListening() throws -> (descriptor: Int32, port: UInt16) {
        let descriptor = try makeTCPSocket()
        return try closing(descriptor) { (descriptor, try bindToLoopback(descriptor)) }
    }

    /// Binds `descriptor` to 127.0.0.1 on a port the system picks; the port.
    private static func bindToLoopback(_ descriptor: Int32) throws -> UInt16 {
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try check(withSocketAddress(&address) { bind(descriptor, $0, length) }, step: "binding to 127.0.0.1")
        try check(withSocketAddress(&address) { getsockname(descriptor, $0, &length) }, step: "reading the bound port")
        return UInt16(bigEndian: address.sin_port)
    }

    /// A TCP socket connected to 127.0.0.1 at `port` (the tests' raw client).
    static func connectToLoopback(port: UInt16) throws -> Int32 {
        let descriptor = try makeTCPSocket()
        var address = loopbackAddress(port: port)
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try closing(descriptor) {
            try check(withSocketAddress(&address) { connect(descriptor, $0, length) }, step: "connecting to 127.0.0.1:\(port)")
        }
        return descriptor
    }

    /// The next connection on `listener`; nil when the one that came was gone before it was taken.
    static func acceptConnection(on listener: Int32) throws -> Int32? {
        while true {
            let descriptor = accept(listener, nil, nil)
            if descriptor >= 0 {
                try closing(descriptor) { try configure(descriptor) }
                return descriptor
            }
            switch errno {
            case EINTR: continue
            case ECONNABORTED, EAGAIN, EWOULDBLOCK, EPROTO: return nil
            default: throw SocketError(step: "accepting a connection", code: errno)
            }
        }
    }

    /// Blocks until one of `descriptors` is readable, at its end or failed; says which.
    static func waitUntilReadable(_ descriptors: [Int32]) throws -> [Bool] {
        var entries = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            if poll(&entries, nfds_t(entries.count), -1) >= 0 { return entries.map { $0.revents != 0 } }
            if errno != EINTR { throw SocketError(step: "waiting for connections", code: errno) }
        }
    }

    /// Receives what is there into `buffer`, up to its size; 0 at the end of the stream.
    static func receive(_ descriptor: Int32, into buffer: inout [UInt8]) throws -> Int {
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return count }
            if errno != EINTR { throw SocketError(step: "receiving", code: errno) }
        }
    }

    /// Sends all of `bytes`.
    static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                buffer.baseAddress.map { send(descriptor, $0 + offset, buffer.count - offset, noSignal) } ?? 0
            }
            if count > 0 {
                offset += count
            } else if count < 0, errno != EINTR {
                throw SocketError(step: "sending", code: errno)
            }
        }
    }

    /// Bounds how long one receive or send may block.
    static func setTimeout(_ descriptor: Int32, seconds: Int) throws {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        let size = socklen_t(MemoryLayout<timeval>.size)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            try check(setsockopt(descriptor, SOL_SOCKET, option, &limit, size), step: "setting a socket timeout")
        }
    }

    /// Ends sending (the peer reads the end of the stream); with `receiving`, ends receiving
    /// too, which wakes a thread blocked on the socket. Errors (a peer already gone) are moot.
    static func shutdown(_ descriptor: Int32, receiving: Bool) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(descriptor, Int32(receiving ? SHUT_RDWR : SHUT_WR))
        #elseif canImport(Musl)
        _ = Musl.shutdown(descriptor, receiving ? SHUT_RDWR : SHUT_WR)
        #elseif canImport(Darwin)
        _ = Darwin.shutdown(descriptor, receiving ? SHUT_RDWR : SHUT_WR)
        #endif
    }

    /// A pipe whose read end turns readable (at its end) once the write end is closed.
    static func makePipe() throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        try check(pipe(&ends), step: "creating a pipe")
        for end in ends where fcntl(end, F_SETFD, FD_CLOEXEC) < 0 {
            let error = SocketError(step: "making a pipe close-on-exec", code: errno)
            ends.forEach(closeDescriptor)
            throw error
        }
        return (ends[0], ends[1])
    }

    /// Closes `descriptor`; its number may be reused at once, so it must not be used after.
    static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// What `body` returns; when it throws, `descriptor` is closed before the error goes on.
    static func closing<T>(_ descriptor: Int32, ifThrows body: () throws -> T) rethrows -> T {
        do {
            return try body()
        } catch {
            closeDescriptor(descriptor)
            throw error
        }
    }

    // MARK: - Helpers

    #if canImport(Glibc)
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #elseif canImport(Musl)
    private static let noSignal = MSG_NOSIGNAL
    #else
    private static let noSignal: Int32 = 0   // SO_NOSIGPIPE is set on every socket instead
    #endif

    /// A close-on-exec TCP socket over IPv4.
    private static func makeTCPSocket() throws -> Int32 {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        try check(descriptor, step: "creating a socket")
        try closing(descriptor) { try configure(descriptor) }
        return descriptor
    }

    /// Makes a socket close-on-exec and, on Darwin, silent on a closed peer.
    private static func configure(_ descriptor: Int32) throws {
        try check(fcntl(descriptor, F_SETFD, FD_CLOEXEC), step: "making a socket close-on-exec")
        #if canImport(Darwin)
        try setOption(descriptor, SO_NOSIGPIPE, to: 1, step: "setting SO_NOSIGPIPE")
        #endif
    }

    private static func setOption(_ descriptor: Int32, _ option: Int32, to value: Int32, step: String) throws {
        var value = value
        try check(setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<Int32>.size)), step: step)
    }

    /// 127.0.0.1 at `port`.
    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        return address
    }

    private static func withSocketAddress<R>(_ address: inout sockaddr_in, _ body: (UnsafeMutablePointer<sockaddr>) -> R) -> R {
        withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }

    /// Throws the `errno` of a call that returned a negative result.
    private static func check(_ result: Int32, step: String) throws {
        if result < 0 { throw SocketError(step: step, code: errno) }
    }
}
