import Foundation
import HTTPTypes
import Sculpt
import SculptLoading
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads cancelled at any moment, many at once: each ends at once, without an error, and the
/// process goes on. (Through FoundationNetworking's own `data(for:)`, such
/// cancellations sooner or later hang every request of the process.)
@Suite("Loads cancelled at any moment", .timeLimit(.minutes(10)))
struct LoadCancellationTests {
    struct Item: Decodable, Sendable {
        let version: Int
    }

    /// With a URL cache, FoundationNetworking cannot cancel a request safely, so on Linux it is
    /// left to finish: the loads must end all the same.
    @Test("loads, page loads and typed loads cancelled at random moments, eight at a time, all end", arguments: [false, true])
    func randomCancellations(withURLCache: Bool) async throws {
        let item = try Fixture.stub(.get, "/items", json: #"[{"version":1}]"#)
        try await FixtureServer.running(FixtureReplay([item], options: .init(repeatsLastResponse: true))) { _, base in
            let configuration = URLSessionConfiguration.unhurried
            if withURLCache { configuration.urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil) }
            let session = URLSession(configuration: configuration)
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Item].self))
            let request = URLRequest(url: base.appending(path: "items"))
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for round in 0..<75 {
                            let load = Task {
                                switch (worker + round) % 3 {
                                case 0:
                                    for try await _ in session.models(for: request, serializer: serializer, policy: .networkOnly) {}
                                case 1:
                                    for try await _ in session.pages(for: request, serializer: serializer) {}
                                default:
                                    _ = try await session.model(for: request, serializer: serializer, as: [Item].self)
                                }
                            }
                            try? await Task.sleep(for: .microseconds(Int.random(in: 0...20_000)))
                            load.cancel()
                            _ = await load.result
                        }
                    }
                }
            }
        }
    }

    @Test("a session invalidated on its delegate queue while its loads follow redirects ends them all, and the process goes on")
    func invalidatedWhileRedirecting() async throws {
        let server = try ScriptedServer { head in
            head.hasPrefix("GET /old ")
                ? "HTTP/1.1 302 Found\r\nLocation: /new\r\nContent-Length: 0\r\n\r\n"
                : "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n[{\"version\":1}]"
        }
        defer { server.stop() }
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Item].self))
        let request = URLRequest(url: server.url("/old"))
        for round in 1...40 {
            let session = URLSession(configuration: .unhurried, delegate: CrossOriginRedirects(), delegateQueue: nil)
            let loads = (0..<8).map { _ in
                Task { for try await _ in session.models(for: request, serializer: serializer, policy: .networkOnly) {} }
            }
            // Every load has made its request (a load that made it after the invalidation would
            // stop the process, as on Apple platforms); some are being redirected now.
            while server.heads.count(where: { $0.hasPrefix("GET /old ") }) < round * 8 {
                try await Task.sleep(for: .milliseconds(1))
            }
            try? await Task.sleep(for: .microseconds(Int.random(in: 0...2_000)))
            session.delegateQueue.addOperation { session.invalidateAndCancel() }
            for load in loads { _ = await load.result }
        }
    }

    /// The loads a caller gives up, by the entry it took.
    enum Entry: String, CaseIterable, Sendable {
        case models, pages, model
    }

    @Test("a load given up while its server is silent cancels its request: the connection is closed", arguments: Entry.allCases)
    func givenUpRequestIsCancelled(entry: Entry) async throws {
        let silent = try SilentServer()
        let session = URLSession(configuration: .unhurried)
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Item].self))
        let request = URLRequest(url: silent.url)
        let load = Task {
            switch entry {
            case .models: for try await _ in session.models(for: request, serializer: serializer, policy: .networkOnly) {}
            case .pages: for try await _ in session.pages(for: request, serializer: serializer) {}
            case .model: _ = try await session.model(for: request, serializer: serializer, as: [Item].self)
            }
        }
        await silent.requestReceived()
        load.cancel()
        _ = await load.result
        // Only a cancelled request closes the connection; one left running would keep it open
        // until the time limit.
        await silent.clientClosed()
        try await Self.drained(session)
    }

    /// Runs `load` in a task cancelled 0 to `upTo` microseconds after it starts, `rounds` times on
    /// each of eight workers, and returns the errors the loads ended with.
    static func cancelled(rounds: Int, upTo microseconds: Int, _ load: @escaping @Sendable (Int) async throws -> Void) async -> [String] {
        let errors = Locked<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<rounds {
                        let task = Task { try await load(worker + round) }
                        try? await Task.sleep(for: .microseconds(Int.random(in: 0...microseconds)))
                        task.cancel()
                        if case .failure(let error) = await task.result { errors.withLock { $0.append("\(error)") } }
                    }
                }
            }
        }
        return errors.withLock { $0 }
    }

    /// Waits until `session` has no task left: every cancelled request has left it.
    static func drained(_ session: URLSession) async throws {
        func isEmpty() async -> Bool {
            await withCheckedContinuation { (done: CheckedContinuation<Bool, Never>) in session.getAllTasks { done.resume(returning: $0.isEmpty) } }
        }
        while await !isEmpty() { try await Task.sleep(for: .milliseconds(10)) }
    }

    @Test("a load cancelled while its request fails in transport ends without an error")
    func failingRequestsEndQuietly() async throws {
        let session = URLSession.refusingConnections()
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Item].self))
        let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:1/items")))
        let errors = await Self.cancelled(rounds: 50, upTo: 500) { index in
            if index % 2 == 0 {
                for try await _ in session.models(for: request, serializer: serializer, policy: .networkOnly) {}
            } else {
                for try await _ in session.pages(for: request, serializer: serializer) {}
            }
        }
        // A load that finished before its cancellation fails as refused; one cancelled first, not.
        #expect(errors.allSatisfy { $0.contains("Could not connect") || $0.contains("-1004") }, "\(errors.prefix(3))")
        try await Self.drained(session)
    }

    @Test("passthrough replays cancelled at random moments, eight at a time, all end; none is left in the session")
    func passthroughReplays() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-cancel-\(UUID())/empty.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        try Cassette([]).encoded().write(to: file)
        let item = try Fixture.stub(.get, "/items", json: #"[{"version":1}]"#)
        try await FixtureServer.running(FixtureReplay([item], options: .init(repeatsLastResponse: true))) { _, base in
            let recording = try CassetteRecording(file: file, mode: .newEpisodes, playback: .passthrough, configuration: .unhurried)
            let url = base.appending(path: "items")
            _ = await Self.cancelled(rounds: 40, upTo: 5_000) { _ in _ = try await recording.session.data(from: url) }
            try await Self.drained(recording.session)
        }
    }
}
