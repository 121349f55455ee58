public import Foundation
import SculptShared

/// A decoder and the content types it reads: one entry of a serializer's
/// ``ModelResponseSerializer/decoders``, which picks the decoder for each response by its
/// `Content-Type`.
///
/// ```swift
/// let serializer = ModelResponseSerializer(matcher: routes, decoders: [
///     .json(),
///     .propertyList(),
///     ContentDecoder(YAMLModelDecoder(), for: ["application/yaml"]),
/// ])
/// ```
///
/// The content types are media ranges, compared as ``ModelResponseSerializer/acceptableContentTypes``
/// compares them: exact types (`application/json`), a whole type (`text/*`) or a structured suffix
/// (`*/*+json`), case-insensitively, parameters ignored.
public struct ContentDecoder: Sendable {
    /// Turns the bodies of these content types into models.
    public let decoder: any ModelDecoder

    /// The media ranges whose bodies ``decoder`` reads.
    public let contentTypes: Set<String>

    /// ``contentTypes``, parsed once.
    let filter: ContentTypeFilter

    /// Pairs a decoder with the content types it reads.
    ///
    /// ```swift
    /// let yaml = ContentDecoder(YAMLModelDecoder(), for: ["application/yaml", "text/yaml"])
    /// ```
    /// - Parameters:
    ///   - decoder: the decoder.
    ///   - contentTypes: the media ranges it reads: `application/json`, `text/*` or `*/*+json`.
    public init(_ decoder: any ModelDecoder, for contentTypes: Set<String>) {
        self.decoder = decoder
        self.contentTypes = contentTypes
        self.filter = ContentTypeFilter(contentTypes)
    }

    /// JSON under its registered and legacy names (`application/json`, `text/json`,
    /// `text/javascript`) and any `+json` structured suffix (`application/vnd.github+json`,
    /// `application/problem+json`).
    ///
    /// ```swift
    /// let decoder = JSONDecoder()
    /// decoder.keyDecodingStrategy = .convertFromSnakeCase
    /// let serializer = ModelResponseSerializer(matcher: routes, decoders: [.json(decoder)])
    /// ```
    /// - Parameter decoder: The decoder, with its strategies set.
    public static func json(_ decoder: JSONDecoder = JSONDecoder()) -> ContentDecoder {
        ContentDecoder(decoder, for: jsonContentTypes)
    }

    /// Property lists, XML or binary, under the names servers send them: `application/x-plist`
    /// (the common one) and `application/plist`.
    ///
    /// ```swift
    /// let serializer = ModelResponseSerializer(matcher: routes, decoders: [.json(), .propertyList()])
    /// ```
    /// - Parameter decoder: The decoder.
    public static func propertyList(_ decoder: PropertyListDecoder = PropertyListDecoder()) -> ContentDecoder {
        ContentDecoder(decoder, for: ["application/x-plist", "application/plist"])
    }

    /// The media ranges of ``json(_:)``, and a serializer's default
    /// ``ModelResponseSerializer/acceptableContentTypes``: `application/json`, `text/json`,
    /// `text/javascript` and any `+json` structured suffix (`*/*+json`).
    ///
    /// ```swift
    /// serializer.acceptableContentTypes = ContentDecoder.jsonContentTypes.union(["text/plain"])
    /// ```
    public static var jsonContentTypes: Set<String> {
        ["application/json", "text/json", "text/javascript", "*/*+json"]
    }
}
