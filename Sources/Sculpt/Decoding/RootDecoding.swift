import Foundation
import SculptShared

/// Runs a closure on the root `Decoder` of one decode of `data`, for decodes that need context
/// a `Decodable` type cannot carry (a key path, an envelope's model type): the document is parsed
/// once, and the closure decides what to build from it.
@usableFromInline
enum RootDecoding {
    /// Decodes `data` with `decoder`, building the value with `body` from the root `Decoder`.
    @usableFromInline
    static func decode<T>(
        _ data: Data, using decoder: any ModelDecoder, _ body: @escaping @Sendable (any Decoder) throws -> T
    ) throws -> T {
        let root = try current.withValue(body) { try decoder.decodeBody(Root.self, from: data) }
        guard let value = root.value as? T else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the root decode produced \(type(of: root.value)), not \(T.self)"))
        }
        return value
    }

    /// The closure for the decode in progress on this thread. `Decoder` has no channel that works
    /// for every `ModelDecoder` (a `JSONDecoder`'s `userInfo` is shared by all its callers), so the
    /// closure travels as a thread-local value, set and read on the same thread within one call:
    /// `ModelDecoder`s decode synchronously, as `JSONDecoder` and `PropertyListDecoder` do.
    private static let current = ThreadLocal<@Sendable (any Decoder) throws -> Any>()

    private struct Root: Decodable {
        let value: Any

        init(from decoder: any Decoder) throws {
            guard let body = RootDecoding.current.value else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription:
                    "the decoder read the body on another thread than the serializer's; a key path or an envelope needs a ModelDecoder that decodes on the calling thread"))
            }
            value = try body(decoder)
        }
    }
}
