import Foundation
import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as its session will send it, for the fields a response's `Vary` names (RFC 9111,
/// section 4.1): what the HTTP cache and a ``ResponseStore`` compare is what the server saw, so a
/// response stored for one user's cookie or configured `Authorization` never answers another's.
///
/// A field's value here holds every value the session could send for it, from each of its
/// sources: the request's own fields, the session configuration's `httpAdditionalHeaders`, and,
/// for `Cookie`, the cookies the session's cookie storage holds for the URL. Which source wins
/// differs between platforms (FoundationNetworking sends the storage's cookies even where the
/// request or the configuration sets a `Cookie` of its own, or the request asks for none), so
/// none is assumed to: two requests that differ in any source never share a stored response.
/// The values are only ever compared as fingerprints, never sent.
///
/// The session can also add a credential that Sculpt cannot see before it is sent: an
/// `Authorization` answering an authentication challenge (from its credential storage, or the
/// URL's user and password). Where the request lacks such a field and the session could add one,
/// the field is ``unknown``: a response that varies on it is neither stored nor given out for this
/// request. A delegate of the caller's can set any field (answering a challenge, or rewriting a
/// redirected request), so with one every field is unknown but `Accept-Encoding`.
struct SentRequest {
    /// The request with each field's values from every source, for comparing.
    let request: URLRequest
    /// The fields (lowercased) the session may set without Sculpt seeing them; `nil` when it may
    /// set any.
    let unknown: Set<String>?
    /// The cookies the storage held for the URL when this was made, as they are compared.
    private let storedCookies: String?

    /// `request` as `session` sends it now: the session's cookie storage is read at this moment,
    /// so make one just before the request is sent.
    init(_ request: URLRequest, session: URLSession) {
        let configuration = session.configuration
        var sent = request
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            guard let name = name as? String, let value = value as? String else { continue }
            sent.setValue(Self.joined([request.value(forHTTPHeaderField: name), value]), forHTTPHeaderField: name)
        }
        let stored = Self.storedCookies(for: request.url, in: session)
        if let stored {
            sent.setValue(Self.joined([sent.value(forHTTPHeaderField: "Cookie"), stored]), forHTTPHeaderField: "Cookie")
        }
        self.request = sent
        storedCookies = stored
        if let delegate = session.delegate, !(delegate is CrossOriginRedirects) {
            unknown = nil
        } else if Self.mayAuthenticate(request, session: session) {
            unknown = Set(Self.challengeFields.filter { sent.value(forHTTPHeaderField: $0) == nil })
        } else {
            unknown = []
        }
    }

    /// The cookies `session`'s storage holds for `url`, sorted (the same cookies read the same,
    /// whatever order the storage lists them in); `nil` for none.
    private static func storedCookies(for url: URL?, in session: URLSession) -> String? {
        guard let url, let cookies = session.configuration.httpCookieStorage?.cookies(for: url), !cookies.isEmpty else { return nil }
        return cookies.map { "\($0.name)=\($0.value)" }.sorted().joined(separator: "; ")
    }

    /// Whether the cookies sent for the final request were surely the ones read when this was
    /// made, once `response` has arrived for it without a redirect: the storage holds the same
    /// cookies for the URL now, and the response sets none. A redirect's `Set-Cookie` changes the
    /// storage before the next request is sent (even one back to the same URL, which the final
    /// URL cannot show); a cookie a redirect set and the final response removed would leave it as
    /// it was, hence the second condition.
    func sentStoredCookies(in session: URLSession, answeredBy response: ResponseContext) -> Bool {
        response.headerFields[.setCookie] == nil && Self.storedCookies(for: request.url, in: session) == storedCookies
    }

    /// `request` with its URL replaced: a response reached through a redirect is stored under
    /// the URL that answered.
    func answered(at url: URL?) -> SentRequest {
        var moved = request
        moved.url = url ?? request.url
        return SentRequest(request: moved, unknown: unknown, storedCookies: storedCookies)
    }

    private init(request: URLRequest, unknown: Set<String>?, storedCookies: String?) {
        self.request = request
        self.unknown = unknown
        self.storedCookies = storedCookies
    }

    /// Whether a response varying on `names` (lowercased) may be stored for this request or
    /// given out for it: it varies on no field whose value Sculpt cannot know.
    func mayVary(on names: some Sequence<String>) -> Bool {
        guard let unknown else { return names.allSatisfy { $0 == Self.decodedAway } }
        return unknown.isEmpty || !names.contains(where: unknown.contains)
    }

    /// The one field whose value never changes the body Sculpt keeps: the session undoes the
    /// content coding it asks for, so the decoded body is the same whatever it sent.
    private static let decodedAway = "accept-encoding"

    /// Whether `url` carries a user name or a password: a response asked for or answered there is
    /// never kept, so that the password is written nowhere.
    static func hasUser(_ url: URL?) -> Bool {
        url.map { $0.user(percentEncoded: true) != nil || $0.password(percentEncoded: true) != nil } ?? false
    }

    /// The fields a session sets answering an authentication challenge.
    private static let challengeFields = ["authorization", "proxy-authorization"]

    /// The values present: one as it is, several as their fingerprints one after another (a
    /// field's value cannot hold a character that would set them apart, and only a fingerprint
    /// of this is ever kept).
    private static func joined(_ values: [String?]) -> String {
        let present = values.compactMap { $0 }
        return present.count == 1 ? present[0] : present.map(StoredResponse.fingerprint).joined(separator: " ")
    }

    /// Whether the session could answer an authentication challenge for `request` by itself: the
    /// URL carries a user, or its credential storage holds a credential for the URL's host.
    private static func mayAuthenticate(_ request: URLRequest, session: URLSession) -> Bool {
        guard let url = request.url else { return false }
        if url.user(percentEncoded: true) != nil { return true }
        guard let host = url.host(percentEncoded: false).map(ASCII.lowercased), let storage = session.configuration.urlCredentialStorage else { return false }
        return storage.allCredentials.keys.contains { ASCII.lowercased($0.host) == host }
    }
}
