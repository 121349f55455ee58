import Sculpt
import SculptShared
/// A coding path as a chain from the root, built a link at a time as a decode goes deeper and made
/// an array only when asked for (an error, a custom strategy, a type that reads its path).
indirect enum CodingPathNode {
    case root
    case key(any CodingKey, CodingPathNode, depth: Int)
    case index(Int, CodingPathNode, depth: Int)

    /// How many keys deep the path is.
    var depth: Int {
        switch self {
        case .root: 0
        case .key(_, _, let depth), .index(_, _, let depth): depth
        }
    }

    /// The path as `Decoder.codingPath` gives it.
    var path: [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = self
        while true {
            switch node {
            case .root: return keys.reversed()
            case .key(let key, let parent, _):
                keys.append(key)
                node = parent
            case .index(let index, let parent, _):
                keys.append(IndexKey(index))
                node = parent
            }
        }
    }

    /// This path and `key`.
    func appending(_ key: some CodingKey) -> CodingPathNode {
        .key(key, self, depth: depth + 1)
    }

    /// This path and `key`, when there is one (a value read at the top of a container has none).
    func appending(_ key: (some CodingKey)?) -> CodingPathNode {
        guard let key else { return self }
        return .key(key, self, depth: depth + 1)
    }

    /// This path and an array index.
    func appending(index: Int) -> CodingPathNode {
        .index(index, self, depth: depth + 1)
    }

    /// The path with `key` after it, as an array.
    func path(appending key: (some CodingKey)?) -> [any CodingKey] {
        guard let key else { return path }
        return path + [key]
    }

    /// The path with an index after it, as an array.
    func path(appendingIndex index: Int) -> [any CodingKey] {
        path + [IndexKey(index)]
    }
}

/// An array position in a coding path, as `JSONDecoder` writes one: `Index 3`, int value 3.
struct IndexKey: CodingKey, Sendable {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }

    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}
