import Foundation
import SculptShared
internal import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where a ``ResponseContext``'s URL, method and header fields come from: given part by part, or
/// a Foundation response, read when something asks.
///
/// A serializer needs little of a response: its status and content type for every response, its
/// URL and method only for a matcher that reads them, its header fields only to describe a
/// failure. Reading an `HTTPURLResponse`'s URL, its request's method and its 24 header fields up
/// front cost more than the pipeline around a 1.2 KB decode, so a context made from a Foundation
/// response keeps the response and reads each part when asked. Setting a part makes the context
/// hold parts, the others still read from the response.
struct ResponseSource: Sendable {
    private enum Storage: Sendable {
        case parts(Parts)
        case foundation(FoundationResponse)
    }

    /// A context's parts once one was given.
    private struct Parts: Sendable {
        var url: URL?
        var method: HTTPRequest.Method?
        var fields: Fields
    }

    /// Header fields given, or still to be read from a Foundation response.
    private enum Fields: Sendable {
        case given(HTTPFields)
        case foundation(FoundationResponse)

        var fields: HTTPFields {
            switch self {
            case .given(let fields): fields
            case .foundation(let response): response.fields
            }
        }

        var mediaType: String? {
            switch self {
            case .given(let fields): fields.first { $0.name == .contentType }?.value
            case .foundation(let response): response.mediaType
            }
        }
    }

    private var storage: Storage

    init(url: URL?, method: HTTPRequest.Method?, fields: HTTPFields) {
        storage = .parts(Parts(url: url, method: method, fields: .given(fields)))
    }

    init(_ response: HTTPURLResponse, request: URLRequest?) {
        storage = .foundation(FoundationResponse(response, request: request))
    }

    var url: URL? {
        get {
            switch storage {
            case .parts(let parts): parts.url
            case .foundation(let response): response.url
            }
        }
        set { modifyParts { $0.url = newValue } }
    }

    var method: HTTPRequest.Method? {
        get {
            switch storage {
            case .parts(let parts): parts.method
            case .foundation(let response): response.method
            }
        }
        set { modifyParts { $0.method = newValue } }
    }

    /// The fields, converted on each read when they come from a Foundation response.
    var fields: HTTPFields {
        get {
            switch storage {
            case .parts(let parts): parts.fields.fields
            case .foundation(let response): response.fields
            }
        }
        set { modifyParts { $0.fields = .given(newValue) } }
    }

    /// The first `Content-Type`'s media type, for comparisons that ignore parameters (a
    /// serializer's choice of decoder): the whole value, or, from a Foundation response on
    /// Linux, the media type FoundationNetworking parsed when it made the response.
    var mediaType: String? {
        switch storage {
        case .parts(let parts): parts.fields.mediaType
        case .foundation(let response): response.mediaType
        }
    }

    /// Whether `filter` accepts the first `Content-Type`; a response without one is accepted.
    func contentType(isAcceptedBy filter: ContentTypeFilter) -> Bool {
        switch storage {
        case .parts(let parts): parts.fields.mediaType.map(filter.accepts) ?? true
        case .foundation(let response): response.contentType(isAcceptedBy: filter)
        }
    }

    /// Reads every part still read from a Foundation response out of it, once.
    mutating func materialize() {
        switch storage {
        case .foundation(let response):
            storage = .parts(Parts(url: response.url, method: response.method, fields: .given(response.fields)))
        case .parts(var parts):
            guard case .foundation(let response) = parts.fields else { return }
            parts.fields = .given(response.fields)
            storage = .parts(parts)
        }
    }

    private mutating func modifyParts(_ change: (inout Parts) -> Void) {
        var parts: Parts
        switch storage {
        case .parts(let given): parts = given
        case .foundation(let response): parts = Parts(url: response.url, method: response.method, fields: .foundation(response))
        }
        change(&parts)
        storage = .parts(parts)
    }
}
