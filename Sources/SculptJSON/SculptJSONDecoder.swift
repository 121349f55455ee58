public import Foundation
import Sculpt
import SculptShared

/// A JSON decoder that gives the answers `JSONDecoder` gives, faster: a `ModelDecoder` that
/// decodes straight from the bytes, without building a dictionary for every object.
///
/// ```swift
/// let serializer = ModelResponseSerializer(matcher: routes, decoder: SculptJSONDecoder())
/// var snakeCase = SculptJSONDecoder()
/// snakeCase.keyDecodingStrategy = .convertFromSnakeCase
/// let user = try snakeCase.decode(User.self, from: data)
/// ```
///
/// It scans the document once into a flat list of its values (each container knowing where it
/// ends, so anything a model does not read is passed in one step), then decodes from that list:
/// ASCII keys are looked up by their bytes in a table per depth (converted from snake case in place),
/// and only an object with escaped or non-ASCII keys, or under a custom key strategy, becomes a
/// dictionary, one depth at a time. Everything else is `JSONDecoder`'s: the same
/// strategies (its own enums: keys, dates, data, non-conforming floats), `userInfo`, the same
/// values for every document, and, for a document it refuses, the same `DecodingError` case at the
/// same coding path: what the scan refuses, and a string or number only a decode refuses, is
/// `dataCorrupted` at the top level (`"The given data was not valid JSON."`), as `JSONDecoder`
/// reports it; an integer is read exactly as `JSONDecoder` reads one (`1.0` is an `Int`, a
/// fraction is not); of duplicated keys the first is read. JSON5 is not read.
///
/// Two orders differ, where `JSONDecoder`'s is its dictionaries' hash order (seeded per process):
/// a keyed container's `allKeys`, and the members of a `[String: T]`, come in the document's
/// order, so when several members of a dictionary fail, the one reported is the first in the
/// document. A decoder or container that a type keeps past the decode (`superDecoder()`,
/// `container(keyedBy:)`) reads a copy of the text and stays valid; the decoder passed to
/// `init(from:)` itself moves on to the next value after `init(from:)` returns, as `JSONDecoder`'s
/// does, so a type that keeps it reads whatever it points at then.
public struct SculptJSONDecoder: ModelDecoder, Sendable {
    /// How keys in the document are compared with a type's coding keys: `JSONDecoder`'s strategy.
    public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
    /// How dates are read: `JSONDecoder`'s strategy.
    public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy = .deferredToDate
    /// How data is read: `JSONDecoder`'s strategy.
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy = .base64
    /// How infinity and NaN are read from strings: `JSONDecoder`'s strategy.
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    /// Values every `Decoder` of a decode gives its types.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with `JSONDecoder`'s defaults.
    public init() {}

    /// `true`: a serializer keeps the scan its type-field peek made of a body, and this decoder
    /// reads that scan instead of scanning the body again.
    public var sharesJSONScan: Bool { true }

    /// Decodes a value of `type` from JSON text (UTF-8, UTF-16 or UTF-32, as `JSONDecoder` reads
    /// it).
    ///
    /// ```swift
    /// let issues = try SculptJSONDecoder().decode([Issue].self, from: data)
    /// ```
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: the JSON text.
    /// - Throws: `DecodingError`, as `JSONDecoder` throws it for the same document and type.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let options = Options(self)
        let inPlace = try data.withUnsafeBytes { raw -> T? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard !JSONText.mayNeedTranscoding(raw) || JSONText.encoding(of: bytes) == nil else { return nil }
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            return try Self.decode(T.self, from: UnsafeBufferPointer(rebasing: bytes[start...]), of: data, options: options)
        }
        if let inPlace { return inPlace }
        guard let text = JSONText(data) else { throw Self.notJSON }
        return try text.utf8.withUnsafeBytes { raw in
            try Self.decode(T.self, from: raw.bindMemory(to: UInt8.self), of: data, options: options)
        }
    }

    /// The decode proper, over UTF-8 that lives for the call (`body`'s text): from the scan the
    /// type-field peek made of it (see `SharedScan`), or from a scan of its own.
    private static func decode<T: Decodable>(_ type: T.Type, from text: UnsafeBufferPointer<UInt8>, of body: Data, options: Options) throws -> T {
        let entries: JSONTape.Entries
        if let shared = SharedScan.take(for: text, of: body) {
            entries = shared
        } else {
            do {
                entries = try JSONTape.scan(text)
            } catch {
                throw notJSON
            }
        }
        var storage = TapeStorage(entries: entries, text: text)
        let tracking = ReadTracking.beginDecode(of: body)
        if let tracking { storage.trackReads(into: tracking.marks(forScanOf: entries.count)) }
        defer {
            tracking?.endDecode()
            // A decoder or container a type kept (stored in a property) holds the storage still,
            // once the decode's own decoder is gone: it reads a copy of the text, which lives only
            // for this call. Otherwise nothing is copied.
            if !isKnownUniquelyReferenced(&storage) { storage.ownText() }
        }
        do {
            let value = try TapeDecoder(storage: storage, options: options).unwrap(T.self, at: 0, in: .root, key: Optional<IndexKey>.none)
            if let tracking, let marks = storage.marks { tracking.record(entries, text: storage.text, marks: marks, seed: KeyBytes.seed) }
            return value
        } catch is JSONError {
            throw notJSON
        }
    }

    /// What `JSONDecoder` throws for text it does not read as JSON, a fault met in a value included.
    private static var notJSON: DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "The given data was not valid JSON."))
    }
}

extension SculptJSONDecoder {
    /// A decode's settings, read once.
    struct Options {
        let keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy
        let dateDecodingStrategy: JSONDecoder.DateDecodingStrategy
        let dataDecodingStrategy: JSONDecoder.DataDecodingStrategy
        let nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy
        let userInfo: [CodingUserInfoKey: Any]
        /// Whether keys are compared as they are written.
        let usesDefaultKeys: Bool
        /// Whether keys are converted from snake case.
        let usesSnakeCase: Bool

        init(_ decoder: SculptJSONDecoder) {
            keyDecodingStrategy = decoder.keyDecodingStrategy
            dateDecodingStrategy = decoder.dateDecodingStrategy
            dataDecodingStrategy = decoder.dataDecodingStrategy
            nonConformingFloatDecodingStrategy = decoder.nonConformingFloatDecodingStrategy
            userInfo = decoder.userInfo
            if case .useDefaultKeys = decoder.keyDecodingStrategy { usesDefaultKeys = true } else { usesDefaultKeys = false }
            if case .convertFromSnakeCase = decoder.keyDecodingStrategy { usesSnakeCase = true } else { usesSnakeCase = false }
        }
    }
}

/// The decoder marks the members it reads for a mapping report.
extension SculptJSONDecoder: TracksReads {}
