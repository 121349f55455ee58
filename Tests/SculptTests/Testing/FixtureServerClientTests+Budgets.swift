import Foundation
import HTTPTypes
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's budgets under a flood: of half-sent heads, and of bodies held back to exhaust
/// its memory.
extension FixtureServerClientTests {
    @Test("a client that keeps opening connections and leaving their heads half-sent keeps no one else from being served", .timeLimit(.minutes(10)))
    func halfHeadFlood() async throws {
        try await withServer(limits: .unhurried { $0.maximumConnections = 16 }) { server, baseURL in
            // The flood runs on a thread of its own (its connects and sends block), until the
            // test ends.
            let opened = Locked(0)
            let stopping = Locked(false)
            let flooding = Thread {
                var held: [RawHTTP] = []
                defer { held.forEach { $0.close() } }
                while !stopping.withLock({ $0 }) {
                    guard let connection = try? RawHTTP(baseURL) else { continue }
                    connection.send("GET /v3/users/user5 HTTP/1.1\r\nHost: x\r\n")
                    held.append(connection)
                    opened.withLock { $0 += 1 }
                    if held.count > 48 { held.removeFirst().close() }  // three times the limit, within any descriptor limit
                    Thread.sleep(forTimeInterval: 0.002)
                }
            }
            flooding.start()
            defer { stopping.withLock { $0 = true } }
            // Twice the server's places have been taken before the first request.
            #expect(try await Self.poll(until: { opened.withLock { $0 } >= 32 }))
            var request = URLRequest(url: try await server.url(for: Self.user))
            // A connection of its own for each request: at the limit the server gives the place
            // of the connection idle the longest to a newcomer, and a kept-alive connection
            // between two requests on a loaded machine may be that one.
            request.setValue("close", forHTTPHeaderField: "Connection")
            let session = URLSession(configuration: .unhurried)
            var statuses: [Int] = []
            for _ in 0..<30 {
                let (_, response) = try await session.data(for: request)
                statuses.append((response as? HTTPURLResponse)?.statusCode ?? 0)
            }
            #expect(statuses == Array(repeating: 200, count: 30))
        }
    }

    @Test("bodies held back by many clients stop at the server's budget: past it, 503; given back when a request ends", .timeLimit(.minutes(10)))
    func bufferedBodiesBudget() async throws {
        let post = Fixture(
            request: .init(method: .post, url: URL(string: "https://api.example.com/upload")!, body: Data(repeating: UInt8(ascii: "a"), count: 600 << 10)),
            response: .init(status: .created, headerFields: [.contentType: "application/json"], body: Data("{}".utf8)))
        // Generous timeouts: under ThreadSanitizer on a loaded machine, reading 600 KB can take seconds.
        let limits = FixtureServer.Limits.unhurried { $0.maximumBufferedBodies = 1 << 20 }
        try await withServer([post], options: .init(matchesBody: true, repeatsLastResponse: true), limits: limits) { server, baseURL in
            let head = "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(600 << 10)\r\n\r\n"
            let closing = head.replacingOccurrences(of: "Host: x\r\n", with: "Host: x\r\nConnection: close\r\n")
            let body = [UInt8](repeating: UInt8(ascii: "a"), count: 600 << 10)
            // The first holds back its last byte: 600 KB of the 1 MiB budget stay taken.
            let holding = try RawHTTP(baseURL)
            holding.send(Array(head.utf8) + body.dropLast())
            #expect(try await Self.poll(until: { await server.heldBodyBytes == body.count - 1 }))
            let second = try RawHTTP(baseURL)
            defer { second.close() }
            second.send(Array(closing.utf8) + body)
            let refused = RawHTTP.responses(in: await second.readAll())
            #expect(refused.map(\.status) == [503])
            // The first finishes: answered, and its bytes given back.
            holding.send([UInt8(ascii: "a")])
            let answered = await holding.readResponses(1)
            #expect(answered.map(\.status) == [201])
            holding.close()
            #expect(try await Self.poll(until: { await server.heldBodyBytes == 0 }))
            let third = try RawHTTP(baseURL)
            defer { third.close() }
            third.send(Array(closing.utf8) + body)
            let served = RawHTTP.responses(in: await third.readAll())
            #expect(served.map(\.status) == [201])
        }
    }

    /// Whether `condition` holds, asked every 20 ms until it does: a wait on what the server has
    /// done, however long a loaded machine takes (the test's time limit is the only bound).
    static func poll(until condition: () async -> Bool) async throws -> Bool {
        while await !condition() {
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
