import Foundation

/// Something that turns bytes into a `Decodable` value: the format half of a serializer.
///
/// ```swift
/// let serializer = ModelResponseSerializer(matcher: matcher, decoder: PropertyListDecoder())
/// ```
///
/// `JSONDecoder` and `PropertyListDecoder` conform as they are; wrap any other decoder in a small
/// `Sendable` struct. Implementations throw `DecodingError` for bytes that do not fit the type,
/// which the serializer reports as ``SculptError/decodingFailed(_:underlying:_:)``.
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
}

extension ModelDecoder {
    /// Counts JSON arrays and objects; brackets inside strings do not count.
    ///
    /// ```swift
    /// JSONDecoder().nestingOffset(exceeding: 1, in: Data(#"[[1]]"#.utf8))  // 1
    /// ```
    public func nestingOffset(exceeding limit: Int, in data: Data) -> Int? {
        NestingDepth.firstOffset(exceeding: limit, in: data)
    }
}

extension JSONDecoder: ModelDecoder {}

extension PropertyListDecoder: ModelDecoder {
    /// Counts the elements of an XML property list (`<plist>` and the values inside it); a binary
    /// property list (`bplist`) is left to the decoder.
    ///
    /// ```swift
    /// PropertyListDecoder().nestingOffset(exceeding: 1, in: Data("<plist><array/></plist>".utf8))  // 7
    /// ```
    public func nestingOffset(exceeding limit: Int, in data: Data) -> Int? {
        guard !data.starts(with: Array("bplist".utf8)) else { return nil }
        guard case .tooDeep(let offset) = XMLMarkup.firstFinding(in: data, maximumDepth: limit) else { return nil }
        return offset
    }
}
