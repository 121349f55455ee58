import Foundation
import Sculpt
import SculptMatchers

/// A route table and, for each of its routes, a table holding that route alone: what must hold
/// for any URL is checked against them.
public struct RoutingOracle {
    let table: URLModelMatcher
    let singles: [URLModelMatcher]

    public init(_ table: URLModelMatcher, prefix: String?) {
        self.table = table
        singles = table.routes.map { route in
            var single = URLModelMatcher(pathPrefix: prefix)
            do {
                try single.add(route.pattern.description, Marker.self)
            } catch {
                require(false, "the pattern \(route.pattern) does not compile again from its description: \(error)")
            }
            return single
        }
    }

    /// Checks that `modelType(for:data:)` and `route(for:)` agree; that the route picked is the one picked for
    /// the URL's path as Foundation reads it (spelled as `https://example.invalid/` and the path);
    /// that the route picked matches on its own; and that when nothing is picked, no route matches
    /// on its own (a lookup that gives up early instead of backtracking fails here).
    public func check(_ url: URL) {
        let route = table.route(for: url)
        if let canonical = URL(string: "https://example.invalid/" + url.path(percentEncoded: true)) {
            require(table.route(for: canonical)?.description == route?.description, "\(url) and \(canonical), its path as Foundation reads it, take different routes")
        }
        let resolved = try? table.modelType(for: ResponseContext(url: url), data: Data())
        require(resolved == route?.modelType, "modelType(for:data:) and route(for:) disagree on \(url)")
        require(table.route(for: url, method: .get)?.description == route?.description, "a table without methods answers differently for GET on \(url)")
        // A table's routes have distinct patterns, methods and statuses: their descriptions tell them apart.
        if let route, let index = table.routes.firstIndex(where: { $0.description == route.description }) {
            require(singles[index].route(for: url)?.modelType != nil, "\(url) picked \(route.pattern), which does not match it on its own")
        } else if let missed = singles.firstIndex(where: { $0.route(for: url)?.modelType != nil }) {
            require(false, "\(url) matched nothing, but \(table.routes[missed].pattern) matches it on its own")
        }
    }
}

/// A model type for tables built only to be matched.
public struct Marker: Decodable, Sendable {}
