import SculptShared

/// A decision a serializer's decode made that lost part of a response without failing it: an
/// element a lossy array left out, a ``Lossy`` model that came out `nil`, an unknown type tag
/// answered by a fallback type. The serializer's ``ModelResponseSerializer/decodingObserver``
/// receives one for each, when the response has serialized.
///
/// ```swift
/// serializer.decodingObserver = { event in
///     logger.warning("\(event)")  // swift-log's Logger, os.Logger, or print
/// }
/// // GET https://api.example.com/repos/apple/swift/issues -> 200 OK, route GET /repos/{owner}/{repo}/issues -> LossyArray<Issue>:
/// // skipped element [3]: At [3].number: expected Int. (the value is not shown)
/// ```
///
/// An event holds text, not the response: its ``reason`` quotes no value from the body, only an
/// unknown type tag is quoted, and each text passes the gate every text of Sculpt's passes
/// (secrets redacted, one line, bounded), so it can go to a production log. ``error`` is the
/// error itself, for code that wants more (its description may quote the body). Docs/TypeFields.md
/// says what each text holds and what events cost.
///
/// The events of a response are delivered when the serializer succeeds, in the order the decode
/// made them, just before it returns: a response that fails reports its error instead, and loses
/// nothing quietly.
public struct DecodingEvent: Sendable, CustomStringConvertible {
    /// What was lost.
    public enum Kind: Sendable, Equatable, CustomStringConvertible {
        /// A ``LossyArray`` or ``LossyPolymorphicArray`` left out the element at `index`, whose
        /// type tag was `tag` (for a polymorphic array whose element had one), written as
        /// ``unknownTag(field:found:fallback:)``'s `found` is.
        case elementSkipped(index: Int, tag: String?)
        /// A ``Lossy`` model did not decode and is `nil`.
        case valueDropped
        /// A type field's value was missing (`found` is `nil`) or not registered, and the
        /// `fallback` type was decoded in its place: a ``TypeFieldFamily``'s in a
        /// ``PolymorphicArray``, or a type-field matcher's for the whole body. `found` is the
        /// value as JSON writes it (`"Poll"`, `3`, `true`), or what stands there (`null`, `an
        /// object`, `an array`); cut at 256 bytes.
        case unknownTag(field: String, found: String?, fallback: String)

        /// E.g. `skipped element [3] (tag "Deleted")`, `"type" is "Poll", not registered; decoded as
        /// JSONValue`: one line, through the gate every text of Sculpt's passes (secrets redacted,
        /// control and invisible characters escaped).
        public var description: String {
            let text = switch self {
            case .elementSkipped(let index, let tag):
                "skipped element [\(index)]" + (tag.map { " (tag \($0))" } ?? "")
            case .valueDropped:
                "dropped a value that did not decode"
            case .unknownTag(let field, let found, let fallback):
                "\(TagText.sentence(field: field, found: found)); decoded as \(fallback)"
            }
            return ShownText.line(text, limit: 1_024)
        }

        /// The kind with the text it quotes from the body (a tag, the value found) cut at
        /// ``ElementFailure/tagLimit`` bytes, as an event keeps it.
        var bounded: Kind {
            switch self {
            case .elementSkipped(let index, let tag): .elementSkipped(index: index, tag: tag.map { ClippedText.value($0, limit: ElementFailure.tagLimit) })
            case .valueDropped: .valueDropped
            case .unknownTag(let field, let found, let fallback):
                .unknownTag(field: field, found: found.map { ClippedText.value($0, limit: ElementFailure.tagLimit) }, fallback: fallback)
            }
        }
    }

    /// What was lost.
    public let kind: Kind
    /// Where in the body, as a key path: `items[3]`; `(top level)` for the whole body.
    public let codingPath: String
    /// Why, for a skipped element or a dropped value, without any value from the body: `At
    /// [3].number: expected Int. (the value is not shown)`. `nil` for an unknown tag.
    public let reason: String?
    /// The error itself, for a skipped element or a dropped value. Its description may quote the
    /// body: log ``reason`` instead.
    public let error: (any Error)?
    /// The route that resolved the response, as its matcher describes it (``ModelMatcher/matchedRoute(for:data:)``):
    /// `GET /repos/{owner}/{repo}/issues -> LossyArray<Issue>`.
    public let route: String?
    /// The request's method, when known.
    public let method: String?
    /// The response's status code.
    public let status: Int
    /// The response's URL, redacted and cut as ``ResponseContext``'s description shows it.
    public let url: String

    /// Creates an event.
    /// - Parameters:
    ///   - kind: what was lost.
    ///   - codingPath: where in the body, as a key path.
    ///   - reason: why, without any value from the body.
    ///   - error: the error itself.
    ///   - route: the route that resolved the response.
    ///   - method: the request's method.
    ///   - status: the response's status code.
    ///   - url: the response's URL, redacted.
    public init(kind: Kind, codingPath: String, reason: String? = nil, error: (any Error)? = nil, route: String?, method: String?, status: Int, url: String) {
        self.kind = kind
        self.codingPath = codingPath
        self.reason = reason
        self.error = error
        self.route = route
        self.method = method
        self.status = status
        self.url = url
    }

    /// The response, the route, what was lost and why, on one line: `GET https://… -> 200, route
    /// GET /repos/{owner}/{repo}/issues -> LossyArray<Issue>: skipped element [3]: At [3].number:
    /// expected Int. (the value is not shown)`.
    public var description: String {
        let route = self.route.map { ", route \($0)" } ?? ""
        let place = reason == nil ? " at \(codingPath)" : ""
        let reason = self.reason.map { ": \($0)" } ?? ""
        // One line whatever the parts hold, so that what a server sent cannot pose as another log line.
        return ShownText.line("\(method ?? "(method unknown)") \(url) -> \(status)\(route): \(kind)\(place)\(reason)", limit: 4_096)
    }
}
