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

/// `ModelSource` and `PagedSource`, headless: the states a view would observe, driven by loads a
/// test controls and by real loads against recorded responses.
@Suite("Reloadable sources")
@MainActor
struct SourceTests {
    struct Item: Decodable, Sendable, Equatable {
        let version: Int
    }

    static func loaded(_ version: Int, _ origin: Loaded<Item>.Origin) -> Loaded<Item> {
        Loaded(value: Item(version: version), origin: origin, response: ResponseContext(url: nil, method: .get, status: .ok, headerFields: [:]), isStale: false)
    }

    /// A description of a state, for comparing.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    static func describe(_ state: ModelSource<Item>.State) -> String {
        switch state {
        case .idle: "idle"
        case .loading(let last): "loading \(last.map { "\($0.origin) v\($0.value.version)" } ?? "nothing")"
        case .loaded(let loaded): "loaded \(loaded.origin) v\(loaded.value.version)"
        case .failed(_, let last): "failed \(last.map { "\($0.origin) v\($0.value.version)" } ?? "nothing")"
        }
    }

    /// Lets the source's task run until `condition` holds, however long a loaded machine takes
    /// (the test's time limit bounds it).
    func settle(until condition: () -> Bool) async {
        while !condition() {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// A source whose loads are streams this test feeds.
    final class Loads: Sendable {
        let streams: [(stream: AsyncThrowingStream<Loaded<Item>, any Error>, continuation: AsyncThrowingStream<Loaded<Item>, any Error>.Continuation)]
        private let next = Locked(0)

        init(count: Int) {
            streams = (0..<count).map { _ in AsyncThrowingStream.makeStream(of: Loaded<Item>.self) }
        }

        func make() -> AsyncThrowingStream<Loaded<Item>, any Error> {
            streams[next.withLock { index in defer { index += 1 }; return index }].stream
        }
    }

    @Test("a load's values replace one another while it is loading; its end makes the last one loaded")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func states() async {
        let loads = Loads(count: 1)
        let source = ModelSource { loads.make() }
        #expect(Self.describe(source.state) == "idle")
        let task = source.reload()
        #expect(Self.describe(source.state) == "loading nothing")
        loads.streams[0].continuation.yield(Self.loaded(1, .cache))
        await settle { Self.describe(source.state) == "loading cache v1" }
        #expect(Self.describe(source.state) == "loading cache v1")
        loads.streams[0].continuation.yield(Self.loaded(2, .network))
        loads.streams[0].continuation.finish()
        await task.value
        #expect(Self.describe(source.state) == "loaded network v2")
    }

    @Test("a failed load keeps the last value shown")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func failure() async {
        let loads = Loads(count: 2)
        let source = ModelSource { loads.make() }
        loads.streams[0].continuation.yield(Self.loaded(1, .network))
        loads.streams[0].continuation.finish()
        await source.reload().value
        loads.streams[1].continuation.finish(throwing: URLError(.notConnectedToInternet))
        await source.reload().value
        #expect(Self.describe(source.state) == "failed network v1")
        guard case .failed(let error, _) = source.state else { return }
        #expect((error as? URLError)?.code == .notConnectedToInternet)
    }

    @Test("a reload cancels the load before it, whose later values never reach the state")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func reloadCancels() async {
        let loads = Loads(count: 2)
        let source = ModelSource { loads.make() }
        let first = source.reload()
        let second = source.reload()
        loads.streams[0].continuation.yield(Self.loaded(1, .network))
        loads.streams[1].continuation.yield(Self.loaded(2, .network))
        loads.streams[1].continuation.finish()
        await first.value
        await second.value
        #expect(Self.describe(source.state) == "loaded network v2")
    }

    @Test("headless: cached-then-fetch against the fixture server shows the stored value, then the network's")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func headless() async throws {
        let fresh: HTTPFields = [.cacheControl: "max-age=60", .contentType: "application/json"]
        let fixtures = (1...2).map { version in
            Fixture(
                request: .init(url: URL(string: "https://api.example.com/items/1")!),
                response: .init(status: .ok, headerFields: fresh, body: Data(#"{"version":\#(version)}"#.utf8)))
        }
        try await FixtureServer.running(FixtureReplay(fixtures)) { _, baseURL in
            let session = URLSession(configuration: .unhurried)
            let cache = HTTPResponseCache(URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil))
            let request = URLRequest(url: baseURL.appending(path: "items/1"))
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Item.self))
            let source = ModelSource { session.models(for: request, serializer: serializer, as: Item.self, policy: .cachedThenFetch, cache: cache) }
            await source.reload().value
            #expect(Self.describe(source.state) == "loaded network v1")
            await source.reload().value
            #expect(Self.describe(source.state) == "loaded network v2")
        }
    }

    // MARK: - Pages

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    static func githubSource() throws -> (PagedSource<PaginationTests.Issue>, FixtureReplay) {
        let replay = FixtureReplay(try PaginationTests.githubPages())
        let session = replay.makeSession()
        let request = URLRequest(url: try #require(URL(string: "https://api.github.com\(PaginationTests.firstPage)")))
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([PaginationTests.Issue].self))
        return (PagedSource { session.pages(for: request, serializer: serializer, as: [PaginationTests.Issue].self) }, replay)
    }

    @Test("pages are appended one request at a time until none follows")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func pagedSource() async throws {
        let (source, replay) = try Self.githubSource()
        #expect(source.items.isEmpty && source.hasMore)
        let first = source.loadNextPage()
        // Asked again while loading: the same load, not a second request.
        let again = source.loadNextPage()
        await first.value
        await again.value
        #expect(source.items.count == 3)
        #expect(replay.unusedInteractions.count == 4)
        for _ in 0..<3 { await source.loadNextPage().value }
        #expect(source.hasMore)
        await source.loadNextPage().value
        // Known with the last page, not at a call that finds nothing.
        #expect(source.items.count == 13)
        #expect(source.pageCount == 5)
        #expect(!source.hasMore)
        #expect(replay.unusedInteractions.isEmpty)
    }

    @Test("reload forgets the items and loads the first page again")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func pagedReload() async throws {
        let (source, _) = try Self.githubSource()
        await source.loadNextPage().value
        await source.loadNextPage().value
        #expect(source.items.count == 6)
        await source.reload().value
        // The replay used its five pages once each: the first page again is a miss, a failure
        // that leaves the list empty.
        #expect(source.items.isEmpty)
        guard case .failed(let error) = source.state else {
            Issue.record("expected a failure, got \(source.state)")
            return
        }
        #expect((error as? PageError)?.page == 1)
    }

    @Test("a next closure that failed once is asked again: the source goes on from the page it failed on")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func pagedSourceAfterClosureFailure() async throws {
        struct Transient: Error {}
        final class FailOnce: @unchecked Sendable {
            private let lock = NSLock()
            private var failed = false
            func check() throws {
                try lock.withLock {
                    guard failed else {
                        failed = true
                        throw Transient()
                    }
                }
            }
        }
        let once = FailOnce()
        let replay = FixtureReplay(try PaginationTests.githubPages())
        let session = replay.makeSession()
        let request = URLRequest(url: try #require(URL(string: "https://api.github.com\(PaginationTests.firstPage)")))
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([PaginationTests.Issue].self))
        let source = PagedSource {
            session.pages(for: request, serializer: serializer, as: [PaginationTests.Issue].self) { page in
                try once.check()
                return page.nextLinkRequest
            }
        }
        await source.loadNextPage().value
        #expect(source.items.count == 3)
        await source.loadNextPage().value
        guard case .failed(let error) = source.state else {
            Issue.record("expected the closure's failure, got \(source.state)")
            return
        }
        #expect((error as? PageError)?.underlying is Transient)
        for _ in 0..<4 { await source.loadNextPage().value }
        #expect(source.items.count == 13)
        #expect(source.pageCount == 5)
        #expect(!source.hasMore)
    }

    @Test("a page load cancelled in flight leaves the list able to load that page again, and the pages after it")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func cancelledPage() async throws {
        // Page 1 links to page 2, which ends the list.
        let server = try HeldFirstRequest { head in
            let second = head.hasPrefix("GET /items?page=2 ")
            let body = second ? #"[{"number":3}]"# : #"[{"number":1},{"number":2}]"#
            let link = second ? "" : "Link: </items?page=2>; rel=\"next\"\r\n"
            return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(link)Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        }
        defer { server.stop() }
        let source = server.source()
        let loading = source.loadNextPage()
        await server.firstArrived()
        loading.cancel()
        await loading.value
        server.release()
        #expect(source.items.isEmpty)
        #expect(source.hasMore)
        #expect(source.pageCount == 0)
        guard case .idle = source.state else {
            Issue.record("expected idle after the cancelled page, got \(source.state)")
            return
        }
        await source.loadNextPage().value
        await source.loadNextPage().value
        #expect(source.items.map(\.number) == [1, 2, 3])
        #expect(source.pageCount == 2)
        #expect(!source.hasMore)
    }

    @Test("a page asked for again as soon as its load is cancelled, before that load has ended, is loaded")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func pageAskedAgainAtOnce() async throws {
        let server = try HeldFirstRequest { _ in
            let body = #"[{"number":1}]"#
            return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        }
        defer { server.stop() }
        let source = server.source()
        let loading = source.loadNextPage()
        await server.firstArrived()
        loading.cancel()
        let again = source.loadNextPage()
        #expect(again != loading)
        server.release()
        await loading.value
        await again.value
        #expect(source.items.map(\.number) == [1])
        #expect(source.pageCount == 1)
    }
}

/// A server that holds the first request it receives until the test releases it, and answers
/// every request with `answer(head)`: for a test that acts while a page load is in flight.
private final class HeldFirstRequest: Sendable {
    private let server: ScriptedServer
    private let arrivals: AsyncStream<Void>
    private let gate = DispatchSemaphore(value: 0)

    init(answer: @escaping @Sendable (String) -> String) throws {
        let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
        let held = Locked(true)
        let gate = gate
        self.arrivals = arrivals
        server = try ScriptedServer { head in
            if held.withLock({ first in defer { first = false }; return first }) {
                arrived.yield()
                gate.wait()
            }
            return answer(head)
        }
    }

    /// A list of issues paged from `/items` through a session that waits as long as a test may.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor func source() -> PagedSource<PaginationTests.Issue> {
        let session = URLSession(configuration: .unhurried)
        let request = URLRequest(url: server.url("/items"))
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([PaginationTests.Issue].self))
        return PagedSource { session.pages(for: request, serializer: serializer, as: [PaginationTests.Issue].self) }
    }

    /// Returns once the first request has arrived and is being held.
    func firstArrived() async {
        for await _ in arrivals { return }
    }

    /// Lets the held request be answered.
    func release() { gate.signal() }

    func stop() { server.stop() }
}
