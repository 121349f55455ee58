import Sculpt
import SculptShared
/// An array of a ``JSONTape``, read in place, an element at a time, as `JSONDecoder`'s unkeyed
/// container reads it: a decode that fails leaves the container at that element, and the errors
/// at its end are `JSONDecoder`'s.
struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: TapeDecoder
    let node: CodingPathNode
    /// The entry of the next element.
    private var position: Int
    /// The entry past the array.
    private let end: Int

    let count: Int?
    private(set) var currentIndex = 0
    var isAtEnd: Bool { currentIndex >= (count ?? 0) }

    init(decoder: TapeDecoder, array: Int, node: CodingPathNode) {
        self.decoder = decoder
        self.node = node
        let entry = decoder.entries[array]
        position = JSONTape.firstChild(of: array)
        end = entry.end
        count = entry.count
    }

    var codingPath: [any CodingKey] { node.path }

    /// The key of the next element in a coding path.
    private var indexKey: IndexKey { IndexKey(currentIndex) }

    /// The next element's entry.
    ///
    /// - Throws: `valueNotFound` at the end, in `JSONDecoder`'s words for what was asked.
    @inline(__always)
    private func next<T>(_ type: T.Type, _ message: String = "Unkeyed container is at end.") throws -> Int {
        guard position < end else {
            throw DecodingError.valueNotFound(type, .init(codingPath: node.path(appendingIndex: currentIndex), debugDescription: message))
        }
        return position
    }

    /// Moves past the element at `entry`.
    @inline(__always)
    private mutating func advance(past entry: Int) {
        position = decoder.entries.next(after: entry)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        let entry = try next(Never.self)
        guard decoder.entries[entry].kind == .null else { return false }
        advance(past: entry)
        return true
    }

    /// Decodes the next element with `read`, then moves past it (not when `read` throws).
    @inline(__always)
    private mutating func decodeNext<T>(_ type: T.Type, _ read: (TapeDecoder, Int, CodingPathNode, IndexKey) throws -> T) throws -> T {
        let entry = try next(T.self)
        let value = try read(decoder, entry, node, indexKey)
        advance(past: entry)
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNext(Bool.self) { try $0.bool(at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: String.Type) throws -> String { try decodeNext(String.self) { try $0.string(at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: Double.Type) throws -> Double {
        try decodeNext(Double.self) { try $0.floatingPoint(Double.self, at: $1, in: $2, key: $3) }
    }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeNext(Float.self) { try $0.floatingPoint(Float.self, at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeNext(Int.self) { try $0.integer(Int.self, at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeNext(Int8.self) { try $0.integer(Int8.self, at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeNext(Int16.self) { try $0.integer(Int16.self, at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeNext(Int32.self) { try $0.integer(Int32.self, at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeNext(Int64.self) { try $0.integer(Int64.self, at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeNext(UInt.self) { try $0.integer(UInt.self, at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeNext(UInt8.self) { try $0.integer(UInt8.self, at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeNext(UInt16.self) { try $0.integer(UInt16.self, at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeNext(UInt32.self) { try $0.integer(UInt32.self, at: $1, in: $2, key: $3) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeNext(UInt64.self) { try $0.integer(UInt64.self, at: $1, in: $2, key: $3) } }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decodeNext(T.self) { try $0.unwrap(T.self, at: $1, in: $2, key: $3) }
    }

    /// Present and not null; nil at the end or for null, which is then passed.
    @inline(__always)
    private mutating func decodeNextIfPresent<T>(_ read: (TapeDecoder, Int, CodingPathNode, IndexKey) throws -> T) throws -> T? {
        guard position < end else {
            currentIndex += 1
            return nil
        }
        let entry = position
        guard decoder.entries[entry].kind != .null else {
            advance(past: entry)
            return nil
        }
        let value = try read(decoder, entry, node, indexKey)
        advance(past: entry)
        return value
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try decodeNextIfPresent { try $0.bool(at: $1, in: $2, key: $3) } }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try decodeNextIfPresent { try $0.string(at: $1, in: $2, key: $3) } }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
        try decodeNextIfPresent { try $0.floatingPoint(Double.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
        try decodeNextIfPresent { try $0.floatingPoint(Float.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try decodeNextIfPresent { try $0.integer(Int.self, at: $1, in: $2, key: $3) } }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
        try decodeNextIfPresent { try $0.integer(Int8.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
        try decodeNextIfPresent { try $0.integer(Int16.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
        try decodeNextIfPresent { try $0.integer(Int32.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
        try decodeNextIfPresent { try $0.integer(Int64.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
        try decodeNextIfPresent { try $0.integer(UInt.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
        try decodeNextIfPresent { try $0.integer(UInt8.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
        try decodeNextIfPresent { try $0.integer(UInt16.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
        try decodeNextIfPresent { try $0.integer(UInt32.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
        try decodeNextIfPresent { try $0.integer(UInt64.self, at: $1, in: $2, key: $3) }
    }
    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
        try decodeNextIfPresent { try $0.unwrap(T.self, at: $1, in: $2, key: $3) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let entry = try next(KeyedDecodingContainer<NestedKey>.self)
        let container = try decoder.with(entry: entry, node: node.appending(index: currentIndex)) { try decoder.container(keyedBy: NestedKey.self) }
        advance(past: entry)
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let entry = try next((any UnkeyedDecodingContainer).self, "Cannot get nested unkeyed container -- unkeyed container is at end.")
        let container = try decoder.with(entry: entry, node: node.appending(index: currentIndex)) { try decoder.unkeyedContainer() }
        advance(past: entry)
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let entry = try next((any Decoder).self, "Cannot get superDecoder() -- unkeyed container is at end.")
        let detached = decoder.detached(at: entry, node: node.appending(index: currentIndex))
        advance(past: entry)
        return detached
    }
}
