public import Foundation
public import Sculpt
public import XMLCoder

/// XMLCoder's `XMLDecoder` as a ``Sculpt/ModelDecoder``: XML models, key paths included, for any
/// serializer.
///
/// ```swift
/// var routes = URLModelMatcher()
/// try routes.add("/feed.xml", [FeedItem].self, at: "channel.item")
/// let serializer = ModelResponseSerializer(matcher: routes, decoders: [.json(), .xml()])
/// ```
///
/// The root element is the top-level container, as XMLCoder reads it: a key path starts from the
/// root element's children (`channel.item` in an RSS `<rss>` document). Elements and attributes are
/// both keys; repeated elements decode as an array.
///
/// Each decode uses a new `XMLDecoder` (XMLCoder's decoder is a class and not `Sendable`), set up by
/// `configure`, so one serializer can be shared by any number of tasks.
public struct XMLModelDecoder: ModelDecoder {
    private let configure: @Sendable (XMLDecoder) -> Void

    /// Creates a decoder whose `XMLDecoder`s are set up by `configure`.
    ///
    /// ```swift
    /// // SOAP: element names without their namespace prefixes (soap:Body reads as Body).
    /// let soap = XMLModelDecoder { $0.shouldProcessNamespaces = true }
    /// ```
    public init(configure: @escaping @Sendable (XMLDecoder) -> Void = { _ in }) {
        self.configure = configure
    }

    /// Decodes a value of `type` from an XML document.
    ///
    /// ```swift
    /// let feed = try XMLModelDecoder().decode(Feed.self, from: data)
    /// ```
    /// - Throws: `DecodingError`: `dataCorrupted` for a document that is not well-formed XML (its
    ///   underlying error is the parser's) or whose bytes are not valid in its encoding (checked
    ///   before the parser reads them: FoundationXML's parser crashes on some), the usual cases for
    ///   one that does not fit `type`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let decoder = XMLDecoder()
        configure(decoder)
        return try decoder.decode(T.self, from: XMLDocumentText.utf8(data))
    }
}
