import Foundation
import SculptShared
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

    /// A literal child: its segment's UTF-8 and the child node.
    private struct Literal: Sendable {
        var bytes: [UInt8]
        var child: Int
    }

    private struct Node: Sendable {
        /// Sorted by bytes, searched by bisection: no hashing, no allocation per lookup.
        var literals: [Literal] = []
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
                let bytes = Array(text.utf8)
                let (position, found) = bytes.withUnsafeBufferPointer { Self.search(nodes[node].literals, $0) }
                node = child(of: node, existing: found ? nodes[node].literals[position].child : nil) {
                    $0.literals.insert(Literal(bytes: bytes, child: $1), at: position)
                }
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

    /// The first route, in precedence order, for a path's `segments` (byte ranges of `bytes`, from
    /// `start`) that `accept` turns into a value: at each segment a literal child first, then `#`,
    /// then `*`, then `**`, backtracking when a branch finds no route deeper or `accept` declines
    /// every route there (returns nil); among a node's routes, the most specific applicable first.
    func route<T>(
        bytes: UnsafeBufferPointer<UInt8>, segments: UnsafeBufferPointer<Range<Int>>, from start: Int,
        method: HTTPRequest.Method?, status: Int?, accept: (Int) throws -> T?
    ) rethrows -> T? {
        try nodes.withUnsafeBufferPointer { nodes in
            try Lookup(nodes: nodes, bytes: bytes, segments: segments, method: method, status: status).route(from: 0, at: start, accept)
        }
    }

    /// One lookup's inputs, so the recursion passes two integers and the caller's `accept`.
    ///
    /// The recursion goes one level deeper only into a child node, so its depth is at most the
    /// trie's, which is at most ``URLPattern/maximumSegmentCount``: a few hundred small frames,
    /// within even a task's stack, whatever the table and however long the path.
    private struct Lookup {
        let nodes: UnsafeBufferPointer<Node>
        let bytes: UnsafeBufferPointer<UInt8>
        let segments: UnsafeBufferPointer<Range<Int>>
        let method: HTTPRequest.Method?
        let status: Int?

        func route<T>(from index: Int, at position: Int, _ accept: (Int) throws -> T?) rethrows -> T? {
            guard position < segments.count else {
                if let found = try first(of: nodes[index].endpoints, accept) { return found }
                return try first(of: nodes[index].remainder, accept)
            }
            let segment = UnsafeBufferPointer(rebasing: bytes[segments[position]])
            if let child = RouteTrie.literalChild(of: nodes[index], segment), let found = try route(from: child, at: position + 1, accept) {
                return found
            }
            if let child = nodes[index].digits, segment.isASCIIDigits, let found = try route(from: child, at: position + 1, accept) {
                return found
            }
            if let child = nodes[index].segment, let found = try route(from: child, at: position + 1, accept) {
                return found
            }
            return try first(of: nodes[index].remainder, accept)
        }

        /// The first of `endpoints` that applies and that `accept` takes, most specific first.
        /// Routes of one pattern differ in rank (at most one applies per rank), so at most four
        /// are offered.
        private func first<T>(of endpoints: [Endpoint], _ accept: (Int) throws -> T?) rethrows -> T? {
            var declinedRanks = 0  // a bit per rank offered and declined
            while true {
                var best: (rank: Int, route: Int)?
                for endpoint in endpoints {
                    guard let rank = endpoint.rank(method: method, status: status), declinedRanks & (1 << rank) == 0 else { continue }
                    if best.map({ rank < $0.rank }) ?? true { best = (rank, endpoint.route) }
                }
                guard let best else { return nil }
                if let found = try accept(best.route) { return found }
                declinedRanks |= 1 << best.rank
            }
        }
    }

    /// The child for a literal segment.
    private static func literalChild(of node: Node, _ segment: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !node.literals.isEmpty else { return nil }
        let (position, found) = search(node.literals, segment)
        return found ? node.literals[position].child : nil
    }

    /// Where `bytes` is, or would be inserted, among sorted literals.
    private static func search(_ literals: [Literal], _ bytes: UnsafeBufferPointer<UInt8>) -> (position: Int, found: Bool) {
        var low = 0
        var high = literals.count
        while low < high {
            let middle = (low + high) / 2
            let order = compare(literals[middle].bytes, bytes)
            if order == 0 { return (middle, true) }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return (low, false)
    }

    /// Negative, zero or positive as `lhs` sorts before, equal to, or after `rhs` (shorter first).
    private static func compare(_ lhs: [UInt8], _ rhs: UnsafeBufferPointer<UInt8>) -> Int {
        if lhs.count != rhs.count { return lhs.count - rhs.count }
        return lhs.withUnsafeBufferPointer { left in
            guard let left = left.baseAddress, let right = rhs.baseAddress else { return 0 }
            return Int(memcmp(left, right, rhs.count))
        }
    }

    private mutating func child(of node: Int, existing: Int?, link: (inout Node, Int) -> Void) -> Int {
        if let existing { return existing }
        nodes.append(Node())
        link(&nodes[node], nodes.count - 1)
        return nodes.count - 1
    }
}
