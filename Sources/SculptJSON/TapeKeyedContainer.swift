import Foundation
import Sculpt
import SculptShared

/// An object of a ``JSONTape``, read in place: its keys go into the decoder's ``KeyTable`` for
/// its depth when the container is made, and a key is looked up there by its bytes, in a step
/// or two whatever order a type asks for keys in. An object with an escaped or non-ASCII key,
/// under a custom key strategy, or asked for a name that is not ASCII is looked up through a
/// `Dictionary` of its keys instead.
///
/// It answers as `JSONDecoder`'s keyed container answers: every key of the object is checked
/// when the container is made (an invalid one fails the decode, as `JSONDecoder` fails it when it
/// builds its dictionary); keys compare as Swift strings compare, so canonically equivalent
/// spellings are one key; the first of duplicated keys is the one read; under a key decoding
/// strategy, the object's keys are converted before they are compared. `allKeys` lists keys in
/// the document's order.
struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: TapeDecoder
    /// The object's entry.
    let object: Int
    let node: CodingPathNode
    /// Whether every key is ASCII without escapes, compared (as written or converted from snake
    /// case) in the text.
    private let keysInText: Bool

    init(decoder: TapeDecoder, object: Int, node: CodingPathNode) throws {
        self.decoder = decoder
        self.object = object
        self.node = node
        let allSimpleASCII = try Self.checkKeys(of: object, in: decoder)
        let options = decoder.options
        keysInText = allSimpleASCII && (options.usesDefaultKeys || options.usesSnakeCase)
        if keysInText, decoder.fillKeyTable(for: object, depth: node.depth, snakeCase: options.usesSnakeCase) { return }
        // A custom converter is called for every key each time a container is made, as
        // JSONDecoder calls it (it may count or log); other indexes are made once per object.
        let usesCustomKeys = !options.usesDefaultKeys && !options.usesSnakeCase
        if usesCustomKeys || decoder.index(for: object, depth: node.depth) == nil { decoder.setIndex(try makeIndex(), for: object, depth: node.depth) }
    }

    /// Reads every key of `object` as JSONDecoder reads them when it builds its dictionary (an
    /// invalid one fails the decode); whether all are ASCII without escapes.
    static func checkKeys(of object: Int, in decoder: TapeDecoder) throws -> Bool {
        let entries = decoder.entries
        let text = decoder.text
        let end = entries[object].end
        var position = JSONTape.firstChild(of: object)
        var allSimpleASCII = true
        while position < end {
            let key = entries[position]
            if key.isSimpleString, key.isASCII {
                let range = key.offset..<(key.offset + key.length)
                if TapeScalars.hasControlCharacter(UnsafeBufferPointer(rebasing: text[range])) {
                    throw decoder.storage.error(for: .string(range))
                }
            } else {
                allSimpleASCII = false
                _ = try decoder.reading { () throws(TapeScalars.Invalid) in try TapeScalars.string(key, in: text) }
            }
            position = entries.next(afterMember: position)
        }
        return allSimpleASCII
    }

    var codingPath: [any CodingKey] { node.path }

    var allKeys: [Key] {
        // Converted keys come from the object's dictionary (made when the container was), put
        // back in the document's order.
        if !keysInText, let index = decoder.index(for: object, depth: node.depth) {
            return index.sorted { $0.value < $1.value }.compactMap { Key(stringValue: $0.key) }
        }
        var keys: [Key] = []
        var seen = Set<String>()
        // The keys were read when the container was made: none fails now.
        try? forEachKey { name, _ in
            if seen.insert(name).inserted, let key = Key(stringValue: name) { keys.append(key) }
        }
        return keys
    }

    /// Calls `body` with each member's key (as compared: converted under a strategy) and its key
    /// entry, in document order.
    private func forEachKey(_ body: (String, Int) -> Void) throws {
        let entries = decoder.entries
        var position = JSONTape.firstChild(of: object)
        while position < entries[object].end {
            let name = if keysInText, decoder.options.usesSnakeCase {
                SnakeCase.camelCased(ascii: KeyTable.bytes(entries[position], in: UnsafeRawBufferPointer(decoder.text)))
            } else {
                try decoder.convertedKey(at: entries[position], in: node)
            }
            body(name, position)
            position = entries.next(afterMember: position)
        }
    }

    /// Every key of the object (as compared) and the entry of its first member.
    private func makeIndex() throws -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(decoder.entries[object].count)
        try forEachKey { name, position in
            if index[name] == nil { index[name] = position }
        }
        return index
    }

    /// The entry of the value for `key`, or `nil`.
    @inline(__always)
    private func value(for key: Key) -> Int? {
        value(named: key.stringValue)
    }

    /// The entry of the value for the key named `name`, or `nil`.
    @inline(__always)
    private func value(named name: String) -> Int? {
        var utf8 = name
        let found = utf8.withUTF8 { utf8 -> Int?? in
            // A name with characters past ASCII may equal an ASCII key canonically (the Kelvin
            // sign is K): it is looked up as a string.
            let name = UnsafeRawBufferPointer(utf8)
            guard keysInText, KeyBytes.isASCII(name) else { return nil }
            return decoder.findKey(name, in: object, depth: node.depth)
        }
        guard let key = found ?? slowKey(named: name) else { return nil }
        decoder.storage.markRead(key)
        return JSONTape.value(ofKey: key)
    }

    /// The key entry of the member named `name` through the object's dictionary, made when the
    /// decoder does not keep it.
    @inline(never)
    private func slowKey(named name: String) -> Int? {
        if let index = decoder.index(for: object, depth: node.depth) { return index[name] }
        guard let index = try? makeIndex() else { return nil }
        decoder.setIndex(index, for: object, depth: node.depth)
        return index[name]
    }

    // MARK: - Lookups

    func contains(_ key: Key) -> Bool { value(for: key) != nil }

    @inline(__always)
    private func entry(for key: Key) throws -> Int {
        guard let entry = value(for: key) else {
            throw DecodingError.keyNotFound(key, .init(
                codingPath: codingPath, debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
        }
        return entry
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        decoder.entries[try entry(for: key)].kind == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder.bool(at: try entry(for: key), in: node, key: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder.string(at: try entry(for: key), in: node, key: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decoder.floatingPoint(Double.self, at: try entry(for: key), in: node, key: key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder.floatingPoint(Float.self, at: try entry(for: key), in: node, key: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder.integer(Int.self, at: try entry(for: key), in: node, key: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder.integer(Int8.self, at: try entry(for: key), in: node, key: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder.integer(Int16.self, at: try entry(for: key), in: node, key: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder.integer(Int32.self, at: try entry(for: key), in: node, key: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder.integer(Int64.self, at: try entry(for: key), in: node, key: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder.integer(UInt.self, at: try entry(for: key), in: node, key: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder.integer(UInt8.self, at: try entry(for: key), in: node, key: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder.integer(UInt16.self, at: try entry(for: key), in: node, key: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder.integer(UInt32.self, at: try entry(for: key), in: node, key: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder.integer(UInt64.self, at: try entry(for: key), in: node, key: key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.unwrap(T.self, at: try entry(for: key), in: node, key: key)
    }

    // Present, and not null: each type read directly, without the generic default's detour.

    @inline(__always)
    private func present(_ key: Key) -> Int? {
        guard let entry = value(for: key), decoder.entries[entry].kind != .null else { return nil }
        return entry
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try decoder.bool(at: $0, in: node, key: key) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map { try decoder.string(at: $0, in: node, key: key) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key).map { try decoder.floatingPoint(Double.self, at: $0, in: node, key: key) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        try present(key).map { try decoder.floatingPoint(Float.self, at: $0, in: node, key: key) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try decoder.integer(Int.self, at: $0, in: node, key: key) } }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try present(key).map { try decoder.integer(Int8.self, at: $0, in: node, key: key) } }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try present(key).map { try decoder.integer(Int16.self, at: $0, in: node, key: key) } }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try present(key).map { try decoder.integer(Int32.self, at: $0, in: node, key: key) } }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try present(key).map { try decoder.integer(Int64.self, at: $0, in: node, key: key) } }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try present(key).map { try decoder.integer(UInt.self, at: $0, in: node, key: key) } }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try present(key).map { try decoder.integer(UInt8.self, at: $0, in: node, key: key) } }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        try present(key).map { try decoder.integer(UInt16.self, at: $0, in: node, key: key) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        try present(key).map { try decoder.integer(UInt32.self, at: $0, in: node, key: key) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        try present(key).map { try decoder.integer(UInt64.self, at: $0, in: node, key: key) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key).map { try decoder.unwrap(T.self, at: $0, in: node, key: key) }
    }

    // MARK: - Nested containers

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let entry = try entry(for: key)
        return try decoder.with(entry: entry, node: node.appending(key)) { try decoder.container(keyedBy: NestedKey.self) }
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let entry = try entry(for: key)
        return try decoder.with(entry: entry, node: node.appending(key)) { try decoder.unkeyedContainer() }
    }

    func superDecoder() throws -> any Decoder {
        superDecoder(at: SuperKey())
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        superDecoder(at: key)
    }

    /// A decoder for the value at `key`, or for `null` when there is none, as `JSONDecoder` gives.
    private func superDecoder(at key: some CodingKey) -> any Decoder {
        let entry = value(named: key.stringValue) ?? decoder.storage.nullEntry
        return decoder.detached(at: entry, node: node.appending(key))
    }

    /// The key `superDecoder()` reads: `super`.
    private struct SuperKey: CodingKey {
        var stringValue: String { "super" }
        var intValue: Int? { nil }
        init() {}
        init?(stringValue: String) { nil }
        init?(intValue: Int) { nil }
    }
}
