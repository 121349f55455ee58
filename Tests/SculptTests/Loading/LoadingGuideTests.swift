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

/// Docs/Loading.md's examples, as written there (but for the SwiftUI view), against the loopback
/// fixture server.
@Suite("Loading guide")
struct LoadingGuideTests {
    struct User: Decodable, Sendable { let login: String }
    struct Issue: Decodable, Sendable { let number: Int; let title: String }
    struct Questions: Decodable, Sendable {
        let items: [Issue]
        let hasMore: Bool
        enum CodingKeys: String, CodingKey { case items, hasMore = "has_more" }
    }

    static func fixture(_ pathAndQuery: String, _ body: String, fields: HTTPFields = [:]) -> Fixture {
        var fields = fields
        fields[.contentType] = "application/json"
        return Fixture(request: .init(url: URL(string: "https://api.example.com\(pathAndQuery)")!), response: .init(status: .ok, headerFields: fields, body: Data(body.utf8)))
    }

    @Test("load policies, the cache on disk, and a source")
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    func policies() async throws {
        let user = Self.fixture("/user", #"{"login":"octocat"}"#, fields: [.cacheControl: "max-age=60"])
        try await FixtureServer.running(FixtureReplay([user], options: .init(repeatsLastResponse: true))) { _, baseURL in
            let request = URLRequest(url: baseURL.appending(path: "user"))
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(User.self))

            let session = URLSession(configuration: .default)
            for try await loaded in session.models(for: request, serializer: serializer, as: User.self, policy: .cachedThenFetch) {
                print(loaded.value.login, loaded.origin, loaded.isStale)   // cache first (if stored), then network
            }

            let folder = FileManager.default.temporaryDirectory.appending(path: "api-cache")
            let cache = HTTPResponseCache(URLCache(memoryCapacity: 4 << 20, diskCapacity: 64 << 20, diskPath: folder.path))
            let loads = session.models(for: request, serializer: serializer, as: User.self, policy: .fetchElseCache, cache: cache)
            var logins: [String] = []
            for try await loaded in loads { logins.append(loaded.value.login) }
            #expect(logins == ["octocat"])
            try? FileManager.default.removeItem(at: folder)

            @MainActor
            func showProfile() async {
                let profile = ModelSource {
                    session.models(for: request, serializer: serializer, as: User.self, policy: .cachedThenFetch)
                }
                await profile.reload().value
                if case .loaded(let user) = profile.state { print(user.value.login) }
                #expect(profile.last?.value.login == "octocat")
            }
            await showProfile()
        }
    }

    @Test("pages by Link and by a page number in the body")
    func pages() async throws {
        let fixtures = [
            Self.fixture("/issues", #"[{"number":1,"title":"a"}]"#, fields: [.literal("Link"): "<https://api.example.com/issues?page=2>; rel=\"next\""]),
            Self.fixture("/issues?page=2", #"[{"number":2,"title":"b"}]"#),
            Self.fixture("/questions?page=1", #"{"items":[{"number":3,"title":"c"}],"has_more":true}"#),
            Self.fixture("/questions?page=2", #"{"items":[{"number":4,"title":"d"}],"has_more":false}"#),
        ]
        try await FixtureServer.running(FixtureReplay(fixtures)) { server, _ in
            let session = URLSession(configuration: .unhurried)
            var request = URLRequest(url: try await server.url(for: "/issues"))
            var serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Issue].self))

            var issues: [Issue] = []
            for try await page in session.pages(for: request, serializer: serializer, as: [Issue].self) {
                issues += page.value            // GitHub: follows Link: <...>; rel="next"
            }
            #expect(issues.map(\.number) == [1, 2])

            request = URLRequest(url: try await server.url(for: "/questions?page=1"))
            serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Questions.self))
            let questions = session.pages(for: request, serializer: serializer, as: Questions.self) { page in
                page.value.hasMore ? page.request(setting: "page", to: String(page.number + 1)) : nil
            }
            var numbers: [Int] = []
            for try await page in questions { numbers += page.value.items.map(\.number) }
            #expect(numbers == [3, 4])
        }
    }
}
