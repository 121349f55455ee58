import SculptShared
import Sculpt

/// The interactions of one route (method and path) by their query, so that a request is compared
/// in full only with the interactions whose query can match its own: a cassette of one path with
/// a thousand queries (`page=1` ... `page=1000`) costs a request about what a cassette of ten does.
///
/// A recorded query item holding the marker (`access_token=REDACTED`) matches any value under its
/// name, so the key of an interaction leaves out the values under the names its markers stand in
/// (`access_token=…`, whatever follows); a request is keyed once for each such set of names the
/// route's recordings have (usually one or two). Keys are a necessary condition only: every
/// candidate is still compared in full (``RequestComparison``). An interaction with a marker in
/// an item's name (`REDACTED=1`) has no key and is a candidate for every request.
///
/// Each list of candidates remembers where its first unused interaction is: interactions are used
/// in order, so a request repeated a thousand times does not read the used ones again.
struct QueryIndex {
    /// Lists of interactions (indices, ascending), and how many at the start of each are used.
    private var lists: [[Int]] = []
    private var firstUnused: [Int] = []
    /// For each set of names the recordings' markers stand in: the list of each key.
    private var groups: [(names: Set<String>, lists: [[String]: Int])] = []
    /// The list of interactions with no key, if any.
    private var unkeyed: Int?

    /// Indexes `indices` (ascending) by the query items `items` gives for each.
    init(_ indices: [Int], items: (Int) -> [String]) {
        var unkeyedIndices: [Int] = []
        for index in indices {
            let recorded = items(index)
            guard let names = Self.markedNames(recorded) else {
                unkeyedIndices.append(index)
                continue
            }
            let group = groups.firstIndex { $0.names == names } ?? {
                groups.append((names, [:]))
                return groups.count - 1
            }()
            let key = Self.key(recorded, leavingOut: names)
            if let list = groups[group].lists[key] {
                lists[list].append(index)
            } else {
                groups[group].lists[key] = lists.count
                lists.append([index])
            }
        }
        if !unkeyedIndices.isEmpty {
            unkeyed = lists.count
            lists.append(unkeyedIndices)
        }
        firstUnused = Array(repeating: 0, count: lists.count)
    }

    /// The lists a request with query items `items` may match: its key's list in each group, and
    /// the unkeyed ones.
    private func candidateLists(for items: [String]) -> [Int] {
        var found = groups.compactMap { group in group.lists[Self.key(items, leavingOut: group.names)] }
        if let unkeyed { found.append(unkeyed) }
        return found
    }

    /// The first interaction (in recorded order) that is not `used` and `matches`, for a request
    /// with query items `items`.
    mutating func firstUnused(for items: [String], used: [Bool], matches: (Int) -> Bool) -> Int? {
        var best: Int?
        for list in candidateLists(for: items) {
            while firstUnused[list] < lists[list].count, used[lists[list][firstUnused[list]]] { firstUnused[list] += 1 }
            let found = lists[list][firstUnused[list]...].first { !used[$0] && matches($0) }
            if let found, found < best ?? .max { best = found }
        }
        return best
    }

    /// The last interaction (in recorded order) that `matches`, used or not.
    func last(for items: [String], matches: (Int) -> Bool) -> Int? {
        candidateLists(for: items).compactMap { lists[$0].last(where: matches) }.max()
    }

    /// Every interaction that `matches`, used or not, in recorded order.
    func all(for items: [String], matches: (Int) -> Bool) -> [Int] {
        candidateLists(for: items).flatMap { lists[$0].filter(matches) }.sorted()
    }

    /// The names whose values the recorded items' markers stand in for (the part before `=` of
    /// an item whose text before its first marker has one); `nil` when a marker is in a name.
    private static func markedNames(_ items: [String]) -> Set<String>? {
        var names: Set<String> = []
        for item in items where item.contains(Redaction.marker) {
            let literal = RequestComparison.parts(item)[0]
            guard let equals = literal.firstIndex(of: UInt8(ascii: "=")) else { return nil }
            names.insert(String(decoding: literal[..<equals], as: UTF8.self))
        }
        return names
    }

    /// The query items, sorted, each under one of `names` written as its name alone.
    private static func key(_ items: [String], leavingOut names: Set<String>) -> [String] {
        guard !names.isEmpty else { return items.sorted() }
        return items.map { item in
            let name = item.utf8.firstIndex(of: UInt8(ascii: "=")).map { String(item[..<$0]) } ?? item
            return names.contains(name) ? name + "=\u{0}" : item
        }.sorted()
    }
}
