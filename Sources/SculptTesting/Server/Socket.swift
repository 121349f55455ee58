#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SculptShared

/// A connected or listening TCP socket on 127.0.0.1, with blocking calls bounded by deadlines.
///
/// The descriptor is closed only by ``close()``, which its owner calls once; any thread may call
/// ``shutdown()`` to wake a blocked reader, as ``FixtureServer/stop()`` does.
struct Socket: Sendable {
    /// Why a socket call failed: the call's name and `errno`.
    struct Failure: Error, CustomStringConvertible {
        var call: String
        var code: Int32

        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }

    /// The file descriptor.
    let descriptor: Int32

    /// What a bounded read got.
    enum ReadResult: Equatable {
        /// This many bytes were appended.
        case bytes(Int)
        /// The peer closed its side (or reset the connection).
        case closed
        /// Nothing arrived before the deadline.
        case timedOut
    }

    /// A socket listening on 127.0.0.1 at `port` (0: any free port), and the port it got.
    static func listen(port: UInt16, backlog: Int32) throws(Failure) -> (Socket, UInt16) {
        let descriptor = socket(AF_INET, streamType, 0)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        let listening = Socket(descriptor: descriptor)
        do throws(Failure) {
            var reuse: Int32 = 1
            guard setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw Failure(call: "setsockopt", code: errno)
            }
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw Failure(call: "bind", code: errno) }
            guard systemListen(descriptor, backlog) == 0 else { throw Failure(call: "listen", code: errno) }
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
            }
            guard named == 0 else { throw Failure(call: "getsockname", code: errno) }
            return (listening, UInt16(bigEndian: address.sin_port))
        } catch {
            listening.close()
            throw error
        }
    }

    /// Waits up to `milliseconds` (-1: forever) for a connection on a listening socket, or for
    /// `wake` to become readable. `nil` when woken, timed out, or interrupted.
    func accept(wakingOn wake: Int32, milliseconds: Int32 = -1) throws(Failure) -> Socket? {
        var descriptors = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
        ]
        let ready = poll(&descriptors, 2, milliseconds)
        guard ready > 0, descriptors[1].revents == 0, descriptors[0].revents & Int16(POLLIN) != 0 else {
            if ready < 0, errno != EINTR { throw Failure(call: "poll", code: errno) }
            return nil
        }
        let connected = systemAccept(descriptor, nil, nil)
        guard connected >= 0 else {
            // The peer may have gone between poll and accept; out of descriptors is worth a retry.
            if [EAGAIN, EWOULDBLOCK, ECONNABORTED, EINTR, EMFILE, ENFILE, EPROTO].contains(errno) { return nil }
            throw Failure(call: "accept", code: errno)
        }
        let socket = Socket(descriptor: connected)
        socket.configureConnection()
        return socket
    }

    /// No delay for small writes; on Apple platforms, no `SIGPIPE` from a peer that went away.
    private func configureConnection() {
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Appends what arrives (at most `limit` bytes) to `buffer`, waiting until `deadline`.
    func read(into buffer: inout [UInt8], limit: Int, until deadline: ContinuousClock.Instant) -> ReadResult {
        guard limit > 0 else { return .bytes(0) }
        while true {
            let milliseconds = Self.milliseconds(until: deadline)
            guard milliseconds > 0 else { return .timedOut }
            var descriptors = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptors, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { return ready == 0 ? .timedOut : .closed }
            let count = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Swift.min(limit, 64 << 10)) { scratch in
                let count = recv(descriptor, scratch.baseAddress, scratch.count, 0)
                if count > 0 { buffer.append(contentsOf: scratch[..<count]) }
                return count
            }
            if count > 0 { return .bytes(count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            return .closed
        }
    }

    /// Writes every byte of `head`, then of `body`, or stops at the first failure: a peer that
    /// went away, one that takes nothing for `idle`, or one still taking bytes at `deadline`.
    /// `true` when all was written. The body is sent from its own storage, never copied: a
    /// fixture's body is shared by every connection that sends it.
    func write(_ head: [UInt8], _ body: Data = Data(), idle: Duration, until deadline: ContinuousClock.Instant) -> Bool {
        head.withUnsafeBytes { write($0, idle: idle, until: deadline) }
            && body.withUnsafeBytes { write($0, idle: idle, until: deadline) }
    }

    private func write(_ chunk: UnsafeRawBufferPointer, idle: Duration, until deadline: ContinuousClock.Instant) -> Bool {
        var offset = 0
        while offset < chunk.count {
            let milliseconds = Self.milliseconds(until: Swift.min(.now + idle, deadline))
            guard milliseconds > 0 else { return false }
            var descriptors = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&descriptors, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0, descriptors.revents & Int16(POLLOUT) != 0 else { return false }
            let sent = send(descriptor, chunk.baseAddress.map { $0 + offset }, chunk.count - offset, Self.sendFlags)
            if sent < 0, errno == EINTR || errno == EAGAIN { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Whether the bytes waiting to be read (the first 16 KiB, looked at without reading them)
    /// hold the end of a request head, a blank line: a whole request has arrived.
    var hasPendingHead: Bool {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16 << 10) { scratch in
            let count = recv(descriptor, scratch.baseAddress, scratch.count, Int32(MSG_PEEK) | Int32(MSG_DONTWAIT))
            guard count > 1 else { return false }
            let lineFeed = UInt8(ascii: "\n")
            return (1..<count).contains { index in
                scratch[index] == lineFeed && (scratch[index - 1] == lineFeed || (index > 1 && scratch[index - 1] == UInt8(ascii: "\r") && scratch[index - 2] == lineFeed))
            }
        }
    }

    /// Reads and drops what the peer still sends, until it ends the connection, sends nothing for
    /// `idle`, has sent `limit` bytes, or `deadline` comes: a close with unread bytes resets the
    /// connection, and the reset can take the last response with it before the peer has read it.
    func drain(idle: Duration, limit: Int, until deadline: ContinuousClock.Instant) {
        var sink: [UInt8] = []
        var drained = 0
        while drained < limit, case .bytes(let count) = read(into: &sink, limit: 64 << 10, until: Swift.min(.now + idle, deadline)) {
            drained += count
            sink.removeAll(keepingCapacity: true)
        }
    }

    /// Ends sending; the peer reads what was sent, then end of file.
    func shutdownWriting() {
        _ = systemShutdown(descriptor, Int32(SHUT_WR))
    }

    /// Ends both directions: a thread blocked reading this socket wakes up.
    func shutdown() {
        _ = systemShutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Releases the descriptor. Call once, from the socket's owner.
    func close() {
        _ = systemClose(descriptor)
    }

    /// Milliseconds from now to `deadline`, at least 0, for `poll`.
    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    /// No SIGPIPE for a peer that went away; no blocking past what the socket takes now, so the
    /// deadlines hold however large the response.
    private static let sendFlags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
    #elseif canImport(Musl)
    private static let streamType = SOCK_STREAM
    private static let sendFlags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
    #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags = Int32(MSG_DONTWAIT)
    #endif
}

// The C calls whose names `Socket`'s methods reuse.
private func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { listen(descriptor, backlog) }
private func systemAccept(_ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: UnsafeMutablePointer<socklen_t>?) -> Int32 {
    accept(descriptor, address, length)
}
private func systemShutdown(_ descriptor: Int32, _ how: Int32) -> Int32 { shutdown(descriptor, how) }
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
