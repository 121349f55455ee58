public import Foundation
import SculptShared
public import Sculpt
public import XMLCoder

/// XMLCoder's `XMLDecoder` as a `ModelDecoder`: XML models, key paths included, for any
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
///
/// Before the parser reads a document, the decoder refuses what would crash it or run without
/// bound or read part of it as the whole, each as a `DecodingError` (so a serializer's
/// `SculptError.Reason.decodingFailed(_:underlying:)` that keeps the body): bytes not valid in
/// the document's encoding, text or a second root element outside the root (FoundationXML's parser
/// on Linux reports success and XMLCoder read the first root alone), elements nested deeper than
/// ``maximumNestingDepth`` (XMLCoder recurses once per level: 30,000 levels overflow a thread's stack), a
/// DTD internal subset (entity declarations, whose expansion is unbounded), and, on Linux, a
/// document over ``maximumDocumentSize`` bytes (FoundationXML's parser fails beyond it without a
/// reason).
public struct XMLModelDecoder: ModelDecoder {
    /// The deepest element nesting this decoder reads; the root element is level 1.
    public let maximumNestingDepth: Int

    private let configure: @Sendable (XMLDecoder) -> Void

    /// Creates a decoder whose `XMLDecoder`s are set up by `configure`, reading documents whose
    /// elements nest at most `maximumNestingDepth` levels (at least 1: a document has its root).
    ///
    /// ```swift
    /// // SOAP: element names without their namespace prefixes (soap:Body reads as Body).
    /// let soap = XMLModelDecoder { $0.shouldProcessNamespaces = true }
    /// ```
    ///
    /// XMLCoder's `errorContextLength` is always 0: XMLCoder traps building the context of an
    /// error in a document of several lines.
    /// - Parameters:
    ///   - maximumNestingDepth: the deepest element nesting read; a deeper document is refused before decoding.
    ///   - configure: sets up each `XMLDecoder` the decoder makes, such as its key strategy.
    public init(maximumNestingDepth: Int = 256, configure: @escaping @Sendable (XMLDecoder) -> Void = { _ in }) {
        self.maximumNestingDepth = max(1, maximumNestingDepth)
        self.configure = configure
    }

    /// The largest document FoundationXML's parser reads on Linux, in bytes of UTF-8: libxml2's
    /// limit for a document parsed without `XML_PARSE_HUGE`.
    public static let maximumDocumentSize = 10_000_000

    /// Decodes a value of `type` from an XML document.
    ///
    /// ```swift
    /// let feed = try XMLModelDecoder().decode(Feed.self, from: data)
    /// ```
    /// - Parameters:
    ///   - type: the type to decode.
    ///   - data: the XML document.
    /// - Throws: `DecodingError`: `dataCorrupted` for a document that is not well-formed XML (its
    ///   reason is in words), whose bytes are not valid in its encoding, with content outside its
    ///   root element, that nests
    ///   deeper than ``maximumNestingDepth``, declares a DTD internal subset, or (on Linux) is over
    ///   ``maximumDocumentSize``; the usual cases for one that does not fit `type`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let document = try XMLDocumentText.readable(data, maximumDepth: maximumNestingDepth)
        let decoder = XMLDecoder()
        configure(decoder)
        decoder.errorContextLength = 0
        do {
            return try decoder.decode(T.self, from: document)
        } catch {
            throw XMLSyntaxError.decodingError(for: error, in: document) ?? error
        }
    }

    /// Counts elements: the root is level 1; a `[` in text is not a level. The offset is in the
    /// body's bytes as sent, in any encoding.
    ///
    /// ```swift
    /// XMLModelDecoder().nestingOffset(exceeding: 1, in: Data("<a><b/></a>".utf8))  // 3
    /// ```
    /// - Parameters:
    ///   - limit: the deepest nesting allowed.
    ///   - data: the document.
    public func nestingOffset(exceeding limit: Int, in data: Data) -> Int? {
        XMLMarkup.firstOffset(exceedingDepth: limit, inEncoded: data)
    }
}
