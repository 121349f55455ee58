import Foundation
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
/// `Authorization` answering an authentication challenge (from its delegate, its credential
/// storage, or the URL's user and password). Where the request lacks such a field and the session
/// could add one, the field is ``unknown``: a response that varies on it is neither stored nor
/// given out for this request.
struct SentRequest {
    /// The request with each field's values from every source, for comparing.
    let request: URLRequest
    /// The credential fields (lowercased) the session may add on its own.
    let unknown: Set<String>

    /// `request` as `session` sends it now: the session's cookie storage is read at this moment,
    /// so make one just before the request is sent.
    init(_ request: URLRequest, session: URLSession) {
        let configuration = session.configuration
        var sent = request
        for (name, value) in configuration.httpAdditionalHeaders ?? [:] {
            guard let name = name as? String, let value = value as? String else { continue }
            sent.setValue(Self.joined([request.value(forHTTPHeaderField: name), value]), forHTTPHeaderField: name)
        }
        if let url = request.url, let cookies = configuration.httpCookieStorage?.cookies(for: url), !cookies.isEmpty {
            // Sorted: the same cookies read the same, whatever order the storage lists them in.
            let stored = cookies.map { "\($0.name)=\($0.value)" }.sorted().joined(separator: "; ")
            sent.setValue(Self.joined([sent.value(forHTTPHeaderField: "Cookie"), stored]), forHTTPHeaderField: "Cookie")
        }
        self.request = sent
        var unknown: Set<String> = []
        if Self.mayAuthenticate(request, session: session) {
            for name in Self.challengeFields where sent.value(forHTTPHeaderField: name) == nil { unknown.insert(name) }
        }
        self.unknown = unknown
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

    /// The values present: one as it is, several as their fingerprints one after another (a
    /// field's value cannot hold a character that would set them apart, and only a fingerprint
    /// of this is ever kept).
    private static func joined(_ values: [String?]) -> String {
        let present = values.compactMap { $0 }
        return present.count == 1 ? present[0] : present.map(StoredResponse.fingerprint).joined(separator: " ")
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
