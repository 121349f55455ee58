// The loading layer on the same recorded responses: a stored value first and the network's after
// it, the stored value when the server is gone, and GitHub's five pages of issues by Link.
import Foundation
import Sculpt
import SculptLoading
import SculptMatchers
import SculptTesting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Loads the labels three ways, the last with the server stopped.
func demonstrateCaching(_ request: URLRequest, serializer: ModelResponseSerializer<URLModelMatcher>, stoppingBeforeOffline server: FixtureServer) async throws {
    let session = URLSession(configuration: .ephemeral)
    let cache = HTTPResponseCache(URLCache(memoryCapacity: 4 << 20, diskCapacity: 0, diskPath: nil))
    func load(_ policy: LoadPolicy) async throws -> String {
        var values: [String] = []
        for try await loaded in session.models(for: request, serializer: serializer, as: [Label].self, policy: policy, cache: cache) {
            values.append("\(loaded.origin)\(loaded.isStale ? " (stale)" : "") \(loaded.value.count) labels")
        }
        return values.joined(separator: ", then ")
    }
    let path = request.url?.path() ?? ""
    print("\nLoading \(path):")
    print("  cachedThenFetch, nothing stored -> \(try await load(.cachedThenFetch))")
    print("  cachedThenFetch, stored -> \(try await load(.cachedThenFetch))")
    await server.stop()
    print("  fetchElseCache, server stopped -> \(try await load(.fetchElseCache))")
}

/// Follows `Link: rel="next"` through the recorded pages.
func demonstratePages(cassette: URL, serializer: ModelResponseSerializer<URLModelMatcher>) async throws {
    let pages = FixtureServer(fixtures: try Cassette(contentsOf: cassette).interactions)
    let request = URLRequest(url: try await pages.start().appending(path: "repos/octokit-fixture-org/paginate-issues/issues").appending(queryItems: [URLQueryItem(name: "per_page", value: "3")]))
    var counts: [Int] = []
    for try await page in URLSession(configuration: .ephemeral).pages(for: request, serializer: serializer, as: [Issue].self) {
        counts.append(page.value.count)
    }
    await pages.stop()
    print("Pages of \(request.url?.path() ?? ""): \(counts.count) pages, \(counts.reduce(0, +)) issues (\(counts.map(String.init).joined(separator: "+")))")
}
