// FixtureServer's HTTP layer, fed raw bytes on a real loopback connection: whatever arrives, the
// server answers with well-formed responses (or none) and closes when the client does; only a
// request line naming a recorded path gets a recorded response (no header steers matching);
// and after every input a plain request on a new connection is still served.
import Foundation
import FuzzSupport
import HTTPTypes
import SculptTesting

#if canImport(Glibc)
import Glibc
#endif

// Every recorded body is at most 14 bytes, which `Data` keeps inline: a longer one lives behind
// a pointer that Swift tags with spare bits inside `Data`'s enum, which LeakSanitizer does not
// recognize, so a body held for the whole run would be reported as leaked.
let userBody = Array(#"{"id":5}"#.utf8)
let fixtures = [
    Fixture(
        request: .init(url: URL(string: "https://api.example.com/v3/users/user5")!),
        response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(userBody))),
    Fixture(request: .init(method: .post, url: URL(string: "https://api.example.com/v3/users")!), response: .init(status: .created, body: Data("created".utf8))),
    Fixture(request: .init(url: URL(string: "https://api.example.com/cached")!), response: .init(status: .notModified, body: Data("stale".utf8))),
    Fixture(request: .init(url: URL(string: "https://api.example.com/go")!), response: .init(status: .found, headerFields: [.location: "https://api.example.com/v3/users/user5"])),
    Fixture(request: .init(url: URL(string: "https://api.example.com/early")!), response: .init(status: .init(code: 101))),
]
// A small head limit, so that inputs of a few kilobytes reach it.
let server = FixtureServer(
    replay: FixtureReplay(fixtures, options: .init(matchesBody: false, repeatsLastResponse: true)),
    limits: .init(maximumHeadSize: 4096, maximumBodySize: 8192, headTimeout: .seconds(2), idleTimeout: .seconds(2)))
/// The server's port. Started from a task while this thread waits, so that the values above stay
/// globals: top-level code with `await` would hold them in a task, which LeakSanitizer reports.
let port: UInt16 = {
    let started = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var port: UInt16 = 0
    Task.detached {
        port = UInt16((try? await server.start())?.port ?? 0)
        started.signal()
    }
    started.wait()
    require(port != 0, "the server did not start")
    return port
}()

/// Sends `bytes` on a new connection, ends sending, and returns everything until the server closes;
/// `nil` when it neither closes nor answers within three seconds.
func exchange(_ bytes: Data) -> [UInt8]? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    require(descriptor >= 0, "no socket")
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    if connected != 0, errno == EINTR {
        // libFuzzer's timer signal interrupted the call; the connection goes on being made.
        var writable = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while poll(&writable, 1, 3000) < 0, errno == EINTR {}
        var failure: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
        require(failure == 0, "the server refused a connection: \(String(cString: strerror(failure)))")
    } else {
        require(connected == 0, "the server refused a connection: \(String(cString: strerror(errno)))")
    }
    // Closed with a reset once read to the end, so that tens of thousands of connections a
    // minute leave no TIME_WAIT behind to exhaust the ephemeral ports.
    var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    var offset = 0
    while offset < bytes.count {
        let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
        if sent < 0, errno == EINTR { continue }
        guard sent > 0 else { break }  // the server may close early, after refusing the request
        offset += sent
    }
    shutdown(descriptor, Int32(SHUT_WR))
    var received: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    let deadline = ContinuousClock.now + .seconds(3)
    while true {
        var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let left = ContinuousClock.now.duration(to: deadline).components
        let waited = poll(&ready, 1, Int32(max(0, left.seconds * 1000 + left.attoseconds / 1_000_000_000_000_000)))
        if waited < 0, errno == EINTR { continue }  // libFuzzer's timer signal
        guard waited > 0 else { return nil }
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return received }
        received += chunk[..<count]
    }
}

/// The responses in `bytes`: status and body. A HEAD answer states a length and sends no body, so
/// a body is taken only when it does not start another response.
func responses(_ bytes: [UInt8]) -> [(status: Int, body: ArraySlice<UInt8>)] {
    var found: [(status: Int, body: ArraySlice<UInt8>)] = []
    var rest = bytes[...]
    while !rest.isEmpty {
        require(rest.starts(with: Array("HTTP/1.1 ".utf8)), "the server sent bytes that are not a response: \(String(decoding: rest.prefix(80), as: UTF8.self))")
        guard let end = rest.firstRange(of: Array("\r\n\r\n".utf8)) else {
            require(false, "a response head does not end")
            return found
        }
        let head = String(decoding: rest[..<end.lowerBound], as: UTF8.self)
        let status = Int(head.dropFirst(9).prefix(3)) ?? -1
        rest = rest[end.upperBound...]
        if status == 100 { continue }
        let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst(15).trimmingCharacters(in: .whitespaces)) } ?? 0
        let body = rest.starts(with: Array("HTTP/1.1 ".utf8)) ? rest.prefix(0) : rest.prefix(length)
        require(body.count == length || body.isEmpty, "a response's body is cut short")
        found.append((status, body))
        rest = rest.dropFirst(body.count)
    }
    return found
}

let answered: Set<Int> = [200, 201, 302, 304, 400, 404, 413, 414, 417, 431, 501, 502, 505]
let plainRequest = "GET /v3/users/user5 HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n"

runFuzzer { data in
    guard let bytes = exchange(data) else {
        require(false, "the server neither answered nor closed within 3 s after the client ended sending")
        return
    }
    for (status, body) in responses(bytes) {
        require(answered.contains(status), "unexpected status \(status)")
        if status == 200 {
            require(data.range(of: Data("/v3/users/user5 HTTP/1.".utf8)) != nil, "a request whose request line names no recorded path got a recorded response")
            require(Array(body) == userBody || body.isEmpty, "a 200 with a body that is not the recorded one")
        }
    }
    let plain = exchange(Data(plainRequest.utf8)).map(responses)
    require(plain?.map(\.status) == [200], "the server stopped serving: a plain request got \(String(describing: plain?.map(\.status)))")
}
