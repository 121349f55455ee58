import Foundation
import SculptShared
internal import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Foundation response and its request, read part by part when a ``ResponseContext`` is asked.
///
/// The URL and method cost tens of nanoseconds a read; the header fields are converted on each
/// read (FoundationNetworking builds a new dictionary for every read of `allHeaderFields`), by
/// `FoundationFields`. Keeping
/// them would take an allocation and a lock for every response, most of which never need them; a
/// context that is kept and read again has its fields read once (see
/// ``ResponseContext/materialized``).
struct FoundationResponse: Sendable {
    private let response: HTTPURLResponse
    private let request: URLRequest?

    init(_ response: HTTPURLResponse, request: URLRequest?) {
        self.response = response
        self.request = request
    }

    /// The response's URL (the final one, after redirects), else the request's.
    var url: URL? {
        response.url ?? request?.url
    }

    /// The request's method; `nil` without a request.
    var method: HTTPRequest.Method? {
        request.flatMap { Self.method(of: $0) }
    }

    /// The header fields, converted from the response (sorted by name: see `FoundationFields`).
    var fields: HTTPFields {
        FoundationFields.fields(of: response)
    }

    /// The first `Content-Type`'s media type: on Linux the one FoundationNetworking parsed when it
    /// made the response (reading it costs tens of nanoseconds; the field, converting them all)
    /// when it compares as the field would (see ``MediaRange/isPlain(_:)``), else the field's
    /// whole value.
    var mediaType: String? {
        #if canImport(FoundationNetworking)
        // Parsed from `Content-Type` when the response was made, lowercased, without parameters;
        // nil only when the response has no such field.
        if let mimeType = response.mimeType, MediaRange.isPlain(mimeType) { return mimeType }
        #endif
        return fields.first { $0.name == .contentType }?.value
    }

    /// Whether `filter` accepts the first `Content-Type`; a response without one is accepted.
    func contentType(isAcceptedBy filter: ContentTypeFilter) -> Bool {
        #if canImport(FoundationNetworking)
        // The parsed media type equal to one of the filter's exact types is plain, since they
        // are, and accepted: one comparison, before any look at its bytes.
        if let mimeType = response.mimeType, filter.acceptsPlainType(mimeType) { return true }
        #endif
        return mediaType.map(filter.accepts) ?? true
    }

    /// A request's method; the common ones without validating their spelling again.
    static func method(of request: URLRequest) -> HTTPRequest.Method? {
        switch request.httpMethod {
        case nil, "GET": .get
        case "POST": .post
        case "PUT": .put
        case "PATCH": .patch
        case "DELETE": .delete
        case "HEAD": .head
        case let other?: HTTPRequest.Method(other)
        }
    }
}
