import Foundation
import HTTPTypes
import RoutingKit
import SculptMatchers

/// GitHub's REST routes (`Data/github-routes.txt`), the same table for Sculpt and RoutingKit, and
/// one request URL per route with its parameters filled in.
struct RouteTable {
    struct Route {
        var method: String
        /// Segments, `nil` for a `{parameter}`.
        var segments: [Substring?]
        /// The segments as written, parameters named: `{owner}`.
        var written: [Substring] = []
    }

    let routes: [Route]

    static func github() throws -> RouteTable {
        let file = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Data/github-routes.txt")
        let lines = try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isNewline)
        return RouteTable(routes: lines.compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let written = parts[1].split(separator: "/")
            return Route(method: String(parts[0]), segments: written.map { $0.hasPrefix("{") ? nil : $0 }, written: written)
        })
    }

    /// `count` synthetic routes of the GitHub table's shape: `/scope{i}/*/items/#/detail` and so on.
    static func synthetic(_ count: Int) -> RouteTable {
        RouteTable(routes: (0..<count).map { index in
            let shapes: [[Substring?]] = [["scope\(index)", nil, "items", nil, "detail"], ["scope\(index)", nil], ["scope\(index)", nil, "items"]]
            return Route(method: "GET", segments: shapes[index % 3].map { $0 })
        })
    }

    /// Sculpt's matcher: every route with its method, each `{parameter}` a `*`, or kept as a named
    /// parameter whose value a match captures when `named` is set.
    func sculpt(named: Bool = false) throws -> URLModelMatcher {
        var matcher = URLModelMatcher()
        for route in routes {
            // A segment with more than one parameter (`{base}...{head}`) is matched whole, by a `*`.
            let segments = named
                ? route.written.map { $0.hasPrefix("{") && $0.dropFirst().firstIndex(of: "{") == nil ? String($0) : $0.hasPrefix("{") ? "*" : String($0) }
                : route.segments.map { $0.map(String.init) ?? "*" }
            try matcher.add("/" + segments.joined(separator: "/"), Int.self, method: HTTPRequest.Method(route.method))
        }
        return matcher
    }

    /// RoutingKit's trie, registered as Vapor registers routes: the method as the first component.
    func routingKit() -> TrieRouter<Int> {
        let router = TrieRouter(Int.self)
        for (index, route) in routes.enumerated() {
            router.register(index, at: [.constant(route.method)] + route.segments.map { $0.map { .constant(String($0)) } ?? .parameter("p") })
        }
        return router
    }

    /// One request per route, parameters filled with `value`.
    func requests(filling value: String = "octocat") -> [(method: HTTPRequest.Method, url: URL)] {
        routes.compactMap { route in
            let path = route.segments.map { $0.map(String.init) ?? value }.joined(separator: "/")
            guard let method = HTTPRequest.Method(route.method), let url = URL(string: "https://api.github.com/" + path) else { return nil }
            return (method, url)
        }
    }
}
