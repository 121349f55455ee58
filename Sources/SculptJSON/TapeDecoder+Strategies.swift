import Foundation
import Sculpt
import SculptShared

/// The types `JSONDecoder` reads by its own rules rather than their `Decodable` conformance, read
/// the same way: dates and data by the strategies set, URLs and decimals from their text, and
/// string-keyed dictionaries with their keys as written even under a key decoding strategy.
extension TapeDecoder {
    func date(at index: Int, in parent: CodingPathNode, key: (some CodingKey)?) throws -> Date {
        let entry = entries[index]
        try checkNotNull(entry, Date.self, in: parent, key: key)
        switch options.dateDecodingStrategy {
        case .deferredToDate:
            return try with(entry: index, node: parent.appending(key)) { try Date(from: self) }
        case .secondsSince1970:
            return Date(timeIntervalSince1970: try floatingPoint(Double.self, at: index, in: parent, key: key))
        case .millisecondsSince1970:
            return Date(timeIntervalSince1970: try floatingPoint(Double.self, at: index, in: parent, key: key) / 1000.0)
        case .iso8601:
            let text = try string(at: index, in: parent, key: key)
            guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
                // JSONDecoder names the container's path here, not the value's.
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "Expected date string to be ISO8601-formatted."))
            }
            return date
        #if canImport(Darwin)
        // Apple's Foundation only: FoundationEssentials on Linux has no formatted strategy.
        case .formatted(let formatter):
            let text = try string(at: index, in: parent, key: key)
            guard let date = formatter.date(from: text) else {
                throw DecodingError.dataCorrupted(.init(
                    codingPath: parent.path(appending: key), debugDescription: "Date string does not match format expected by formatter."))
            }
            return date
        #endif
        case .custom(let closure):
            return try with(entry: index, node: parent.appending(key)) { try closure(self) }
        @unknown default:
            return try with(entry: index, node: parent.appending(key)) { try Date(from: self) }
        }
    }

    func data(at index: Int, in parent: CodingPathNode, key: (some CodingKey)?) throws -> Data {
        let entry = entries[index]
        try checkNotNull(entry, Data.self, in: parent, key: key)
        switch options.dataDecodingStrategy {
        case .deferredToData:
            return try with(entry: index, node: parent.appending(key)) { try Data(from: self) }
        case .base64:
            guard entry.kind == .string else { throw typeMismatch(String.self, entry, in: parent, key: key) }
            guard let data = Data(base64Encoded: try string(at: index, in: parent, key: key)) else {
                throw DecodingError.dataCorrupted(.init(codingPath: parent.path(appending: key), debugDescription: "Encountered Data is not valid Base64."))
            }
            return data
        case .custom(let closure):
            return try with(entry: index, node: parent.appending(key)) { try closure(self) }
        @unknown default:
            return try with(entry: index, node: parent.appending(key)) { try Data(from: self) }
        }
    }

    func url(at index: Int, in parent: CodingPathNode, key: (some CodingKey)?) throws -> URL {
        try checkNotNull(entries[index], URL.self, in: parent, key: key)
        guard let url = URL(string: try string(at: index, in: parent, key: key)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: parent.path(appending: key), debugDescription: "Invalid URL string."))
        }
        return url
    }

    func decimal(at index: Int, in parent: CodingPathNode, key: (some CodingKey)?) throws -> Decimal {
        let entry = entries[index]
        try checkNotNull(entry, Decimal.self, in: parent, key: key)
        guard entry.kind == .number else {
            throw DecodingError.typeMismatch(Decimal.self, .init(codingPath: parent.path(appending: key), debugDescription: ""))
        }
        return try reading { () throws(TapeScalars.Invalid) in
            let text = String(decoding: try TapeScalars.number(entry, in: self.text), as: UTF8.self)
            // No locale: without one the decimal separator is `.`, as JSON's is, and no locale's
            // separator is looked up for each number (with one, a decode took 1.3 times
            // JSONDecoder's).
            guard let value = Decimal(string: text) else { throw .notRepresentable(parsed: text) }
            return value
        }
    }

    /// A `[String: Value]`, in one walk of its members. Under a key decoding strategy it is read
    /// as `JSONDecoder` reads it then: the object's keys as written (the strategy converts the
    /// keys of types, not of dictionaries), every value decoded, the first of a repeated name
    /// kept. Under the default keys it is read as `Dictionary.init(from:)` reads it from
    /// `JSONDecoder`'s keyed container, without the container: the keys checked as the container
    /// checks them, then each name's first value decoded at a key whose `intValue` is the name
    /// read as an `Int` (the standard library's dictionary key), later ones never read.
    func stringKeyedDictionary(_ type: any StringKeyedDictionary.Type, at index: Int, in parent: CodingPathNode, key: (some CodingKey)?) throws -> Any {
        let entry = entries[index]
        let node = parent.appending(key)
        let firstOnly = options.usesDefaultKeys
        if firstOnly {
            switch entry.kind {
            case .object: _ = try TapeKeyedContainer<IndexKey>.checkKeys(of: index, in: self)
            case .null:
                throw DecodingError.valueNotFound([String: Any].self, .init(
                    codingPath: node.path, debugDescription: "Cannot get keyed decoding container -- found null value instead"))
            default:
                throw DecodingError.typeMismatch([String: Any].self, .init(
                    codingPath: node.path, debugDescription: "Expected to decode \([String: Any].self) but found \(Self.describe(entry)) instead."))
            }
        } else {
            try checkNotNull(entry, [String: Any].self, in: parent, key: key)
            guard entry.kind == .object else {
                throw DecodingError.typeMismatch([String: Any].self, .init(
                    codingPath: parent.path(appending: key), debugDescription: "Expected to decode \([String: Any].self) but found \(Self.describe(entry)) instead."))
            }
        }
        var members = ObjectMembers(decoder: self, object: index)
        return try type.decodeMembers(&members, firstOnly: firstOnly) { valueType, name, valueEntry in
            self.storage.markRead(valueEntry - 2)
            return try firstOnly
                ? self.unwrapOpened(valueType, at: valueEntry, in: node, key: DictionaryKey(member: name))
                : self.unwrapOpened(valueType, at: valueEntry, in: node, key: DictionaryKey(name))
        }
    }

    /// ``unwrap(_:at:in:key:)`` for a type known only at run time.
    func unwrapOpened(_ type: any Decodable.Type, at entry: Int, in parent: CodingPathNode, key: some CodingKey) throws -> any Decodable {
        try unwrap(type, at: entry, in: parent, key: key)
    }
}

/// A `[String: Value]`: what `JSONDecoder` decodes with the object's own keys under any key
/// strategy (the strategy converts the keys of types, not of dictionaries).
protocol StringKeyedDictionary {
    /// Builds the dictionary of an object's `members`, each value decoded by `decode`, the first
    /// of repeated names kept; with `firstOnly`, the values of repeated names are not decoded at
    /// all.
    static func decodeMembers(
        _ members: inout ObjectMembers, firstOnly: Bool, _ decode: (any Decodable.Type, String, Int) throws -> any Decodable
    ) throws -> Self
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
    static func decodeMembers(
        _ members: inout ObjectMembers, firstOnly: Bool, _ decode: (any Decodable.Type, String, Int) throws -> any Decodable
    ) throws -> Self {
        var result: [String: Value] = [:]
        // An empty dictionary stays the shared empty one: reserving room for none allocates.
        if members.count > 0 { result.reserveCapacity(members.count) }
        while let (name, entry) = try members.next() {
            if firstOnly, result[name] != nil { continue }
            guard let value = try decode(Value.self, name, entry) as? Value, result[name] == nil else { continue }
            result[name] = value
        }
        return result
    }
}

/// An object's members in the document's order, each name read when its member is reached (so
/// under a key strategy an invalid name fails the decode only after the values before it, as
/// `JSONDecoder` reads them).
struct ObjectMembers {
    private let decoder: TapeDecoder
    private var position: Int
    private let end: Int
    /// How many members the object has.
    let count: Int

    init(decoder: TapeDecoder, object: Int) {
        self.decoder = decoder
        position = JSONTape.firstChild(of: object)
        end = decoder.entries[object].end
        count = decoder.entries[object].count
    }

    /// The next member's name and the entry of its value.
    ///
    /// - Throws: ``JSONError`` when the name is not a valid string.
    mutating func next() throws -> (name: String, value: Int)? {
        guard position < end else { return nil }
        let entry = decoder.entries[position]
        let text = decoder.text
        let member = (try decoder.reading { () throws(TapeScalars.Invalid) in try TapeScalars.string(entry, in: text) }, JSONTape.value(ofKey: position))
        position = decoder.entries.next(afterMember: position)
        return member
    }
}

/// A dictionary's key in a coding path: as `JSONDecoder` writes it under a key strategy (no
/// `intValue`), or as the standard library's `Dictionary.init(from:)` makes it (``init(member:)``).
struct DictionaryKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(_ name: String) { (stringValue, intValue) = (name, nil) }
    /// The key `Dictionary.init(from:)` gets from `allKeys`: its `intValue` is the name read as an
    /// `Int`, when it is one.
    init(member name: String) { (stringValue, intValue) = (name, Int(name)) }
    init?(stringValue: String) { self.init(stringValue) }
    init?(intValue: Int) { nil }
}
