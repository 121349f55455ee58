import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif
internal import HTTPTypes

/// The HTTP cache behind ``LoadPolicy``: RFC 9111's core (freshness from `Cache-Control` and
/// `Expires`, `no-store`, `no-cache`, `must-revalidate`, `Vary`, revalidation with `304`) applied
/// by Sculpt, on a `URLCache` as the store, in memory or on disk.
///
/// ```swift
/// let cache = HTTPResponseCache(URLCache(memoryCapacity: 4 << 20, diskCapacity: 64 << 20, diskPath: folder.path))
/// let loads = session.models(for: request, serializer: serializer, policy: .cachedThenFetch, cache: cache)
/// ```
///
/// Sculpt applies the rules itself because FoundationNetworking's `URLSession` (Linux) never
/// stores into its `URLCache`, while the `URLCache` itself stores and survives a restart.
/// Responses are stored under keys of Sculpt's own, never under the request's URL, so a session
/// never finds them for its own requests (FoundationNetworking's does read its `URLCache`), and
/// a query is part of the key (FoundationNetworking's `URLCache` ignores it). On Apple platforms
/// `URLSession` also caches into its own `URLCache`: the network leg of a load asks with
/// `reloadIgnoringLocalCacheData`, so the session never answers from its cache behind Sculpt's
/// back; with the session's own `URLCache` (the default) the two share its capacity, each with
/// its own entries.
public struct HTTPResponseCache: @unchecked Sendable {
    // `URLCache` is documented as thread-safe; it is not marked `Sendable` on every platform.
    /// The store.
    public let urlCache: URLCache

    /// A cache on `urlCache`.
    /// - Parameter urlCache: the cache that holds the responses.
    public init(_ urlCache: URLCache) {
        self.urlCache = urlCache
    }

    /// The cache a session's loads use by default: its configuration's `URLCache`, or
    /// `URLCache.shared`.
    /// - Parameter session: the session whose configuration names the cache.
    public init(for session: URLSession) {
        self.init(session.configuration.urlCache ?? URLCache.shared)
    }

    // MARK: - Reading and writing

    /// The stored response for `sent`, if one is stored, matches the fields its `Vary` names as
    /// the session sends them, and varies on none the session may add unseen.
    func response(for sent: SentRequest) -> StoredResponse? {
        let request = sent.request
        guard (request.httpMethod ?? "GET").uppercased() == "GET", let key = Self.key(request),
            let cached = urlCache.cachedResponse(for: key), let http = cached.response as? HTTPURLResponse,
            NormalizedURL.text(http.url) == NormalizedURL.text(request.url)
        else { return nil }
        var fields = FoundationFields.fields(of: http)
        var meta: [String: String] = [:]
        for field in fields where Self.isMeta(field.name.rawName) {
            meta[field.name.canonicalName] = field.value
        }
        fields.removeAll { Self.isMeta($0.name.rawName) }
        guard let requestTime = meta[Self.requestTimeField].flatMap(Double.init),
            let responseTime = meta[Self.responseTimeField].flatMap(Double.init)
        else { return nil }
        let stored = StoredResponse(
            response: ResponseContext(url: http.url, method: .get, status: .standard(http.statusCode), headerFields: fields),
            body: cached.data, requestTime: Date(timeIntervalSince1970: requestTime), responseTime: Date(timeIntervalSince1970: responseTime),
            varying: Self.decodeVarying(meta[Self.varyingField] ?? ""))
        return stored.matches(request) && sent.mayVary(on: stored.varying.keys) ? stored : nil
    }

    /// Stores `stored` as the response to `request`.
    func store(_ stored: StoredResponse, for request: URLRequest) {
        guard let key = Self.key(request), let url = stored.response.url ?? request.url else { return }
        // A cookie is the session's business, not the cache's: it is never given out again.
        var fields = stored.response.headerFields
        fields.removeAll { $0.name == .setCookie }
        for (name, value) in [
            (Self.requestTimeField, String(stored.requestTime.timeIntervalSince1970)),
            (Self.responseTimeField, String(stored.responseTime.timeIntervalSince1970)),
            (Self.varyingField, Self.encodeVarying(stored.varying)),
        ] {
            guard let name = HTTPField.Name(name) else { continue }
            fields[name] = value
        }
        guard let response = FoundationFields.response(status: stored.response.status.code, fields: fields, url: url) else { return }
        urlCache.storeCachedResponse(CachedURLResponse(response: response, data: stored.body, userInfo: nil, storagePolicy: .allowed), for: key)
    }

    /// Removes what is stored for `request`.
    func remove(for request: URLRequest) {
        guard let key = Self.key(request) else { return }
        urlCache.removeCachedResponse(for: key)
    }

    /// Removes what is stored for the URL of an unsafe request that succeeded, and for the URLs
    /// its response's `Location` and `Content-Location` name on the same origin (RFC 9111,
    /// section 4.4): a `POST` to `/issues` or a `PATCH` of `/issues/1` makes them stale.
    func invalidate(after request: URLRequest, response: ResponseContext) {
        guard let url = request.url else { return }
        remove(for: URLRequest(url: url))
        for name in [HTTPField.Name.location, .contentLocation] {
            guard let value = response.headerFields[name], let target = URL(string: value, relativeTo: response.url ?? url)?.absoluteURL,
                CrossOriginRedirects.isSameOrigin(target, url)
            else { continue }
            remove(for: URLRequest(url: target))
        }
    }

    // MARK: - Keys and metadata

    /// The request a response is stored under: a URL of Sculpt's own on a host that does not
    /// exist (`.invalid`, RFC 6761), whose path is a hash of the request's whole normalized URL.
    ///
    /// Not the request's URL: FoundationNetworking's `URLCache` tells entries apart by host,
    /// port and path only (`/users?id=2` would be answered with `/users?id=1`'s response), and a
    /// session answers its own requests from its `URLCache` (a response Sculpt stored there under
    /// the request's URL would come back to every later request for that path, Sculpt's or not).
    /// The fields a response varies on are compared by ``StoredResponse/matches(_:)``, and the
    /// stored response's own URL against the request's, so a hash collision is a miss.
    private static func key(_ request: URLRequest) -> URLRequest? {
        guard let url = request.url else { return nil }
        let hash = FNVHash.of(NormalizedURL.text(url))
        guard let key = URL(string: "https://responses.sculpt-cache.invalid/\(String(hash, radix: 16))") else { return nil }
        return URLRequest(url: key)
    }


    /// Fields of Sculpt's own on a stored response, removed when it is read back.
    private static let metaPrefix = "sculpt-cache-"
    private static let requestTimeField = "sculpt-cache-request-time"
    private static let responseTimeField = "sculpt-cache-response-time"
    private static let varyingField = "sculpt-cache-varying"

    /// `name=value&...`, each percent-encoded but for letters and digits.
    private static func encodeVarying(_ varying: [String: String]) -> String {
        varying.sorted { $0.key < $1.key }.map { "\(encoded($0.key))=\(encoded($0.value))" }.joined(separator: "&")
    }

    private static func decodeVarying(_ text: String) -> [String: String] {
        var varying: [String: String] = [:]
        for pair in text.utf8.split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            varying[PercentEncoding.decoded(parts[0])] = PercentEncoding.decoded(parts[1])
        }
        return varying
    }

    /// Whether a field is one of Sculpt's own (`Sculpt-Cache-...`, any case).
    private static func isMeta(_ name: String) -> Bool {
        let prefix = metaPrefix.utf8
        return name.utf8.count > prefix.count && zip(name.utf8, prefix).allSatisfy { ($0 | 0x20) == $1 || $0 == $1 }
    }

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}
