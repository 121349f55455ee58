import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

/// A persistent store of the last good response to each request, whatever model it decodes to:
/// what ``LoadPolicy/storeThenFetch`` gives first (origin ``Loaded/Origin/store``) and what
/// ``LoadPolicy/fetchElseCache`` falls back on offline when the HTTP cache has nothing usable.
/// `SculptStore`'s `SQLiteResponseStore` is one, on SQLite through GRDB.
///
/// ```swift
/// let store = try SQLiteResponseStore(path: folder.appending(path: "responses.sqlite").path)
/// for try await user in session.models(for: request, serializer: serializer, as: User.self, policy: .storeThenFetch, store: store) {
///     render(user.value)   // what was saved last time, then the network's
/// }
/// ```
///
/// A store matches a request by method, normalized URL (without its fragment, the scheme and
/// host lowercased, a default port dropped, equal percent-encodings made one) and the request's
/// values of the fields the saved response varies on (`Vary`).
public protocol ResponseStore: Sendable {
    /// The last response saved for `request`, or `nil`.
    ///
    /// - Throws: the store's error when it cannot be read.
    func lastResponse(for request: URLRequest) async throws -> SavedResponse?

    /// Saves `response` as the last good one for `request`, replacing the one before. Returns at
    /// once: the write happens off the caller's path, and a later ``lastResponse(for:)`` sees it.
    func save(_ response: SavedResponse, for request: URLRequest)
}

/// A response as a ``ResponseStore`` keeps it.
public struct SavedResponse: Sendable {
    /// The response (its final URL, status and fields).
    public var response: ResponseContext
    /// Its body.
    public var body: Data
    /// When it arrived.
    public var savedAt: Date

    /// Creates a saved response.
    /// - Parameters:
    ///   - response: the response's context.
    ///   - body: its body.
    ///   - savedAt: when it was saved.
    public init(response: ResponseContext, body: Data, savedAt: Date) {
        self.response = response
        self.body = body
        self.savedAt = savedAt
    }

    /// The request's value of each field the response varies on, as a fingerprint (names
    /// lowercased; a 64-bit hash of the value in hex, `""` for a missing field): what a store
    /// keeps beside it and compares on reading. Not the values themselves, so that a response
    /// varying on `Authorization` or `Cookie` puts no credential in a store.
    ///
    /// ```swift
    /// let varying = saved.varying(for: request)   // ["accept-language": "88e3807b53946aa"] for "en"
    /// ```
    /// - Parameter request: the request to read the fields from.
    public func varying(for request: URLRequest) -> [String: String] {
        StoredResponse.varying(response, request: request)
    }

    /// Whether the response is still fresh at `now` by its own `Cache-Control`, `Expires`, `Date`
    /// and `Age` (RFC 9111), counted from ``savedAt``.
    func isFresh(at now: Date) -> Bool {
        StoredResponse(response: response, body: body, requestTime: savedAt, responseTime: savedAt, varying: [:]).isFresh(at: now)
    }
}
