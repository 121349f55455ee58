import Foundation
import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
internal import HTTPTypes

/// A response as the HTTP cache holds it, with what RFC 9111 needs to judge it later: when it was
/// asked for and received, and the request's values of the fields its `Vary` names.
struct StoredResponse: Sendable {
    /// The response as received (the final URL, `GET`, status and fields).
    var response: ResponseContext
    /// The body as received.
    var body: Data
    /// When the request was sent.
    var requestTime: Date
    /// When the response arrived.
    var responseTime: Date
    /// The request's value of each field `Vary` names (names lowercased; a missing field is `""`).
    var varying: [String: String]

    init(response: ResponseContext, body: Data, requestTime: Date, responseTime: Date, varying: [String: String]) {
        self.response = response
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varying = varying
        control = CacheControl(response.headerFields[values: .cacheControl])
    }

    // MARK: - Storing

    /// The statuses a cache may store and reuse without explicit freshness (RFC 9110, section
    /// 15.1), less `206` (ranges are not assembled here).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Whether a response to `request` may be stored (RFC 9111, section 3): a `GET`, no
    /// `no-store` on either side, not `Vary: *`, a final status that is not `206` (ranges are not
    /// assembled) or `304` (it has no body of its own), a status that is heuristically cacheable or
    /// has explicit freshness.
    static func isStorable(_ response: ResponseContext, request: URLRequest) -> Bool {
        guard (request.httpMethod ?? "GET").uppercased() == "GET" else { return false }
        let status = response.status.code
        guard status >= 200, status != 206, status != 304 else { return false }
        let control = CacheControl(response.headerFields[values: .cacheControl])
        let requestControl = CacheControl(request.value(forHTTPHeaderField: "Cache-Control").map { [$0] } ?? [])
        guard !control.contains("no-store"), !requestControl.contains("no-store") else { return false }
        guard !varyNames(response).contains("*") else { return false }
        let explicit = control.seconds("max-age") != nil || response.headerFields[.expires] != nil
        return heuristicallyCacheable.contains(status) || (explicit && status < 500)
    }

    /// Whether a request's method may change what the server holds: any but `GET`, `HEAD`,
    /// `OPTIONS` and `TRACE` (RFC 9110, section 9.2.1).
    static func isUnsafe(_ request: URLRequest) -> Bool {
        !["GET", "HEAD", "OPTIONS", "TRACE"].contains((request.httpMethod ?? "GET").uppercased())
    }

    /// The lowercased field names of the response's `Vary`.
    static func varyNames(_ response: ResponseContext) -> [String] {
        // On bytes: field names are ASCII tokens, and this runs for every stored response read.
        response.headerFields[values: .vary].flatMap { value in
            value.utf8.split(separator: UInt8(ascii: ",")).compactMap { name -> String? in
                let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
                guard let first = name.firstIndex(where: { !isSpace($0) }), let last = name.lastIndex(where: { !isSpace($0) }) else { return nil }
                return ASCII.lowercased(name[first...last])
            }
        }
    }

    /// The request's values for the fields `response` varies on, as ``fingerprint(_:)``s.
    static func varying(_ response: ResponseContext, request: URLRequest) -> [String: String] {
        Dictionary(varyNames(response).map { ($0, fingerprint(request.value(forHTTPHeaderField: $0))) }, uniquingKeysWith: { first, _ in first })
    }

    /// What a store keeps of a field's value to compare it later: a 64-bit hash (FNV-1a) in hex,
    /// `""` for an absent field. Not the value: a response that varies on `Authorization` or
    /// `Cookie` (GitHub's do) would otherwise write the credential to disk. A hash is not
    /// encryption: a short, guessable value can be found from it; a token cannot.
    static func fingerprint(_ value: String?) -> String {
        guard let value else { return "" }
        return String(FNVHash.of(value), radix: 16)
    }

    // MARK: - Reuse (RFC 9111, section 4)

    /// Whether this response may answer `request`: every field it varies on has the same value
    /// (absent only where it was absent).
    func matches(_ request: URLRequest) -> Bool {
        varying.allSatisfy { name, value in Self.fingerprint(request.value(forHTTPHeaderField: name)) == value }
    }

    /// The response's `Cache-Control`, parsed once.
    private let control: CacheControl

    /// How long the response is fresh (section 4.2.1): `max-age` (0 when it is not a number),
    /// else `Expires` minus `Date`, else a tenth of the time since `Last-Modified` (at most a
    /// day) for a heuristically cacheable status, else 0.
    var freshnessLifetime: TimeInterval {
        if control.contains("max-age") { return TimeInterval(control.seconds("max-age") ?? 0) }
        let date = response.headerFields[.date].flatMap(HTTPDate.parse) ?? responseTime
        if let expires = response.headerFields[.expires] {
            // An invalid Expires (`0`, `-1`) means already expired.
            return HTTPDate.parse(expires).map { max(0, $0.timeIntervalSince(date)) } ?? 0
        }
        if Self.heuristicallyCacheable.contains(response.status.code),
            let modified = response.headerFields[.lastModified].flatMap(HTTPDate.parse)
        {
            return min(max(0, date.timeIntervalSince(modified)) / 10, 24 * 60 * 60)
        }
        return 0
    }

    /// The response's age at `now` (section 4.2.3), from `Date`, `Age`, and the times it was
    /// asked for and received.
    func age(at now: Date) -> TimeInterval {
        let date = response.headerFields[.date].flatMap(HTTPDate.parse) ?? responseTime
        let apparentAge = max(0, responseTime.timeIntervalSince(date))
        let ageValue = response.headerFields[.age].flatMap { CacheControl.deltaSeconds($0.trimmingCharacters(in: .whitespaces)) }.map(TimeInterval.init) ?? 0
        let correctedAgeValue = ageValue + max(0, responseTime.timeIntervalSince(requestTime))
        return max(apparentAge, correctedAgeValue) + max(0, now.timeIntervalSince(responseTime))
    }

    /// Whether the response is fresh at `now` and may be used without asking the server:
    /// `no-cache` makes it always stale.
    func isFresh(at now: Date) -> Bool {
        !control.contains("no-cache") && age(at: now) < freshnessLifetime
    }

    /// Whether the response may be given out stale: not when it says `no-cache` or
    /// `must-revalidate` (section 5.2.2).
    var mayBeServedStale: Bool {
        Self.mayBeServedStale(control)
    }

    /// The same for any response's `Cache-Control`: neither `no-cache` nor `must-revalidate`.
    static func mayBeServedStale(_ control: CacheControl) -> Bool {
        !control.contains("no-cache") && !control.contains("must-revalidate")
    }

    // MARK: - Revalidation (section 4.3)

    /// `request` asking the server whether this response is still current: `If-None-Match` with
    /// its `ETag`, `If-Modified-Since` with its `Last-Modified`; `nil` when it has neither.
    func conditionalRequest(_ request: URLRequest) -> URLRequest? {
        let etag = response.headerFields[.eTag]
        let lastModified = response.headerFields[.lastModified]
        guard etag != nil || lastModified != nil else { return nil }
        var conditional = request
        if let etag { conditional.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { conditional.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        return conditional
    }

    /// Whether a `304` confirms this response: it names no `ETag`, or this one's, weak or strong
    /// (RFC 9111, section 4.3.4).
    func isConfirmed(by notModified: ResponseContext) -> Bool {
        // A 304 that names a validator names the representation it confirms: it must match the
        // stored one, weakly compared (section 4.3.4); one that names none confirms this one.
        guard let etag = notModified.headerFields[.eTag] else { return true }
        func opaque(_ tag: String) -> Substring { tag.hasPrefix("W/") ? tag.dropFirst(2) : tag[...] }
        return response.headerFields[.eTag].map { opaque($0) == opaque(etag) } ?? false
    }

    /// This response confirmed by a `304`: the `304`'s fields replace the stored ones of the same
    /// names (section 3.2; the framing fields and `Set-Cookie` are kept), and it counts as received
    /// now.
    func revalidated(by notModified: ResponseContext, requestTime: Date, responseTime: Date) -> StoredResponse {
        var updated = response
        let kept: Set<HTTPField.Name> = [.contentLength, .contentEncoding, .transferEncoding, .contentType, .setCookie]
        for name in Set(notModified.headerFields.map(\.name)) where !kept.contains(name) {
            updated.headerFields[values: name] = notModified.headerFields[values: name]
        }
        return StoredResponse(response: updated, body: body, requestTime: requestTime, responseTime: responseTime, varying: varying)
    }
}
