import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request as its session will send it, for the fields a response's `Vary` names (RFC 9111,
/// section 4.1): the request's own fields, then the session configuration's additional fields it
/// does not set itself, then the cookies the session's cookie storage adds for its URL. What the
/// HTTP cache and a ``ResponseStore`` compare is what the server saw, so a response stored for one
/// user's cookie or configured `Authorization` never answers another's.
///
/// The session can also add a credential that Sculpt cannot see before it is sent: an
/// `Authorization` answering an authentication challenge (from its delegate, its credential
/// storage, or the URL's user and password). Where the request lacks such a field and the session
/// could add one, the field is ``unknown``: a response that varies on it is neither stored nor
/// given out for this request.
struct SentRequest {
    /// The request with the fields the session adds that Sculpt can know of.
    let request: URLRequest
    /// The credential fields (lowercased) the session may add on its own.
    let unknown: Set<String>

    /// `request` as `session` sends it now: the session's cookie storage is read at this moment,
    /// so make one just before the request is sent.
    init(_ request: URLRequest, session: URLSession) {
        let configuration = session.configuration
        var sent = request
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            guard let name = name as? String, let value = value as? String, sent.value(forHTTPHeaderField: name) == nil else { continue }
            sent.setValue(value, forHTTPHeaderField: name)
        }
        if let cookie = Self.cookieField(for: sent, configuration: configuration) {
            sent.setValue(cookie, forHTTPHeaderField: "Cookie")
        }
        self.request = sent
        var unknown: Set<String> = []
        if Self.mayAuthenticate(sent, session: session) {
            for name in Self.challengeFields where sent.value(forHTTPHeaderField: name) == nil { unknown.insert(name) }
        }
        self.unknown = unknown
    }

    /// A request whose fields are all its own (a store read outside a session).
    init(exactly request: URLRequest) {
        self.request = request
        unknown = []
    }

    /// `request` with its URL replaced: a response reached through a redirect is stored under
    /// the URL that answered.
    func answered(at url: URL?) -> SentRequest {
        var moved = request
        moved.url = url ?? request.url
        return SentRequest(request: moved, unknown: unknown)
    }

    private init(request: URLRequest, unknown: Set<String>) {
        self.request = request
        self.unknown = unknown
    }

    /// Whether a response varying on `names` (lowercased) may be stored for this request or
    /// given out for it: it varies on no field whose value Sculpt cannot know.
    func mayVary(on names: some Sequence<String>) -> Bool {
        unknown.isEmpty || !names.contains(where: unknown.contains)
    }

    /// The fields a session sets answering an authentication challenge.
    private static let challengeFields = ["authorization", "proxy-authorization"]

    /// The `Cookie` field the session adds from its cookie storage (when its configuration and the
    /// request both let it, and the request sets none itself): the storage's cookies for the URL,
    /// sorted by name and value so that the same cookies always read the same, whatever order the
    /// storage lists them in. `nil` when there are none.
    private static func cookieField(for request: URLRequest, configuration: URLSessionConfiguration) -> String? {
        guard configuration.httpShouldSetCookies, request.httpShouldHandleCookies, request.value(forHTTPHeaderField: "Cookie") == nil,
            let url = request.url, let cookies = configuration.httpCookieStorage?.cookies(for: url), !cookies.isEmpty
        else { return nil }
        return cookies.map { "\($0.name)=\($0.value)" }.sorted().joined(separator: "; ")
    }

    /// Whether the session could answer an authentication challenge for `request` by itself: it
    /// has a delegate of the caller's (``CrossOriginRedirects`` answers none), the URL carries a
    /// user, or its credential storage holds a credential for the URL's host.
    private static func mayAuthenticate(_ request: URLRequest, session: URLSession) -> Bool {
        if let delegate = session.delegate, !(delegate is CrossOriginRedirects) { return true }
        guard let url = request.url else { return false }
        if url.user(percentEncoded: true) != nil { return true }
        guard let host = url.host(percentEncoded: false)?.lowercased(), let storage = session.configuration.urlCredentialStorage else { return false }
        return storage.allCredentials.keys.contains { $0.host.lowercased() == host }
    }
}
