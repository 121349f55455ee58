import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listener on 127.0.0.1 that answers each connection with what `answer` writes for the
/// request's head, then closes it, and keeps every head it received: for what FixtureServer will
/// not send (a redirect to another origin) and for checking what a client sent.
final class ScriptedServer: @unchecked Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let lock = NSLock()
    private var received: [String] = []
    private var stopped = false

    /// Starts listening; `answer` gets the request head (request line and fields) and returns the
    /// whole response to write (status line, fields, blank line, body).
    convenience init(answer: @escaping @Sendable (String) -> String) throws {
        try self.init(bytes: { Array(answer($0).utf8) })
    }

    /// Starts listening; `answer` returns the whole response as bytes (a body that is not text).
    init(bytes answer: @escaping @Sendable (String) -> [UInt8]) throws {
        (descriptor, port) = try LoopbackListener.open(backlog: 16)
        Thread { [self] in serve(answer) }.start()
    }

    /// `http://127.0.0.1:<port>` and `path`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The heads received so far.
    var heads: [String] {
        lock.withLock { received }
    }

    /// Stops accepting; the thread ends within a poll interval.
    func stop() {
        lock.withLock { stopped = true }
    }

    private func serve(_ answer: @Sendable (String) -> [UInt8]) {
        defer { _ = closeScripted(descriptor) }
        while !lock.withLock({ stopped }) {
            var listening = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&listening, 1, 100) > 0 else { continue }
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { continue }
            let head = readHead(connection)
            lock.withLock { received.append(head) }
            let response = answer(head)
            _ = response.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            shutdown(connection, Int32(SHUT_WR))
            var sink = [UInt8](repeating: 0, count: 4096)
            var drain = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            while poll(&drain, 1, 2_000) > 0, sink.withUnsafeMutableBytes({ recv(connection, $0.baseAddress, $0.count, 0) }) > 0 {}
            _ = closeScripted(connection)
        }
    }

    /// Reads up to the blank line that ends a head (at most 64 KB, waiting up to a minute for each
    /// byte: a loaded machine may send it late).
    private func readHead(_ connection: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while bytes.count < 64 << 10, !bytes.suffix(4).elementsEqual(end) {
            var ready = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 60_000) > 0 else { break }
            let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress, 1, 0) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    deinit {
        stop()
    }

}

private func closeScripted(_ descriptor: Int32) -> Int32 { close(descriptor) }
