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
}

extension JSONDecoder: ModelDecoder {}

extension PropertyListDecoder: ModelDecoder {}
