import Foundation
import SculptTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Cases {
    /// The fixture server serving ordinary clients while others attack it, beside the same server
    /// left alone: the ratio is how much longer a request takes (2.0 is half the rate).
    static func serving() -> [Case] {
        [
            Case(name: "fixture server, a request while 700 connections trickle bodies", baselineName: "the same, no trickling", target: 2.0) {
                let attacked = try ServedFixture(), alone = try ServedFixture()
                let attack = BodyTrickle(port: attacked.port, connections: 700)
                attack.waitUntilConnected()
                return Sides(
                    sculpt: { withExtendedLifetime(attack) { consume(attacked.request()) } },
                    baseline: { consume(alone.request()) })
            }
        ]
    }
}

/// A fixture server with one recorded user, and a client that asks for it on a new connection
/// each time (`Connection: close`), reading the answer to its end, as a script or a test does.
final class ServedFixture: Sendable {
    let server: FixtureServer
    let port: UInt16

    init() throws {
        guard let url = URL(string: "https://api.github.com/users/octocat") else { throw URLError(.badURL) }
        let fixture = Fixture(request: .init(url: url), response: .init(status: .ok, headerFields: Payloads.githubHeaders, body: Payloads.userJSON))
        let server = FixtureServer(replay: FixtureReplay([fixture], options: .init(repeatsLastResponse: true)))
        let baseURL = try LoadingSetup.wait { try await server.start() }
        self.server = server
        port = UInt16(baseURL.port ?? 0)
    }

    /// One request answered `200`, asked again on a new connection until it is: the bytes read.
    /// A `503` or a connection closed unanswered is not a request served.
    func request() -> Int {
        while true {
            let answer = exchange()
            if answer.starts(with: Array("HTTP/1.1 200 ".utf8)) { return answer.count }
        }
    }

    /// One exchange on a new connection: every byte the server sent before it closed.
    private func exchange() -> [UInt8] {
        let socket = RawSocket.open(port: port)
        guard socket >= 0 else { return [] }
        defer { close(socket) }
        guard RawSocket.sendAll(socket, Array("GET /users/octocat HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8)) else { return [] }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return received }
            received += chunk[..<count]
        }
    }
}

/// Connections that each send a request head announcing a 1 MB body, then one byte of it every
/// 250 ms; one the server closes is opened again at once. On a thread of its own, until the value
/// is released.
final class BodyTrickle: Sendable {
    private let control = Control()

    init(port: UInt16, connections: Int) {
        let control = self.control
        let thread = Thread { Self.run(port: port, connections: connections, control) }
        thread.start()
    }

    deinit {
        control.stop()
    }

    /// Returns once every connection has been opened once.
    func waitUntilConnected() {
        control.waitUntilConnected()
    }

    /// What the thread and the value share.
    private final class Control: @unchecked Sendable {
        private let state = NSCondition()
        private var stopped = false
        private var connected = false

        var isStopped: Bool { state.withLock { stopped } }

        func stop() {
            state.withLock { stopped = true }
        }

        func didConnect() {
            state.withLock {
                connected = true
                state.broadcast()
            }
        }

        func waitUntilConnected() {
            state.withLock {
                while !connected { state.wait() }
            }
        }
    }

    private static func run(port: UInt16, connections: Int, _ control: Control) {
        let head = Array("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n".utf8)
        func open() -> Int32 {
            let socket = RawSocket.open(port: port)
            if socket >= 0 { _ = RawSocket.sendAll(socket, head) }
            return socket
        }
        var sockets = (0..<connections).map { _ in open() }
        control.didConnect()
        var byte = UInt8(ascii: "a")
        var sink = [UInt8](repeating: 0, count: 4096)
        while !control.isStopped {
            for index in sockets.indices {
                // What the server answered (a refusal) is read and dropped; a closed or refused
                // connection is opened again.
                while sockets[index] >= 0, sink.withUnsafeMutableBytes({ recv(sockets[index], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
                if sockets[index] < 0 || send(sockets[index], &byte, 1, RawSocket.sendFlags) != 1 {
                    if sockets[index] >= 0 { close(sockets[index]) }
                    sockets[index] = open()
                }
            }
            Thread.sleep(forTimeInterval: 0.25)
        }
        for socket in sockets where socket >= 0 { close(socket) }
    }
}

/// Blocking loopback sockets for the server cases.
enum RawSocket {
    #if canImport(Glibc)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    static let sendFlags: Int32 = 0
    private static let streamType = SOCK_STREAM
    #endif

    private static func socket() -> Int32 { systemSocket(AF_INET, streamType, 0) }

    /// A socket connected to 127.0.0.1 at `port`, or -1.
    static func open(port: UInt16) -> Int32 {
        let socket = Self.socket()
        guard socket >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            return -1
        }
        return socket
    }

    /// Sends every byte; `false` when the peer went away first.
    static func sendAll(_ socket: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { systemSend(socket, $0.baseAddress.map { $0 + offset }, bytes.count - offset, sendFlags) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}

private func systemSocket(_ domain: Int32, _ type: Int32, _ proto: Int32) -> Int32 { socket(domain, type, proto) }
private func systemConnect(_ socket: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 { connect(socket, address, length) }
private func systemSend(_ socket: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int { send(socket, bytes, count, flags) }
