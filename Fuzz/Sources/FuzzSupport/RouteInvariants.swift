import Foundation
import SculptMatchers

/// Checks what must hold whatever the table and the URL: `match` and `route(for:)` agree; the
/// route picked matches on its own; and when nothing is picked, no route of the table matches on
/// its own (a lookup that gives up early instead of backtracking fails here).
public func checkRouting(_ matcher: URLModelMatcher, prefix: String?, url: URL) {
    let route = matcher.route(for: url)
    require(matcher.match(url) == route?.modelType, "match and route(for:) disagree on \(url)")
    require(matcher.route(for: url, method: .get) == route, "a table without methods answers differently for GET on \(url)")
    func matchesAlone(_ candidate: URLModelMatcher.Route) -> Bool {
        var single = URLModelMatcher(pathPrefix: prefix)
        do {
            try single.add(candidate.pattern.description, Marker.self)
        } catch {
            require(false, "the pattern \(candidate.pattern) does not compile again from its description: \(error)")
        }
        return single.match(url) != nil
    }
    if let route {
        require(matchesAlone(route), "\(url) picked \(route.pattern), which does not match it on its own")
    } else if let missed = matcher.routes.first(where: matchesAlone) {
        require(false, "\(url) matched nothing, but \(missed.pattern) matches it on its own")
    }
}

/// A model type for tables built only to be matched.
public struct Marker: Decodable, Sendable {}
