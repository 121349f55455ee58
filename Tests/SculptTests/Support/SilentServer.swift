import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listener on 127.0.0.1 that takes one connection, reads what the client sends and never
/// answers: for requests that must be cancelled while in flight. ``clientClosed()`` says when the
/// client gave up the connection.
final class SilentServer: Sendable {
    let port: UInt16
    private let descriptor: Int32

    init() throws {
        let descriptor = socket(AF_INET, Self.streamType, 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound, listen(descriptor, 4) == 0 else {
            _ = closeSilent(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        self.descriptor = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/items/1")! }

    /// Waits (off Swift's cooperative pool) for a client to connect, send, and then close the
    /// connection; `true` when it closed within `timeout`.
    func clientClosed(within timeout: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            Thread { [self] in continuation.resume(returning: waitForClose(timeout)) }.start()
        }
    }

    private func waitForClose(_ timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var listening = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&listening, 1, Self.milliseconds(until: deadline)) > 0 else { return false }
        let connection = accept(descriptor, nil, nil)
        guard connection >= 0 else { return false }
        defer { _ = closeSilent(connection) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Self.milliseconds(until: deadline)) > 0 else { return false }
            if buffer.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) <= 0 { return true }
        }
        return false
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int32 {
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: deadline).components
        return Int32(max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }

    deinit {
        _ = closeSilent(descriptor)
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamType = SOCK_STREAM
    #endif
}

private func closeSilent(_ descriptor: Int32) -> Int32 { close(descriptor) }
