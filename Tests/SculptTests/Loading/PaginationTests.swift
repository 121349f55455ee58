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

/// `URLSession.pages(for:serializer:)` against GitHub's recorded five pages of issues (over the
/// loopback fixture server and through a replay session) and against page sets with a cursor in
/// the body.
@Suite("Pagination")
struct PaginationTests {
    struct Issue: Decodable, Sendable, Equatable {
        let number: Int
    }

    /// A Stack Exchange page: the items and whether more follow.
    struct Questions: Decodable, Sendable {
        let items: [Issue]
        let hasMore: Bool

        enum CodingKeys: String, CodingKey {
            case items
            case hasMore = "has_more"
        }
    }

    static func githubPages() throws -> [Fixture] {
        try Cassette(contentsOf: Paths.fixtures.appending(path: "cassettes/github-paginate-issues.json")).interactions
    }

    static let firstPage = "/repos/octokit-fixture-org/paginate-issues/issues?per_page=3"

    let issues = ModelResponseSerializer(matcher: StaticModelMatcher([Issue].self))

    func collect<Value>(_ pages: PageSequence<Value>) async -> (pages: [Page<Value>], error: (any Error)?) {
        var collected: [Page<Value>] = []
        do {
            for try await page in pages { collected.append(page) }
            return (collected, nil)
        } catch {
            return (collected, error)
        }
    }

    func withServer(_ fixtures: [Fixture], _ body: (FixtureServer) async throws -> Void) async throws {
        try await FixtureServer.running(FixtureReplay(fixtures)) { server, _ in try await body(server) }
    }

    // MARK: - Link: rel="next"

    @Test("GitHub's five recorded pages are followed by rel=\"next\" over the fixture server, which keeps the links on itself")
    func githubOverHTTP() async throws {
        try await withServer(try Self.githubPages()) { server in
            let request = URLRequest(url: try await server.url(for: Self.firstPage))
            let result = await collect(URLSession(configuration: .unhurried).pages(for: request, serializer: issues, as: [Issue].self))
            #expect(result.error == nil)
            #expect(result.pages.map(\.number) == [1, 2, 3, 4, 5])
            #expect(result.pages.map(\.value.count) == [3, 3, 3, 3, 1])
            #expect(result.pages.allSatisfy { $0.response.url?.port == request.url?.port })
            #expect(Set(result.pages.flatMap { $0.value.map(\.number) }).count == 13)
            #expect(server.replay.unusedInteractions.isEmpty)
        }
    }

    @Test("the same pages through a replay session, which answers the recorded host itself")
    func githubThroughReplay() async throws {
        let replay = FixtureReplay(try Self.githubPages())
        let request = URLRequest(url: try #require(URL(string: "https://api.github.com\(Self.firstPage)")))
        let result = await collect(replay.makeSession().pages(for: request, serializer: issues, as: [Issue].self))
        #expect(result.pages.map(\.value.count) == [3, 3, 3, 3, 1])
        #expect(result.pages.last?.request.url?.query() == "per_page=3&page=5")
        #expect(replay.unusedInteractions.isEmpty)
    }

    @Test("a page is requested only when the iteration asks for it")
    func pagesAreLoadedOnDemand() async throws {
        let replay = FixtureReplay(try Self.githubPages())
        let request = URLRequest(url: try #require(URL(string: "https://api.github.com\(Self.firstPage)")))
        var pages = replay.makeSession().pages(for: request, serializer: issues, as: [Issue].self).makeAsyncIterator()
        #expect(replay.unusedInteractions.count == 5)
        _ = try await pages.next()
        #expect(replay.unusedInteractions.count == 4)
        _ = try await pages.next()
        #expect(replay.unusedInteractions.count == 3)
    }

    @Test("maximumPages stops the load; a next link that repeats a page ends it")
    func limits() async throws {
        let replay = FixtureReplay(try Self.githubPages())
        let request = URLRequest(url: try #require(URL(string: "https://api.github.com\(Self.firstPage)")))
        let two = await collect(replay.makeSession().pages(for: request, serializer: issues, as: [Issue].self, maximumPages: 2))
        #expect(two.pages.count == 2)
        #expect(two.error == nil)

        let looping = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/loop"))),
            response: .init(status: .ok, headerFields: [.contentType: "application/json", .literal("Link"): "</loop>; rel=\"next\""], body: Data("[]".utf8)))
        let loop = FixtureReplay([looping], options: .init(repeatsLastResponse: true))
        let once = await collect(loop.makeSession().pages(for: URLRequest(url: try #require(URL(string: "https://api.example.com/loop"))), serializer: issues, as: [Issue].self))
        #expect(once.pages.count == 1)
        #expect(once.error == nil)
    }

    // MARK: - A cursor in the body

    @Test("Stack Exchange's has_more and page number, through a closure")
    func cursorInBody() async throws {
        let fixtures = try (1...3).map { page in
            Fixture(
                request: .init(url: try #require(URL(string: "https://api.stackexchange.com/2.3/questions?site=stackoverflow&page=\(page)"))),
                response: .init(
                    status: .ok, headerFields: [.contentType: "application/json"],
                    body: Data(#"{"items":[{"number":\#(page)}],"has_more":\#(page < 3)}"#.utf8)))
        }
        try await withServer(fixtures) { server in
            let request = URLRequest(url: try await server.url(for: "/2.3/questions?site=stackoverflow&page=1"))
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Questions.self))
            let pages = URLSession(configuration: .unhurried).pages(for: request, serializer: serializer, as: Questions.self) { page in
                page.value.hasMore ? page.request(setting: "page", to: String(page.number + 1)) : nil
            }
            let result = await collect(pages)
            #expect(result.error == nil)
            #expect(result.pages.flatMap { $0.value.items.map(\.number) } == [1, 2, 3])
        }
    }

    /// Stack Exchange's wrapper as an envelope's metadata: the items are the model, at `items`.
    struct Wrapper: Decodable, Sendable {
        let hasMore: Bool
        enum CodingKeys: String, CodingKey { case hasMore = "has_more" }
    }

    @Test("an envelope's pages: the metadata beside a model of the type asked for; another type is a mismatch")
    func envelopePages() async throws {
        let fixtures = try (1...3).map { page in
            Fixture(
                request: .init(url: try #require(URL(string: "https://api.stackexchange.com/2.3/questions?page=\(page)"))),
                response: .init(
                    status: .ok, headerFields: [.contentType: "application/json"],
                    body: Data(#"{"items":[{"number":\#(page)}],"has_more":\#(page < 3)}"#.utf8)))
        }
        try await withServer(fixtures + fixtures.prefix(1) + fixtures.prefix(1)) { server in
            let request = URLRequest(url: try await server.url(for: "/2.3/questions?page=1"))
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Issue].self, at: "items")).enveloped(in: Wrapper.self)
            let session = URLSession(configuration: .unhurried)
            let pages = session.pages(for: request, serializer: serializer, as: [Issue].self) { page in
                page.value.meta.hasMore ? page.request(setting: "page", to: String(page.number + 1)) : nil
            }
            let result = await collect(pages)
            #expect(result.error == nil)
            #expect(result.pages.flatMap { $0.value.value.map(\.number) } == [1, 2, 3])
            #expect(result.pages.map(\.value.meta.hasMore) == [true, true, false])

            var loaded: [Envelope<Wrapper, [Issue]>] = []
            for try await value in session.models(for: request, serializer: serializer, as: [Issue].self, policy: .networkOnly) {
                loaded.append(value.value)
            }
            #expect(loaded.map(\.meta.hasMore) == [true])

            let mismatched = await collect(session.pages(for: request, serializer: serializer, as: [Questions].self))
            let error = try #require(mismatched.error as? PageError)
            #expect((error.underlying as? SculptError)?.reason.name == "typeMismatch")
        }
    }

    /// A Stripe list: `{"object":"list","data":[...],"has_more":true}`; the next page starts after
    /// the last object's id.
    struct StripeList: Decodable, Sendable {
        struct Object: Decodable, Sendable { let id: String }
        let data: [Object]
        let has_more: Bool
    }

    /// A Slack page: the items and `response_metadata.next_cursor`, empty on the last page.
    struct SlackChannels: Decodable, Sendable {
        struct Channel: Decodable, Sendable { let id: String }
        struct Metadata: Decodable, Sendable { let next_cursor: String }
        let channels: [Channel]
        let response_metadata: Metadata
    }

    static func page(_ path: String, _ body: String) throws -> Fixture {
        Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com\(path)"))),
            response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(body.utf8)))
    }

    @Test("Stripe's has_more and starting_after, through a closure")
    func stripeCursor() async throws {
        // The shape of Stripe's list objects (docs.stripe.com/api/pagination); ids as Stripe writes them.
        let fixtures = try [
            Self.page("/v1/customers?limit=2", #"{"object":"list","url":"/v1/customers","has_more":true,"data":[{"id":"cus_1","object":"customer"},{"id":"cus_2","object":"customer"}]}"#),
            Self.page("/v1/customers?limit=2&starting_after=cus_2", #"{"object":"list","url":"/v1/customers","has_more":true,"data":[{"id":"cus_3","object":"customer"},{"id":"cus_4","object":"customer"}]}"#),
            Self.page("/v1/customers?limit=2&starting_after=cus_4", #"{"object":"list","url":"/v1/customers","has_more":false,"data":[{"id":"cus_5","object":"customer"}]}"#),
        ]
        try await withServer(fixtures) { server in
            let request = URLRequest(url: try await server.url(for: "/v1/customers?limit=2"))
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(StripeList.self))
            let pages = URLSession(configuration: .unhurried).pages(for: request, serializer: serializer, as: StripeList.self) { page in
                guard page.value.has_more, let last = page.value.data.last else { return nil }
                return page.request(setting: "starting_after", to: last.id)
            }
            let result = await collect(pages)
            #expect(result.error == nil)
            #expect(result.pages.flatMap { $0.value.data.map(\.id) } == ["cus_1", "cus_2", "cus_3", "cus_4", "cus_5"])
            #expect(server.replay.unusedInteractions.isEmpty)
        }
    }

    @Test("Slack's response_metadata.next_cursor, through a closure; an empty cursor ends the load")
    func slackCursor() async throws {
        // The shape of Slack's cursor pagination (api.slack.com/docs/pagination): base64 cursors.
        let fixtures = try [
            Self.page("/api/conversations.list?limit=2", #"{"ok":true,"channels":[{"id":"C1"},{"id":"C2"}],"response_metadata":{"next_cursor":"dGVhbTpDMg=="}}"#),
            Self.page("/api/conversations.list?limit=2&cursor=dGVhbTpDMg%3D%3D", #"{"ok":true,"channels":[{"id":"C3"}],"response_metadata":{"next_cursor":""}}"#),
        ]
        try await withServer(fixtures) { server in
            let request = URLRequest(url: try await server.url(for: "/api/conversations.list?limit=2"))
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(SlackChannels.self))
            let pages = URLSession(configuration: .unhurried).pages(for: request, serializer: serializer, as: SlackChannels.self) { page in
                let cursor = page.value.response_metadata.next_cursor
                return cursor.isEmpty ? nil : page.request(setting: "cursor", to: cursor)
            }
            let result = await collect(pages)
            #expect(result.error == nil)
            #expect(result.pages.flatMap { $0.value.channels.map(\.id) } == ["C1", "C2", "C3"])
        }
    }

    @Test("a page that fails is named, with its URL, and the pages before it were given")
    func failingPage() async throws {
        let ok = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/items?page=1&access_token=secret1"))),
            response: .init(
                status: .ok,
                headerFields: [.contentType: "application/json", .literal("Link"): "<https://api.example.com/items?page=2&access_token=secret1>; rel=\"next\""],
                body: Data(#"[{"number":1}]"#.utf8)))
        let broken = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/items?page=2&access_token=secret1"))),
            response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(#"{"not":"a list"}"#.utf8)))
        let replay = FixtureReplay([ok, broken])
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/items?page=1&access_token=secret1")))
        let result = await collect(replay.makeSession().pages(for: request, serializer: issues, as: [Issue].self))
        #expect(result.pages.count == 1)
        let failure = try #require(result.error as? PageError)
        #expect(failure.page == 2)
        #expect(failure.url?.query()?.contains("page=2") == true)
        #expect(failure.underlying is SculptError)
        #expect(failure.description.hasPrefix("Page 2 of the load failed"))
        #expect(!failure.description.contains("secret1"))
    }

    // MARK: - Links

    @Test("Link values: the next link is found among others, quoted commas, several types, any case, relative", arguments: [
        (#"<https://a.example/p?page=2>; rel="next", <https://a.example/p?page=5>; rel="last""#, "https://a.example/p?page=2"),
        (#"<https://a.example/p?page=5>; rel="last", <https://a.example/p?page=2>; REL="Next""#, "https://a.example/p?page=2"),
        (#"<https://a.example/x>; title="a, b"; rel="prev", <https://a.example/y>; rel="next last""#, "https://a.example/y"),
        (#"</items?cursor=abc>; rel=next"#, "https://api.example.com/items?cursor=abc"),
        (#"<mailto:a@example.com>; rel="next""#, nil),
        (#"<https://a.example/p?page=1>; rel="prev""#, nil),
        // a `;` in a quoted parameter ended it.
        (#"<https://a.example/x>; title="a;rel=next"; rel="prev", <https://a.example/y>; rel="next""#, "https://a.example/y"),
        // quoted pairs, and a link about another resource.
        (#"<https://a.example/x>; title="a\", <https://evil.example/>; rel=next""#, nil),
        (#"<https://a.example/x>; title="a\"; rel=next""#, nil),
        (#"<https://a.example/x>; anchor="https://other.example/"; rel=next"#, nil),
        ("", nil),
    ] as [(String, String?)])
    func nextLinks(value: String, next: String?) throws {
        let page = Page(
            value: 0, response: ResponseContext(url: URL(string: "https://api.example.com/items"), method: .get, status: .ok, headerFields: [.literal("Link"): value]),
            request: URLRequest(url: try #require(URL(string: "https://api.example.com/items"))), number: 1)
        #expect(page.nextLink?.absoluteString == next)
    }

    @Test("credentials follow a next link on the same origin only")
    func credentialsStayOnTheirOrigin() throws {
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/items")))
        request.setValue("Bearer live", forHTTPHeaderField: "Authorization")
        request.setValue("live", forHTTPHeaderField: "X-Api-Key")
        request.setValue("live", forHTTPHeaderField: "Private-Token")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (link, keepsCredentials) in [("https://api.example.com/items?page=2", true), ("https://evil.example/items?page=2", false), ("http://api.example.com/items?page=2", false)] {
            let page = Page(
                value: 0, response: ResponseContext(url: request.url, method: .get, status: .ok, headerFields: [.literal("Link"): "<\(link)>; rel=\"next\""]),
                request: request, number: 1)
            let next = try #require(page.nextLinkRequest)
            #expect(next.url?.absoluteString == link)
            for credential in ["Authorization", "X-Api-Key", "Private-Token"] {
                #expect((next.value(forHTTPHeaderField: credential) != nil) == keepsCredentials, "\(credential) to \(link)")
            }
            #expect(next.value(forHTTPHeaderField: "Accept") == "application/json")
        }
    }

    // MARK: - Edge cases

    @Test("request(setting:to:) takes names with brackets and values with delimiters, replacing the encoded name", arguments: [
        ("page[cursor]", "a&b=c", "page%5Bcursor%5D=a%26b%3Dc"),
        ("page", "2", "page=2"),
        ("q", "#x+y", "q=%23x%2By"),
    ])
    func settingQueryItems(name: String, value: String, written: String) throws {
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/items?page%5Bcursor%5D=old&page=1&q=z")))
        let page = Page(value: 0, response: ResponseContext(url: request.url, method: .get, status: .ok, headerFields: [:]), request: request, number: 1)
        let query = try #require(page.request(setting: name, to: value).url?.query(percentEncoded: true))
        #expect(query.hasSuffix(written), "\(query)")
        #expect(query.components(separatedBy: "&").filter { $0.hasPrefix(written.prefix { $0 != "=" } + "=") }.count == 1, "\(query)")
    }

    @Test("a next link that repeats a page with a fragment, another host case or an equal encoding ends the load", arguments: [
        "</lo%6Fp#top>; rel=\"next\"", "<https://API.example.com/loop>; rel=\"next\"", "</loop#again>; rel=\"next\"",
    ])
    func repeatedPagesUnderOtherSpellings(link: String) async throws {
        let looping = Fixture(
            request: .init(url: try #require(URL(string: "https://api.example.com/loop"))),
            response: .init(status: .ok, headerFields: [.contentType: "application/json", .literal("Link"): link], body: Data("[]".utf8)))
        let replay = FixtureReplay([looping], options: .init(repeatsLastResponse: true))
        let request = URLRequest(url: try #require(URL(string: "https://api.example.com/loop")))
        let result = await collect(replay.makeSession().pages(for: request, serializer: issues, as: [Issue].self, maximumPages: 5))
        #expect(result.pages.count == 1)
        #expect(result.error == nil)
    }

    @Test("a next closure that throws still gives the page it was given; the failure comes after it")
    func throwingNextClosure() async throws {
        struct Stop: Error {}
        let replay = FixtureReplay(try Self.githubPages())
        let request = URLRequest(url: try #require(URL(string: "https://api.github.com\(Self.firstPage)")))
        let pages = replay.makeSession().pages(for: request, serializer: issues, as: [Issue].self) { _ in throw Stop() }
        let result = await collect(pages)
        #expect(result.pages.map(\.number) == [1])
        #expect((result.error as? PageError)?.underlying is Stop)
    }

    @Test("a transport failure's description shows no secret of the page's URL")
    func transportFailureRedacted() async throws {
        let secret = "zz" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        // Port 1 on loopback refuses: the URLError carries the failing URL in its user info.
        let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:1/items?access_token=\(secret)")))
        let result = await collect(URLSession(configuration: .unhurried).pages(for: request, serializer: issues, as: [Issue].self))
        let failure = try #require(result.error as? PageError)
        let underlying = try #require(failure.underlying as? URLError)
        #expect(underlying.code == .cannotConnectToHost)  // the error itself, its URL redacted
        #expect(underlying.failingURL?.absoluteString == "http://127.0.0.1:1/items?access_token=REDACTED")
        #expect(!String(describing: underlying).contains(secret))
        #expect(!failure.description.contains(secret), "\(failure.description)")
    }

    @Test("a page load in a task cancelled before it asks sends no request")
    func cancelledBeforeAsking() async throws {
        let url = try #require(URL(string: "https://\(UUID().uuidString.lowercased()).example/items"))
        let session = URLSession.refusingConnections()
        let serializer = issues
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var pages = session.pages(for: URLRequest(url: url), serializer: serializer, as: [Issue].self).makeAsyncIterator()
            return try await pages.next()
        }
        #expect(try await task.value == nil)
        #expect(!RefusedConnection.wasAsked(for: url), "the request reached the loading system")
    }
}
