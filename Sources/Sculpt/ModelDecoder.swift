import Foundation
import SculptShared

/// Something that turns bytes into a `Decodable` value: the format half of a serializer.
///
/// ```swift
/// let serializer = ModelResponseSerializer(matcher: matcher, decoder: PropertyListDecoder())
/// ```
///
/// `JSONDecoder` and `PropertyListDecoder` conform as they are; wrap any other decoder in a small
/// `Sendable` struct. A decoder decodes synchronously, on the calling thread, as they do: a model
/// type's key path and an envelope's metadata are read through the thread the serializer calls
/// it on. Implementations throw `DecodingError` for bytes that do not fit the type,
/// which the serializer reports as ``SculptError/Reason/decodingFailed(_:underlying:)``.
public protocol ModelDecoder: Sendable {
    /// Decodes a value of `type` from `data`.
    ///
    /// ```swift
    /// let user = try JSONDecoder().decode(User.self, from: data)
    /// ```
    /// - Throws: `DecodingError` when the bytes do not fit `type`.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T

    /// The byte offset at which `data` opens level `limit + 1`, as this decoder's format counts
    /// levels, or `nil` when it nests no deeper: what ``ModelResponseSerializer/maximumNestingDepth``
    /// asks of the decoder that will read a body, before it reads it. The default counts JSON
    /// arrays and objects (brackets inside strings do not count); a decoder for another format
    /// counts that format's levels.
    ///
    /// ```swift
    /// JSONDecoder().nestingOffset(exceeding: 1, in: Data(#"{"a":[1]}"#.utf8))  // 5
    /// ```
    func nestingOffset(exceeding limit: Int, in data: Data) -> Int?

    /// Refuses `data` when this decoder could not read it within bounded time and stack, or
    /// without stopping the process, whatever the serializer's limits: the serializer asks it of
    /// every body before the decoder reads it. The default refuses nothing. `JSONDecoder`'s
    /// refuses a body whose last character opens level 513, which it traps on.
    /// `PropertyListDecoder`'s refuses what a few bytes of a binary property list can describe (a
    /// container that holds itself, containers held in many places) and more than 512 levels.
    ///
    /// ```swift
    /// try PropertyListDecoder().checkBounds(of: body)
    /// ```
    /// - Throws: `DecodingError.dataCorrupted` saying what the body holds, and where.
    func checkBounds(of data: Data) throws

    /// Whether this decoder reads the scan a type-field peek made of the same JSON body, so that
    /// the serializer keeps that scan for it instead of each scanning the body. SculptJSON's
    /// `SculptJSONDecoder` does; the default is `false`.
    var sharesJSONScan: Bool { get }
}

extension ModelDecoder {
    /// Counts JSON arrays and objects; brackets inside strings do not count.
    ///
    /// ```swift
    /// JSONDecoder().nestingOffset(exceeding: 1, in: Data(#"[[1]]"#.utf8))  // 1
    /// ```
    /// - Parameters:
    ///   - limit: the deepest nesting allowed.
    ///   - data: the body.
    public func nestingOffset(exceeding limit: Int, in data: Data) -> Int? {
        NestingDepth.firstOffset(exceeding: limit, in: data)
    }

    /// Refuses nothing: a decoder that reads any body within bounded time and stack needs no
    /// check.
    /// - Parameter data: the body about to be decoded.
    public func checkBounds(of data: Data) throws {}

    /// `false`: the decoder scans each body itself.
    public var sharesJSONScan: Bool { false }

    /// `data` decoded as `type`, once ``checkBounds(of:)`` has let it through: how every body a
    /// serializer reads is decoded.
    @usableFromInline
    func decodeBody<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try checkBounds(of: data)
        return try decode(type, from: data)
    }
}

extension PropertyListDecoder: ModelDecoder {
    /// Counts the elements of an XML property list (`<plist>` and the values inside it), in
    /// UTF-8, UTF-16 or UTF-32, and the levels of a binary one as its XML form would have them; a
    /// binary list whose containers hold themselves nests deeper than any limit.
    ///
    /// ```swift
    /// PropertyListDecoder().nestingOffset(exceeding: 1, in: Data("<plist><array/></plist>".utf8))  // 7
    /// ```
    /// - Parameters:
    ///   - limit: the deepest nesting allowed.
    ///   - data: the body.
    public func nestingOffset(exceeding limit: Int, in data: Data) -> Int? {
        if data.starts(with: PropertyListBounds.binaryMagic) {
            switch BinaryPropertyList.firstFinding(in: data, maximumDepth: limit, maximumValues: .max) {
            case .tooDeep(let offset), .holdsItself(let offset): return offset
            case .tooManyValues, .unreadable, .unreadableTrailer, nil: return nil
            }
        }
        // Foundation's parser ends a tag at its first `>`, quoted or not: so are levels counted.
        return XMLMarkup.firstOffset(exceedingDepth: limit, inEncoded: data, quotesHideMarkup: false)
    }

    /// Refuses a property list that `PropertyListDecoder` could not read within bounded time and
    /// stack: more than 512 levels (XML or binary), and in a binary list a container that holds
    /// itself, a count or reference that does not fit the list, or containers held in so many
    /// places that decoding would visit more values than the list has bytes.
    ///
    /// ```swift
    /// try PropertyListDecoder().checkBounds(of: body)
    /// ```
    /// - Parameter data: the body about to be decoded.
    /// - Throws: `DecodingError.dataCorrupted` saying which, and at which byte.
    public func checkBounds(of data: Data) throws {
        try PropertyListBounds.check(data, nestingOffset: nestingOffset(exceeding:in:))
    }
}
