import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client that sends exact bytes to a loopback server and reads what comes back: for the
/// requests no friendly client would make (a 1 MB request line, two lengths, a held-open head).
///
/// A class, closed once: a second `close()` of a descriptor number would close whatever socket
/// of another test has reused it.
final class RawHTTP: Sendable {
    /// One response read off the wire.
    struct Response: Equatable {
        var status: Int
        var fields: [(name: String, value: String)]
        var body: String

        static func == (lhs: Response, rhs: Response) -> Bool {
            lhs.status == rhs.status && lhs.body == rhs.body && lhs.fields.map { "\($0.name): \($0.value)" } == rhs.fields.map { "\($0.name): \($0.value)" }
        }

        /// The first value of a field, by case-insensitive name.
        func value(_ name: String) -> String? {
            fields.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    let descriptor: Int32
    private let closedOnce = Locked(false)

    /// Connects to 127.0.0.1 at the port of `baseURL`.
    ///
    /// - Parameter receiveBuffer: a fixed size for the socket's receive buffer, for a client that
    ///   must not be able to take a whole large response while it reads none of it: left to
    ///   itself, the kernel grows the buffer while the response waits (up to `tcp_rmem`'s maximum,
    ///   32 MB on some machines), and a slow test gives it the time.
    init(_ baseURL: URL, receiveBuffer: Int32? = nil) throws {
        let descriptor = socket(AF_INET, Self.streamType, 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        if var size = receiveBuffer {
            guard setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                _ = closeDescriptor(descriptor)
                throw POSIXError(.EINVAL)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(baseURL.port ?? 80).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            _ = closeDescriptor(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
        self.descriptor = descriptor
    }

    /// Sends `bytes`; `false` when the server closed before taking them all.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { sendWithoutSignal(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Sends `text` as UTF-8.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Everything the server sends until it closes. Waits as long as that takes: a loaded machine
    /// is slow, and the test's time limit (which ends the wait) guards against a server that
    /// never closes.
    func readAll() async -> [UInt8] {
        await blocking { [self] in
            var received: [UInt8] = []
            while let chunk = receive(atMost: 64 << 10) { received += chunk }
            return received
        }
    }

    /// Reads once, at most `count` bytes; `nil` when the server closed.
    func readSome(atMost count: Int) async -> Int? {
        await blocking { [self] in receive(atMost: count)?.count }
    }

    /// What one `recv` returns, waiting for it; `nil` when the server closed or reset the
    /// connection.
    private func receive(atMost count: Int) -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: count)
        let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        return received > 0 ? Array(chunk[..<received]) : nil
    }

    /// One response head, through its blank line, as text; what arrived when the server closes
    /// first.
    func readHead() async -> String {
        await blocking { [self] in
            var received: [UInt8] = []
            while received.firstRange(of: Array("\r\n\r\n".utf8)) == nil, let byte = receive(atMost: 1) {
                received += byte
            }
            return String(decoding: received, as: UTF8.self)
        }
    }

    /// The first `count` responses, read as they arrive; fewer when the server closes first.
    /// Framed as ``responses(in:headRequests:)`` frames them.
    func readResponses(_ count: Int, headRequests: Set<Int> = []) async -> [Response] {
        await blocking { [self] in
            var received: [UInt8] = []
            while true {
                let (responses, complete) = Self.parse(received, headRequests: headRequests)
                if responses.count >= count, complete { return responses }
                guard let chunk = receive(atMost: 64 << 10) else { break }
                received += chunk
            }
            return Self.responses(in: received, headRequests: headRequests)
        }
    }

    /// Waits until the server ends the connection (closes or resets it) or sends something:
    /// `true` for the end, `false` when bytes arrived instead.
    func awaitClose() async -> Bool {
        await blocking { [self] in
            var byte: UInt8 = 0
            return recv(descriptor, &byte, 1, 0) <= 0
        }
    }

    /// Whether the server has ended the connection already, without waiting: for a connection
    /// that must still be open.
    func isClosedNow() -> Bool {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK)) <= 0
    }

    /// Runs a blocking read on a thread of its own (``onThread(_:)``); cancelling the waiting
    /// task shuts the connection down, which ends the read.
    private func blocking<T: Sendable>(_ read: @escaping @Sendable () -> T) async -> T {
        await withTaskCancellationHandler {
            await Self.onThread(read)
        } onCancel: { [descriptor] in
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
        }
    }

    /// Runs a blocking wait on a thread of its own: on Swift's cooperative pool (two threads on a
    /// two-core machine) it would stall every other test's tasks until it ended.
    @discardableResult
    static func onThread<T: Sendable>(_ wait: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: wait()) }.start()
        }
    }

    /// Closes the connection; later calls do nothing. Call it after every read and send ended.
    func close() {
        closedOnce.withLock { closed in
            guard !closed else { return }
            closed = true
            _ = closeDescriptor(descriptor)
        }
    }

    deinit {
        close()
    }

    /// The responses in `bytes`, in order, framed as a client frames them: no body for the
    /// requests listed as `HEAD` (by position), for 1xx, 204 and 304; else `Content-Length`.
    static func responses(in bytes: [UInt8], headRequests: Set<Int> = []) -> [Response] {
        parse(bytes, headRequests: headRequests).responses
    }

    /// The responses in `bytes`, and whether the last one is whole: its head ended and, when it
    /// states a `Content-Length`, that many body bytes arrived.
    private static func parse(_ bytes: [UInt8], headRequests: Set<Int>) -> (responses: [Response], complete: Bool) {
        var responses: [Response] = []
        var rest = bytes[...]
        var complete = true
        while let end = rest.firstRange(of: Array("\r\n\r\n".utf8)) {
            let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? -1
            let fields = lines.dropFirst().map { line in
                let parts = line.split(separator: ":", maxSplits: 1)
                return (name: String(parts[0]), value: parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "")
            }
            rest = rest[end.upperBound...]
            if (100..<200).contains(status) { continue }
            var response = Response(status: status, fields: fields, body: "")
            let bodiless = headRequests.contains(responses.count) || status == 204 || status == 304
            let stated = bodiless ? 0 : Int(response.value("Content-Length") ?? "")
            let length = stated ?? rest.count
            complete = length <= rest.count
            response.body = String(decoding: rest.prefix(length), as: UTF8.self)
            rest = rest.dropFirst(length)
            responses.append(response)
        }
        return (responses, complete && rest.isEmpty)
    }

    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamType = SOCK_STREAM
    #endif
}

private func sendWithoutSignal(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
    #else
    send(descriptor, bytes, count, 0)
    #endif
}

private func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }
