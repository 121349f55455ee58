import Foundation
import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The steps of a load under a ``LoadPolicy``: reading the HTTP cache, asking the network
/// (revalidating what is stored), and storing what may be stored.
struct ResponseLoader<Output: Sendable>: Sendable {
    let session: URLSession
    let cache: HTTPResponseCache
    /// The persistent store of last good responses, when the load has one.
    let store: (any ResponseStore)?
    /// Serializes a response: the caller's serializer.
    let serialize: @Sendable (Data, ResponseContext) throws -> Output

    /// What a load under `policy` does first: the value to give, and whether the network is
    /// still to be asked afterwards (``LoadPolicy/cachedThenFetch`` after a stored value).
    ///
    /// A stored response that no longer serializes (a model that changed since it was stored) is
    /// passed over where the network can still answer, and its error thrown where it is the only
    /// answer (``LoadPolicy/cacheOnly``, the fallback of ``LoadPolicy/fetchElseCache``).
    ///
    /// - Throws: the transport error, the serializer's error, the store's error, or
    ///   `URLError(.resourceUnavailable)` for ``LoadPolicy/cacheOnly`` with nothing stored.
    func first(_ request: URLRequest, policy: LoadPolicy) async throws -> (value: Loaded<Output>, thenFetch: StoredResponse??) {
        try Task.checkCancellation()
        let now = Date()
        let sent = SentRequest(request, session: session)
        let stored = cache.response(for: sent)
        let mayUseStored = Self.mayUseStored(for: sent.request)
        switch policy {
        case .cacheOnly:
            guard let stored else { throw URLError(.resourceUnavailable, userInfo: [NSLocalizedDescriptionKey: "Nothing is stored for this request."]) }
            return (try cached(stored, at: now), nil)
        case .cacheElseFetch:
            if mayUseStored, let stored, stored.isFresh(at: now), let value = try? cached(stored, at: now) {
                return (value, nil)
            }
            return (try await fetch(request, revalidating: stored), nil)
        case .cachedThenFetch:
            if mayUseStored, let stored, stored.isFresh(at: now) || stored.mayBeServedStale, let value = try? cached(stored, at: now) {
                return (value, .some(stored))
            }
            return (try await fetch(request, revalidating: stored), nil)
        case .storeThenFetch:
            if let saved = try? await saved(sent, at: now) {
                return (saved, .some(stored))
            }
            return (try await fetch(request, revalidating: stored), nil)
        case .fetchElseCache:
            do {
                return (try await fetch(request, revalidating: stored), nil)
            } catch let error as URLError where error.code != .cancelled || !Task.isCancelled {
                // A `.cancelled` the caller did not ask for is the transport's: FoundationNetworking
                // ends a request that timed out while a redirect was being answered that way.
                // Judged when the network failed, not when it was asked: a timeout takes a while.
                let failedAt = Date()
                if let stored, stored.isFresh(at: failedAt) || stored.mayBeServedStale {
                    return (try cached(stored, at: failedAt), nil)
                }
                // The store answers offline by the same rule: not with a response that must be
                // revalidated once stale (RFC 9111, section 5.2.2).
                guard let saved = try await saved(sent, at: failedAt), !saved.isStale || StoredResponse.mayBeServedStale(CacheControl(saved.response.headerFields[values: .cacheControl])) else {
                    throw error
                }
                return (saved, nil)
            }
        case .networkOnly:
            return (try await fetch(request, revalidating: nil), nil)
        }
    }

    /// Whether the request lets a stored response answer without asking the server (RFC 9111,
    /// section 5.2.1): not with `Cache-Control: no-cache` or `max-age=0`, nor with
    /// `Pragma: no-cache` and no `Cache-Control`.
    private static func mayUseStored(for request: URLRequest) -> Bool {
        guard let value = request.value(forHTTPHeaderField: "Cache-Control") else {
            return request.value(forHTTPHeaderField: "Pragma").map(ASCII.lowercased)?.contains("no-cache") != true
        }
        let control = CacheControl([value])
        return !control.contains("no-cache") && control.seconds("max-age") != 0
    }

    /// The store's last response for `sent` as a value (origin ``Loaded/Origin/store``), or `nil`
    /// when the load has no store, it holds nothing for the request, or what it holds varies on a
    /// field the session may add unseen (``SentRequest/unknown``).
    private func saved(_ sent: SentRequest, at now: Date) async throws -> Loaded<Output>? {
        guard let store, let saved = try await store.lastResponse(for: sent.request), sent.mayVary(on: StoredResponse.varyNames(saved.response)) else {
            return nil
        }
        return Loaded(value: try serialize(saved.body, saved.response), origin: .store, response: saved.response, isStale: !saved.isFresh(at: now))
    }

    /// A stored response's value, stale or not.
    private func cached(_ stored: StoredResponse, at now: Date) throws -> Loaded<Output> {
        Loaded(value: try serialize(stored.body, stored.response), origin: .cache, response: stored.response, isStale: !stored.isFresh(at: now))
    }

    /// The network's value. With `stored`, the request is conditional, and a `304` answers with
    /// the stored body and the updated fields. Redirects are followed without carrying the
    /// request's credentials to another origin (``CrossOriginRedirects``). What the answer allows
    /// is stored, under the URL that answered and the fields the session sent (``SentRequest``); a
    /// successful unsafe request (`POST`, `PUT`, `PATCH`, `DELETE`) removes what is stored for its
    /// URL and the URLs its `Location` and `Content-Location` name on the same origin (RFC 9111,
    /// section 4.4).
    func fetch(_ request: URLRequest, revalidating stored: StoredResponse?) async throws -> Loaded<Output> {
        try Task.checkCancellation()
        var outgoing = request
        // The session must not answer from its own cache (Apple platforms): this leg is the network.
        outgoing.cachePolicy = .reloadIgnoringLocalCacheData
        let conditional = stored.flatMap { $0.conditionalRequest(outgoing) }
        // What the session sends, read just before it sends it: the cookies are this moment's.
        let sent = SentRequest(request, session: session)
        let requestTime = Date()
        let (data, urlResponse): (Data, URLResponse)
        do {
            (data, urlResponse) = try await session.cancellableData(for: conditional ?? outgoing, delegate: CrossOriginRedirects())
        } catch {
            throw SecretPolicy.default.redactingURLs(in: error)  // a URLError's description prints its URL
        }
        let responseTime = Date()
        // Read once: the cache rules below look at the fields many times.
        let response = ResponseContext(urlResponse, request: request).materialized
        if response.status.code == 304, conditional != nil, let stored {
            guard stored.isConfirmed(by: response) else {
                // Another representation than the stored one: ask again, unconditionally.
                cache.remove(for: sent.request)
                return try await fetch(request, revalidating: nil)
            }
            let updated = stored.revalidated(by: response, requestTime: requestTime, responseTime: responseTime)
            let vouched = sent.sentStoredCookies(in: session, answeredBy: response)
            if StoredResponse.isStorable(updated.response, request: sent.request), Self.mayKeep(updated.response, for: sent, cookiesVouched: vouched) {
                cache.store(updated, for: sent.request)
            } else {
                cache.remove(for: sent.request)  // the 304 said no-store, or Vary: *
            }
            let value = try serialize(updated.body, updated.response)
            save(updated.response, updated.body, at: responseTime, for: sent, cookiesVouched: vouched)
            return Loaded(value: value, origin: .network, response: updated.response, isStale: false)
        }
        // A response reached through a redirect is stored under its own URL, never under the
        // requested one: the redirect itself may lead elsewhere next time.
        let answered = sent.answered(at: response.url)
        let redirected = NormalizedURL.text(answered.request.url) != NormalizedURL.text(request.url)
        // After a redirect the cookies sent to the URL that answered are not the ones read for
        // the URL asked.
        let vouched = !redirected && sent.sentStoredCookies(in: session, answeredBy: response)
        if StoredResponse.isStorable(response, request: answered.request), Self.mayKeep(response, for: answered, cookiesVouched: vouched) {
            let varying = StoredResponse.varying(response, request: answered.request)
            cache.store(StoredResponse(response: response, body: data, requestTime: requestTime, responseTime: responseTime, varying: varying), for: answered.request)
        } else if StoredResponse.isUnsafe(request), (200..<400).contains(response.status.code) {
            cache.invalidate(after: request, response: response)
        }
        let value = try serialize(data, response)
        save(response, data, at: responseTime, for: sent, cookiesVouched: vouched)
        return Loaded(value: value, origin: .network, response: response, isStale: false)
    }

    /// Whether a response may be kept for the request as sent: neither URL (asked, answered)
    /// carries a user or a password, and it varies on no field the session may set unseen (``SentRequest/unknown``),
    /// nor on `Cookie` unless the cookies sent are vouched for
    /// (``SentRequest/sentStoredCookies(in:answeredBy:)``).
    private static func mayKeep(_ response: ResponseContext, for sent: SentRequest, cookiesVouched: Bool) -> Bool {
        let names = StoredResponse.varyNames(response)
        return !SentRequest.hasUser(sent.request.url) && !SentRequest.hasUser(response.url) && sent.mayVary(on: names) && (cookiesVouched || !names.contains("cookie"))
    }

    /// Hands a good answer (a `GET`'s `2xx` that serialized) to the store, which writes it off
    /// this path.
    private func save(_ response: ResponseContext, _ body: Data, at time: Date, for sent: SentRequest, cookiesVouched: Bool) {
        guard let store, (sent.request.httpMethod ?? "GET").uppercased() == "GET", (200..<300).contains(response.status.code) else { return }
        // `no-store`, on the response or on the request, is a MUST NOT for any cache (RFC 9111,
        // sections 5.2.1.5 and 5.2.2.5), the store included; cookies are the session's, never
        // handed out again.
        let requestControl = CacheControl(sent.request.value(forHTTPHeaderField: "Cache-Control").map { [$0] } ?? [])
        guard !CacheControl(response.headerFields[values: .cacheControl]).contains("no-store"), !requestControl.contains("no-store"),
            Self.mayKeep(response, for: sent, cookiesVouched: cookiesVouched)
        else { return }
        var kept = response
        kept.headerFields[values: .setCookie] = []
        store.save(SavedResponse(response: kept, body: body, savedAt: time), for: sent.request)
    }
}
