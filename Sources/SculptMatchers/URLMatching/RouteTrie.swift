import HTTPTypes

/// The routes of a ``URLModelMatcher`` as a trie of pattern tokens, so that matching costs depend
/// on the path's length, not on how many routes there are.
///
/// Every non-`**` token consumes exactly one segment, so a node sits at one depth and a lookup
/// visits each node at most once: backtracking is bounded by the trie's size, never exponential.
struct RouteTrie: Sendable {
    /// Which route applies at a node, by method and status.
    private struct Endpoint: Sendable {
        var method: HTTPRequest.Method?
        var status: Int?
        var route: Int

        /// 0 for an exact (method and status) entry, then method only, status only, plain; `nil`
        /// when the entry does not apply.
        func rank(method: HTTPRequest.Method?, status: Int?) -> Int? {
            if let required = self.method, required != method { return nil }
            if let required = self.status, required != status { return nil }
            switch (self.method, self.status) {
            case (.some, .some): return 0
            case (.some, nil): return 1
            case (nil, .some): return 2
            case (nil, nil): return 3
            }
        }
    }

    private struct Node: Sendable {
        var literals: [Substring: Int] = [:]
        var digits: Int?
        var segment: Int?
        /// Routes whose pattern ends at this node.
        var endpoints: [Endpoint] = []
        /// Routes whose pattern ends with `**` after this node.
        var remainder: [Endpoint] = []
    }

    private var nodes = [Node()]

    /// Registers `route` for a pattern, method and status, and returns the route index they map to:
    /// `route`, or the index already registered for the same pattern, method and status (the
    /// caller replaces that route).
    mutating func insert(_ pattern: URLPattern, method: HTTPRequest.Method?, status: Int?, route: Int) -> Int {
        var node = 0
        var endsWithRemainder = false
        for token in pattern.tokens {
            switch token {
            case .literal(let text):
                node = child(of: node, existing: nodes[node].literals[text[...]]) { $0.literals[text[...]] = $1 }
            case .digits:
                node = child(of: node, existing: nodes[node].digits) { $0.digits = $1 }
            case .segment:
                node = child(of: node, existing: nodes[node].segment) { $0.segment = $1 }
            case .remainder:
                endsWithRemainder = true
            }
        }
        let list = endsWithRemainder ? \Node.remainder : \Node.endpoints
        if let existing = nodes[node][keyPath: list].first(where: { $0.method == method && $0.status == status }) {
            return existing.route
        }
        nodes[node][keyPath: list].append(Endpoint(method: method, status: status, route: route))
        return route
    }

    /// The route for `segments`: at each segment a literal child first, then `#`, then `*`, then
    /// `**`, backtracking when a branch finds no route deeper.
    func route(for segments: ArraySlice<Substring>, method: HTTPRequest.Method?, status: Int?) -> Int? {
        nodes.withUnsafeBufferPointer { nodes in
            Self.route(in: nodes, from: 0, at: segments.startIndex, segments, method, status)
        }
    }

    private static func route(
        in nodes: UnsafeBufferPointer<Node>, from index: Int, at position: Int, _ segments: ArraySlice<Substring>,
        _ method: HTTPRequest.Method?, _ status: Int?
    ) -> Int? {
        guard position < segments.endIndex else {
            return best(nodes[index].endpoints, method, status) ?? best(nodes[index].remainder, method, status)
        }
        let segment = segments[position]
        if let child = nodes[index].literals[segment], let found = route(in: nodes, from: child, at: position + 1, segments, method, status) {
            return found
        }
        if let child = nodes[index].digits, segment.isASCIIDigits,
            let found = route(in: nodes, from: child, at: position + 1, segments, method, status)
        {
            return found
        }
        if let child = nodes[index].segment, let found = route(in: nodes, from: child, at: position + 1, segments, method, status) {
            return found
        }
        return best(nodes[index].remainder, method, status)
    }

    private static func best(_ endpoints: [Endpoint], _ method: HTTPRequest.Method?, _ status: Int?) -> Int? {
        var best: (rank: Int, route: Int)?
        for endpoint in endpoints {
            guard let rank = endpoint.rank(method: method, status: status) else { continue }
            if best.map({ rank < $0.rank }) ?? true { best = (rank, endpoint.route) }
        }
        return best?.route
    }

    private mutating func child(of node: Int, existing: Int?, link: (inout Node, Int) -> Void) -> Int {
        if let existing { return existing }
        nodes.append(Node())
        link(&nodes[node], nodes.count - 1)
        return nodes.count - 1
    }
}
