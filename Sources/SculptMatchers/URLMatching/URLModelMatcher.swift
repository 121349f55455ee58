public import Foundation
import SculptShared
public import HTTPTypes
public import Sculpt

/// Resolves a response to a model type by its URL path, with optional per-method and per-status
/// refinements.
///
/// ```swift
/// var matcher = URLModelMatcher(pathPrefix: "/v3")
/// try matcher.add("/users/*", User.self)
/// try matcher.add("/repos/*/*/issues", [Issue].self)
/// try matcher.add("/repos/*/*/issues/#", Issue.self)
/// try matcher.add("/repos/*/*/issues", Issue.self, method: .post, status: .created)
/// matcher.route(for: URL(string: "https://example.com/v3/users/octocat")!)?.modelType  // User
/// ```
///
/// Patterns are ``URLPattern``s: literal segments, `#` (digits), `*` (one segment) and a final
/// `**` (any rest), each of the last three also written with a name (`{login}`, `{number:#}`,
/// `{path:**}`) for ``Route/parameters``. Precedence does not depend on registration order: at each segment a literal
/// wins over `#`, `#` over `*`, `*` over `**`, and a branch that finds no route deeper is abandoned
/// for the next, so the most specific pattern wins. Among the entries of one pattern, method and
/// status together win over method only, then status only, then the plain entry; an entry whose
/// method or status differs from the response's does not apply, and matching goes on to less
/// specific patterns. A lookup visits each node of the route trie at most once: for tables whose
/// routes differ by literals, about one node per segment, whatever the route count; at worst (many
/// wildcard routes that all accept the path but its last segment) the nodes those routes share
/// with the path. Docs/URLMatching.md gives figures.
///
/// The URL is the response's (after redirects). Its raw path is split on `/`, empty segments are
/// dropped and each segment is percent-decoded on its own (`%2F` stays in its segment); query and
/// fragment are ignored; `.` and `..` (also written `%2E`) are resolved as a server resolves them
/// (RFC 3986, section 5.2.4), never above the root: `/users/../orgs/x` is `/orgs/x`, the path a
/// client sends for that URL.
public struct URLModelMatcher: ModelMatcher {
    /// The prefix's segments, stripped from every URL path before matching.
    let prefix: [Substring]
    /// The same, as UTF-8, for matching.
    let prefixBytes: [[UInt8]]
    /// The same, as given: percent-encoded, for messages.
    let prefixSent: [String]
    private var trie = RouteTrie()

    /// Every registered route, in registration order (a re-registered route keeps its place).
    public private(set) var routes: [Route] = []

    /// Creates a matcher with no routes.
    ///
    /// ```swift
    /// var matcher = URLModelMatcher(pathPrefix: "/api/v3")
    /// ```
    ///
    /// The prefix is compared segment by segment: `v3`, `/v3` and `/v3/` are the same prefix,
    /// `api/v3` is two segments, and `/v1` never matches `/v10/...`. A URL that does not begin with
    /// every segment of the prefix matches nothing. `.` and `..` in the prefix are resolved as they
    /// are in a URL's path: `/v3/../v3`, `/./v3` and `/v2/%2E%2E/v3` are the prefix `/v3`, and
    /// `/v3/..` is no prefix at all.
    /// - Parameter pathPrefix: a prefix every path must start with, removed before routes match, such as
    ///     `/v3`; `nil` for none.
    public init(pathPrefix: String? = nil) {
        self.prefix = PathSegments.removingDotSegments(PathSegments.split((pathPrefix ?? "")[...]))
        self.prefixBytes = prefix.map { Array($0.utf8) }
        self.prefixSent = PathSegments.asSent((pathPrefix ?? "")[...])
    }

    /// Creates a matcher from a table of patterns and the model types they resolve to.
    ///
    /// ```swift
    /// let matcher = try URLModelMatcher(pathPrefix: "/v3", routes: [
    ///     "/users/*": User.self,
    ///     "/repos/*/*/issues": [Issue].self,
    /// ])
    /// ```
    /// - Parameters:
    ///   - pathPrefix: a prefix removed before routes match; `nil` for none.
    ///   - routes: each pattern and the model type it resolves to.
    /// - Throws: ``URLPattern/SyntaxError`` for an invalid pattern.
    public init(pathPrefix: String? = nil, routes: [String: any (Decodable & Sendable).Type]) throws {
        self.init(pathPrefix: pathPrefix)
        for (pattern, type) in routes {
            try add(pattern, type)
        }
    }

    /// Registers a pattern, replacing an earlier registration of the same pattern, method and
    /// status; one that names a parameter otherwise than the route it would replace is refused.
    ///
    /// ```swift
    /// try matcher.add("/search/**", SearchResults.self, at: "items")
    /// try matcher.add("/user/repos", Repository.self, method: .post, status: .created)
    /// ```
    /// - Parameters:
    ///   - pattern: the path pattern: literal segments, `*` for one segment, `#` for one of digits, `**` for
    ///     the rest.
    ///   - type: the model type it resolves to.
    ///   - keyPath: where the model sits in the body; `nil` for the whole body.
    ///   - method: the request method the route is for; `nil` for any.
    ///   - status: the response status the route is for; `nil` for any.
    /// - Throws: ``URLPattern/SyntaxError`` for an invalid pattern (`**` before the end, a bad
    ///   percent escape, more than ``URLPattern/maximumSegmentCount`` segments, a parameter
    ///   named otherwise than in a route it would replace),
    ///   `ModelKeyPath.SyntaxError` for an invalid key path. Never traps.
    public mutating func add<M: Decodable & Sendable>(
        _ pattern: String,
        _ type: M.Type,
        at keyPath: String? = nil,
        method: HTTPRequest.Method? = nil,
        status: HTTPResponse.Status? = nil
    ) throws {
        try add(URLPattern(pattern), .model(try ModelType(type, at: keyPath).validated()), method: method, status: status)
    }

    /// Registers a pattern whose responses another matcher decides, replacing an earlier
    /// registration of the same pattern, method and status.
    ///
    /// ```swift
    /// var feed = TypeFieldModelMatcher(field: "type")
    /// try feed.add("post", Post.self)
    /// try feed.add("photo", Photo.self)
    /// try matcher.add("/feed/*", matcher: feed)   // the prefix is stripped once, here
    /// ```
    ///
    /// The route competes by precedence like any other; when it wins, `matcher` sees the whole
    /// response. When `matcher` answers nil, matching goes on to the next candidate route, as if
    /// this one had not matched; an error it throws ends the match.
    /// - Parameters:
    ///   - pattern: the path pattern, as ``add(_:_:at:method:status:)`` takes it.
    ///   - matcher: the matcher that decides the model type of responses on this route.
    ///   - method: the request method the route is for; `nil` for any.
    ///   - status: the response status the route is for; `nil` for any.
    /// - Throws: ``URLPattern/SyntaxError`` for an invalid pattern, or one named otherwise than
    ///   the route it would replace.
    public mutating func add(
        _ pattern: String,
        matcher: some ModelMatcher,
        method: HTTPRequest.Method? = nil,
        status: HTTPResponse.Status? = nil
    ) throws {
        try add(URLPattern(pattern), .matcher(matcher), method: method, status: status)
    }

    /// Registers an endpoint's route: its pattern, method and status, resolving to its model type
    /// at its key path; replaces an earlier registration of the same pattern, method and status.
    ///
    /// ```swift
    /// try matcher.add(GitHub.issue)   // Endpoint<Issue>("/repos/{owner}/{repo}/issues/{number:#}")
    /// ```
    /// - Parameter endpoint: the endpoint.
    /// - Throws: ``URLPattern/SyntaxError`` for a pattern that did not compile,
    ///   `ModelKeyPath.SyntaxError` for an invalid key path.
    public mutating func add<M>(_ endpoint: Endpoint<M>) throws {
        try add(endpoint.pattern, .model(try ModelType(M.self, at: endpoint.keyPath).validated()), method: endpoint.method, status: endpoint.status)
    }

    private mutating func add(_ pattern: URLPattern, _ target: Route.Target, method: HTTPRequest.Method?, status: HTTPResponse.Status?) throws {
        let route = Route(pattern: pattern, method: method, status: status, target: target)
        let index = trie.insert(route.pattern, method: method, status: status?.code, route: routes.count)
        if index == routes.count {
            routes.append(route)
        } else if zip(routes[index].pattern.names, pattern.names).contains(where: { old, new in old != nil && new != nil && old != new }) {
            // The trie is as it was: the existing route's place was found, not changed. A name
            // given where the route had none (`*` then `{login}`) only adds one.
            throw URLPattern.SyntaxError(
                pattern: pattern.description,
                reason: "it matches the paths \(routes[index].pattern) matches, for the same method and status, with other parameter names: it would replace that route, and its values would come back under the other names; write the same names, or tell the two apart by method or status")
        } else {
            // A name the route had and this registration leaves out (`{login}` then `*`) is kept.
            routes[index] = Route(pattern: pattern.naming(like: routes[index].pattern), method: method, status: status, target: target)
        }
    }

    /// The route that wins for a URL, method and status, or `nil` when none matches: which pattern
    /// won, what it resolves to, and the values the path gives its named parameters. A route that
    /// delegates is returned as it is, its matcher not asked (that takes the response:
    /// ``modelType(for:data:)``).
    ///
    /// ```swift
    /// try matcher.add("/repos/{owner}/{repo}/issues/{number:#}", Issue.self)
    /// let route = matcher.route(for: URL(string: "https://api.github.com/repos/apple/swift/issues/42")!)
    /// route?.pattern.description  // "/repos/{owner}/{repo}/issues/{number:#}"
    /// route?.modelType            // Issue
    /// route?.parameters           // ["owner": "apple", "repo": "swift", "number": "42"]
    /// ```
    /// - Parameters:
    ///   - url: the URL to match; its path, after the prefix, is what routes see.
    ///   - method: the request's method; `nil` matches routes registered without one.
    ///   - status: the response's status; `nil` matches routes registered without one.
    public func route(for url: URL, method: HTTPRequest.Method? = nil, status: HTTPResponse.Status? = nil) -> Route? {
        guard let index = lookUp(url, method: method, status: status, { $0 }) else { return nil }
        let route = routes[index]
        return route.pattern.namedCount > 0 ? route.matched(url, prefixCount: prefixBytes.count) : route
    }

    /// The position in ``routes`` of the route that takes the response as matching does: a route
    /// that delegates takes it only when its matcher answers, else the next route by precedence
    /// is asked. What a mapping report counts a route as covered by.
    package func routeIndex(for response: ResponseContext, data: Data) -> Int? {
        guard let url = response.url else { return nil }
        return lookUp(url, method: response.method, status: response.status) { index in
            guard case .matcher(let matcher) = routes[index].target else { return index }
            let answer = try? DecodingObservation.rereading { try matcher.modelType(for: response, data: data) }
            return answer == nil ? nil : index
        }
    }

    /// The model type for the response's URL, method and status; `nil` without a URL or a route.
    /// A route that delegates asks its matcher; when that answers nil, the next route by
    /// precedence is tried.
    ///
    /// - Parameters:
    ///   - response: the response to match.
    ///   - data: its body, read only by a route's own matcher.
    /// - Throws: what a delegate matcher throws.
    public func modelType(for response: ResponseContext, data: Data) throws -> ModelType? {
        guard let url = response.url else { return nil }
        return try lookUp(url, method: response.method, status: response.status) { index in
            switch routes[index].target {
            case .model(let modelType): modelType
            case .matcher(let matcher): try matcher.modelType(for: response, data: data)
            }
        }
    }

    /// The first route for a URL, in precedence order, that `accept` takes: the path split into
    /// byte ranges on the stack, the prefix compared segment by segment, the rest looked up in the
    /// trie.
    func lookUp<T>(_ url: URL, method: HTTPRequest.Method?, status: HTTPResponse.Status?, _ accept: (Int) throws -> T?) rethrows -> T? {
        try PathBytes.withSegments(of: url) { bytes, segments in
            try lookUp(bytes, segments, method: method, status: status, accept)
        }
    }

    /// The same, for a path's bytes and segment ranges.
    private func lookUp<T>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ segments: UnsafeBufferPointer<Range<Int>>, method: HTTPRequest.Method?, status: HTTPResponse.Status?,
        _ accept: (Int) throws -> T?
    ) rethrows -> T? {
        guard segments.count >= prefixBytes.count else { return nil }
        for (index, prefix) in prefixBytes.enumerated() where !PathBytes.segment(segments[index], of: bytes, equals: prefix) {
            return nil
        }
        return try trie.route(bytes: bytes, segments: segments, from: prefixBytes.count, method: method, status: status?.code, accept: accept)
    }

    /// The three routes nearest the response's path, for the message of a failed match: among
    /// routes that share a literal segment with the path at the same place (an unrelated path
    /// lists none), those whose patterns accept the longest start of it. The path is compared
    /// after the prefix, or whole when it lacks the prefix (what the prefix did is
    /// ``diagnosis(for:data:resolved:expected:)``'s to say).
    /// - Parameter response: the response no route matched.
    public func nearestCandidates(for response: ResponseContext) -> [String] {
        guard let url = response.url else { return [] }
        // A path without the prefix is compared whole: its nearest routes show what it was meant for.
        let all = PathBytes.segments(of: url)
        let segments = all.starts(with: prefixBytes) ? Array(all.dropFirst(prefix.count)) : all
        let related = routes.enumerated().filter { _, route in
            zip(route.pattern.tokens, segments).contains { token, segment in
                if case .literal = token { RoutePrecedence.accepts(token, segment) } else { false }
            }
        }
        // The longest accepted start first, then the closest length, then the order of adding.
        let ranked = related.map { index, route in
            (accepted: route.pattern.acceptedPrefixLength(of: segments), extra: abs(route.pattern.tokens.count - segments.count), index: index, route: route)
        }
        return ranked.sorted { ($0.accepted, -$0.extra, -$0.index) > ($1.accepted, -$1.extra, -$1.index) }.prefix(3).map { ShownText.line($0.route.signature, limit: 2_048) }
    }
}
