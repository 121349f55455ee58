import SculptShared
/// The closest recorded interactions a ``FixtureReplay/MissError`` shows, found at a bounded cost.
extension FixtureReplay {
    /// The most recorded interactions a miss compares in full with its request (query, matched
    /// headers, body) to find the closest ones it shows: 64, however large the cassette.
    ///
    /// They are chosen from methods and paths alone, reading each recorded route (method and
    /// path) once: first the interactions recorded for the request's own method and path, in
    /// recorded order (the usual miss: the same path with another query, header or body); then
    /// the other routes take turns, one interaction each per turn, best first: the request's path
    /// under another method, then the paths that share the longest start with the request's, then
    /// the request's method, then recorded order.
    package static let nearestBudget = 64

    /// The largest body a miss parses to rank its candidates; larger ones are compared byte for
    /// byte (a miss among 64 recordings of 16 MiB took 2 minutes when each was parsed).
    static let nearestBodyParseLimit = 256 << 10

    /// The recorded interactions closest to `asked`, at most ``MissError/shownCandidates`` of them,
    /// each with its difference lines: fewest differences first, then in the order of preference
    /// that ``nearestBudget`` describes (so recorded order within the request's own route); and how
    /// many interactions were compared in full (at most ``nearestBudget``).
    func nearest(to asked: AskedRequest) -> (candidates: [MissError.Candidate], compared: Int) {
        let indices = nearestIndices(for: asked)
        let closest = indices.enumerated()
            .map { position, index in
                (position, index, RequestComparison(asked, interactions[index].request, options, bodyParseLimit: Self.nearestBodyParseLimit))
            }
            .sorted { ($0.2.count, $0.0) < ($1.2.count, $1.0) }
            .prefix(MissError.shownCandidates)
        // Lines are written only for what is shown.
        let policy = redaction
        let candidates = closest.map { MissError.Candidate(fixture: interactions[$0.1], differences: $0.2.differences(policy: policy)) }
        return (candidates, indices.count)
    }

    /// The interactions a miss compares in full, at most ``nearestBudget``, in the order of
    /// preference that ``nearestBudget`` describes.
    private func nearestIndices(for asked: AskedRequest) -> [Int] {
        let key = RouteKey(asked)
        var chosen = Array((index[key] ?? []).prefix(Self.nearestBudget))
        guard chosen.count < Self.nearestBudget else { return chosen }
        let askedPath = Array(asked.path.utf8)
        var routes: [(samePath: Bool, shared: Int, sameMethod: Bool, indices: [Int])] = []
        for (route, indices) in index where route != key {
            let shared = Self.sharedStart(askedPath, route.path)
            let samePath = shared == askedPath.count && route.path.utf8.count == shared
            routes.append((samePath, shared, route.method == key.method, indices))
        }
        routes.sort { left, right in
            if left.samePath != right.samePath { return left.samePath }
            if left.shared != right.shared { return left.shared > right.shared }
            if left.sameMethod != right.sameMethod { return left.sameMethod }
            return left.indices[0] < right.indices[0]
        }
        // Turns: a route's n-th interaction comes after every route's (n-1)-th, so that the
        // closest few are not all one route's. With 64 routes or more, one turn fills the budget.
        var turn = 0
        while chosen.count < Self.nearestBudget {
            let before = chosen.count
            for route in routes where turn < route.indices.count {
                guard chosen.count < Self.nearestBudget else { break }
                chosen.append(route.indices[turn])
            }
            guard chosen.count > before else { break }
            turn += 1
        }
        return chosen
    }

    /// How many leading UTF-8 bytes `path` shares with `asked` (read no further than `path`'s end).
    private static func sharedStart(_ asked: [UInt8], _ path: String) -> Int {
        var shared = 0
        for byte in path.utf8 {
            guard shared < asked.count, asked[shared] == byte else { break }
            shared += 1
        }
        return shared
    }
}
