import Foundation
import Sculpt
import SculptShared

/// The `Decoder` a ``SculptJSONDecoder`` decode runs through: one object for the whole decode,
/// pointed at the value being decoded, as `JSONDecoder`'s is, so a nested value costs no decoder
/// of its own. Containers read the tape in place: an object is never made a dictionary.
final class TapeDecoder: Decoder, SingleValueDecodingContainer {
    /// The document, shared with the decoders `superDecoder()` makes.
    let storage: TapeStorage
    /// The scanned document's entries.
    let entries: JSONTape.Entries
    let options: SculptJSONDecoder.Options
    // The mutable state below is this decode's alone (the decoder is not shared across threads,
    // and no access to it overlaps another), so it goes without run-time exclusivity checks,
    // which cost a tenth of a small decode.

    /// The entry of the value being decoded.
    @exclusivity(unchecked) var current: Int
    /// Its coding path.
    @exclusivity(unchecked) var node: CodingPathNode
    /// Per depth, the keys of the object last opened at that depth (see ``TapeKeyedContainer``):
    /// grown as depth needs, each table reused by the next object at its depth.
    @exclusivity(unchecked) private var keyTables: [KeyTable] = []
    /// Per depth, the dictionary of the keys of the object last looked up that way at that depth
    /// (objects with keys that are escaped or not ASCII, under a custom key strategy, or looked
    /// up by a name that is not ASCII), as `JSONDecoder` keeps one per container: one per depth
    /// at a time, so memory stays within the document's depth however many objects there are.
    @exclusivity(unchecked) private var indexes: [(object: Int, keys: [String: Int])?] = []

    init(storage: TapeStorage, entry: Int = 0, node: CodingPathNode = .root, options: SculptJSONDecoder.Options) {
        self.storage = storage
        self.entries = storage.entries
        self.options = options
        self.current = entry
        self.node = node
    }

    deinit {
        for table in keyTables { table.deallocate() }
    }

    /// The JSON text, UTF-8.
    @inline(__always) var text: UnsafeBufferPointer<UInt8> { storage.text }

    /// What `body` reads, or the ``JSONError`` `JSONDecoder` throws for the fault it met.
    @inline(__always)
    func reading<T>(_ body: () throws(TapeScalars.Invalid) -> T) throws(JSONError) -> T {
        do {
            return try body()
        } catch {
            throw storage.error(for: error)
        }
    }

    // MARK: - Decoder

    var codingPath: [any CodingKey] { node.path }

    var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let entry = entries[current]
        switch entry.kind {
        case .object:
            return KeyedDecodingContainer(try TapeKeyedContainer<Key>(decoder: self, object: current, node: node))
        case .null:
            throw DecodingError.valueNotFound([String: Any].self, .init(
                codingPath: codingPath, debugDescription: "Cannot get keyed decoding container -- found null value instead"))
        default:
            throw DecodingError.typeMismatch([String: Any].self, .init(
                codingPath: codingPath, debugDescription: "Expected to decode \([String: Any].self) but found \(Self.describe(entry)) instead."))
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let entry = entries[current]
        switch entry.kind {
        case .array:
            return TapeUnkeyedContainer(decoder: self, array: current, node: node)
        case .null:
            throw DecodingError.valueNotFound([Any].self, .init(
                codingPath: codingPath, debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
        default:
            throw DecodingError.typeMismatch([Any].self, .init(
                codingPath: codingPath, debugDescription: "Expected to decode \([Any].self) but found \(Self.describe(entry)) instead."))
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: - Decoding a value at an entry

    /// Runs `body` with the decoder pointed at `entry`, then points it back.
    @inline(__always)
    func with<T>(entry: Int, node: CodingPathNode, _ body: () throws -> T) rethrows -> T {
        let (savedEntry, savedNode) = (current, self.node)
        current = entry
        self.node = node
        defer {
            current = savedEntry
            self.node = savedNode
        }
        return try body()
    }

    /// The `T` at `entry`, the types `JSONDecoder` decodes by its strategies (dates, data, URLs,
    /// decimals, string-keyed dictionaries) read as it reads them.
    func unwrap<T: Decodable>(_ type: T.Type, at entry: Int, in parent: CodingPathNode, key: (some CodingKey)?) throws -> T {
        if T.self == String.self { return try string(at: entry, in: parent, key: key) as! T }
        if T.self == Date.self { return try date(at: entry, in: parent, key: key) as! T }
        if T.self == Data.self { return try data(at: entry, in: parent, key: key) as! T }
        if T.self == URL.self { return try url(at: entry, in: parent, key: key) as! T }
        if T.self == Decimal.self { return try decimal(at: entry, in: parent, key: key) as! T }
        // A dictionary is one reference: the size rules out most types before the conformance
        // check, which is costly when asked of every value.
        if MemoryLayout<T>.size == MemoryLayout<[String: Int]>.size, let dictionary = T.self as? any StringKeyedDictionary.Type {
            return try stringKeyedDictionary(dictionary, at: entry, in: parent, key: key) as! T
        }
        let node = parent.appending(key)
        return try with(entry: entry, node: node) { try T(from: self) }
    }

    // MARK: - Scalars

    /// Throws `valueNotFound` for `null` where a `type` is due.
    @inline(__always)
    func checkNotNull<T>(_ entry: JSONTape.Entry, _ type: T.Type, in parent: CodingPathNode, key: (some CodingKey)?) throws {
        guard entry.kind == .null else { return }
        throw DecodingError.valueNotFound(type, .init(
            codingPath: parent.path(appending: key), debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    }

    func typeMismatch(_ type: Any.Type, _ entry: JSONTape.Entry, in parent: CodingPathNode, key: (some CodingKey)?) -> DecodingError {
        .typeMismatch(type, .init(
            codingPath: parent.path(appending: key), debugDescription: "Expected to decode \(type) but found \(Self.describe(entry)) instead."))
    }

    @inline(__always)
    func string(at index: Int, in parent: CodingPathNode, key: (some CodingKey)?) throws -> String {
        let entry = entries[index]
        guard entry.kind == .string else {
            try checkNotNull(entry, String.self, in: parent, key: key)
            throw typeMismatch(String.self, entry, in: parent, key: key)
        }
        return try reading { () throws(TapeScalars.Invalid) in try TapeScalars.string(entry, in: text) }
    }

    @inline(__always)
    func bool(at index: Int, in parent: CodingPathNode, key: (some CodingKey)?) throws -> Bool {
        let entry = entries[index]
        switch entry.kind {
        case .true: return true
        case .false: return false
        default:
            // JSONDecoder reports a null Bool as a type mismatch, not a missing value.
            throw typeMismatch(Bool.self, entry, in: parent, key: key)
        }
    }

    @inline(__always)
    func integer<T: FixedWidthInteger>(_ type: T.Type, at index: Int, in parent: CodingPathNode, key: (some CodingKey)?) throws -> T {
        let entry = entries[index]
        guard entry.kind == .number else {
            try checkNotNull(entry, T.self, in: parent, key: key)
            throw typeMismatch(T.self, entry, in: parent, key: key)
        }
        return try reading { () throws(TapeScalars.Invalid) in try TapeScalars.integer(try TapeScalars.number(entry, in: text), as: T.self) }
    }

    func floatingPoint<T: BinaryFloatingPoint>(_ type: T.Type, at index: Int, in parent: CodingPathNode, key: (some CodingKey)?) throws -> T {
        let entry = entries[index]
        switch entry.kind {
        case .number:
            return try reading { () throws(TapeScalars.Invalid) in
                let bytes = try TapeScalars.number(entry, in: text)
                return T.self == Float.self ? T(try TapeScalars.float(bytes)) : T(try TapeScalars.double(bytes))
            }
        case .string:
            // Infinity and NaN spelled as the non-conforming float strategy says, byte for byte
            // (as JSONDecoder compares: `e\u{301}` is not the `é` of a strategy).
            if case .convertFromString(let positive, let negative, let nan) = options.nonConformingFloatDecodingStrategy, entry.isSimpleString,
                let text = try? TapeScalars.string(entry, in: text)
            {
                if text.utf8.elementsEqual(positive.utf8) { return .infinity }
                if text.utf8.elementsEqual(negative.utf8) { return -.infinity }
                if text.utf8.elementsEqual(nan.utf8) { return .nan }
            }
            throw typeMismatch(T.self, entry, in: parent, key: key)
        default:
            try checkNotNull(entry, T.self, in: parent, key: key)
            throw typeMismatch(T.self, entry, in: parent, key: key)
        }
    }

    // MARK: - SingleValueDecodingContainer

    func decodeNil() -> Bool { entries[current].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try bool(at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: String.Type) throws -> String { try string(at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(Double.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(Float.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: Int.Type) throws -> Int { try integer(Int.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(Int8.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(Int16.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(Int32.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(Int64.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(UInt.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(UInt8.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(UInt16.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(UInt32.self, at: current, in: node, key: Optional<IndexKey>.none) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(UInt64.self, at: current, in: node, key: Optional<IndexKey>.none) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try unwrap(T.self, at: current, in: node, key: Optional<IndexKey>.none)
    }

    // MARK: - Keys

    /// The key at `entry` as the key strategy makes it, for an object at `node`. A custom
    /// converter is called for every key of every object, as `JSONDecoder` calls it.
    ///
    /// - Throws: ``JSONError`` for a key that is not a valid string.
    func convertedKey(at entry: JSONTape.Entry, in node: CodingPathNode) throws -> String {
        switch options.keyDecodingStrategy {
        case .convertFromSnakeCase:
            if entry.isSimpleString, entry.isASCII {
                return SnakeCase.camelCased(ascii: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(text)[entry.offset..<(entry.offset + entry.length)]))
            }
            return SnakeCase.camelCased(try reading { () throws(TapeScalars.Invalid) in try TapeScalars.string(entry, in: text) })
        case .custom(let converter):
            return converter(node.path + [DictionaryKey(try reading { () throws(TapeScalars.Invalid) in try TapeScalars.string(entry, in: text) })]).stringValue
        default:
            return try reading { () throws(TapeScalars.Invalid) in try TapeScalars.string(entry, in: text) }
        }
    }

    // MARK: - Key lookups

    /// Fills the key table for `depth` with the keys of `object`; `false` when they collide (the
    /// object is then looked up through a dictionary).
    func fillKeyTable(for object: Int, depth: Int, snakeCase: Bool) -> Bool {
        while keyTables.count <= depth { keyTables.append(KeyTable()) }
        return keyTables[depth].fill(object: object, entries: entries, text: UnsafeRawBufferPointer(text), snakeCase: snakeCase, keepingHashes: storage.keyHashes)
    }

    /// The key entry for the ASCII `name` in `object`, from the table at `depth`; `nil` when the
    /// table holds another object (a container kept while a sibling was read), `.some(nil)`
    /// when the object has no such key.
    @inline(__always)
    func findKey(_ name: UnsafeRawBufferPointer, in object: Int, depth: Int) -> Int?? {
        guard depth < keyTables.count, keyTables[depth].object == object else { return nil }
        return .some(keyTables[depth].find(name, entries: entries, text: UnsafeRawBufferPointer(text)))
    }

    /// The dictionary of the keys of `object` at `depth`, when it is the one kept there.
    func index(for object: Int, depth: Int) -> [String: Int]? {
        guard depth < indexes.count, let kept = indexes[depth], kept.object == object else { return nil }
        return kept.keys
    }

    /// Keeps the dictionary of the keys of `object` at `depth`, in place of the one kept before.
    func setIndex(_ keys: [String: Int], for object: Int, depth: Int) {
        while indexes.count <= depth { indexes.append(nil) }
        indexes[depth] = (object, keys)
    }

    /// A decoder the caller may keep, for `entry` at `node`: what `superDecoder()` returns.
    func detached(at entry: Int, node: CodingPathNode) -> TapeDecoder {
        TapeDecoder(storage: storage, entry: entry, node: node, options: options)
    }

    // MARK: - Descriptions

    /// What a value is, in `JSONDecoder`'s words for a type mismatch.
    static func describe(_ entry: JSONTape.Entry) -> String {
        switch entry.kind {
        case .string: "a string"
        case .number: "number"
        case .true, .false: "bool"
        case .null: "null"
        case .object: "a dictionary"
        case .array: "an array"
        }
    }
}

/// A scanned document: its entries, and its text, which is the caller's bytes during the decode
/// and a copy of its own once the decode is over, when a decoder that reads it is still kept.
final class TapeStorage {
    let entries: JSONTape.Entries
    private(set) var text: UnsafeBufferPointer<UInt8>
    private var ownedText: UnsafeMutableRawBufferPointer?
    /// How far line feeds have been counted, for faults' lines: faults come in text order, so
    /// counting on from the last costs one pass over the text in all.
    var lineFeedsCounted = (end: 0, count: 0, last: -1)
    /// What a tracked decode leaves for a mapping report (`ReadTracking`): whether each member
    /// was looked up, and the hashes of the keys the tables made; `nil` when reads are not
    /// tracked.
    private(set) var marks: ReadMarks?
    /// The marks' read marks, at hand for each lookup.
    private var readKeys: UnsafeMutablePointer<Bool>?
    /// Where the key tables keep the hashes they make, while reads are tracked.
    private(set) var keyHashes: KeptHashes?

    init(entries: JSONTape.Entries, text: UnsafeBufferPointer<UInt8>) {
        self.entries = entries
        self.text = text
    }

    deinit {
        entries.deallocate()
        ownedText?.deallocate()
    }

    /// Starts marking the members looked up in `marks`, and keeping there the hashes of the keys
    /// the tables make.
    func trackReads(into marks: ReadMarks) {
        self.marks = marks
        readKeys = marks.read
        keyHashes = KeptHashes(hashes: marks.hashes, objects: marks.hashedObjects)
    }

    /// Marks the member whose key entry is `key` as read, when reads are tracked.
    @inline(__always)
    func markRead(_ key: Int) {
        if let readKeys { readKeys[key] = true }
    }

    /// The `null` after the document's entries: what `superDecoder(forKey:)` reads for a missing key.
    var nullEntry: Int { entries.count - 1 }

    /// Copies the text into storage of its own.
    func ownText() {
        guard ownedText == nil else { return }
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, text.count), alignment: 1)
        if let base = text.baseAddress { copy.baseAddress?.copyMemory(from: base, byteCount: text.count) }
        ownedText = copy
        text = UnsafeBufferPointer(start: copy.bindMemory(to: UInt8.self).baseAddress, count: text.count)
    }
}
