import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The steps of a load under a ``LoadPolicy``: reading the HTTP cache, asking the network
/// (revalidating what is stored), and storing what may be stored.
struct ResponseLoader<Output: Sendable>: Sendable {
    let session: URLSession
    let cache: HTTPResponseCache
    /// Serializes a response: the caller's serializer.
    let serialize: @Sendable (Data, ResponseContext) throws -> Output

    /// What a load under `policy` does first: the value to give, and whether the network is
    /// still to be asked afterwards (``LoadPolicy/cachedThenFetch`` after a stored value).
    ///
    /// A stored response that no longer serializes (a model that changed since it was stored) is
    /// passed over where the network can still answer, and its error thrown where it is the only
    /// answer (``LoadPolicy/cacheOnly``, the fallback of ``LoadPolicy/fetchElseCache``).
    ///
    /// - Throws: the transport error, the serializer's error, or `URLError(.resourceUnavailable)`
    ///   for ``LoadPolicy/cacheOnly`` with nothing stored.
    func first(_ request: URLRequest, policy: LoadPolicy) async throws -> (value: Loaded<Output>, thenFetch: StoredResponse??) {
        let now = Date()
        let stored = cache.response(for: request)
        let mayUseStored = !CacheControl(request.value(forHTTPHeaderField: "Cache-Control").map { [$0] } ?? []).contains("no-cache")
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
        case .fetchElseCache:
            do {
                return (try await fetch(request, revalidating: stored), nil)
            } catch let error as URLError where error.code != .cancelled {
                guard let stored, stored.isFresh(at: now) || stored.mayBeServedStale else { throw error }
                return (try cached(stored, at: now), nil)
            }
        case .networkOnly:
            return (try await fetch(request, revalidating: nil), nil)
        }
    }

    /// A stored response's value, stale or not.
    private func cached(_ stored: StoredResponse, at now: Date) throws -> Loaded<Output> {
        Loaded(value: try serialize(stored.body, stored.response), origin: .cache, response: stored.response, isStale: !stored.isFresh(at: now))
    }

    /// The network's value. With `stored`, the request is conditional, and a `304` answers with
    /// the stored body and the updated fields.
    func fetch(_ request: URLRequest, revalidating stored: StoredResponse?) async throws -> Loaded<Output> {
        var sent = request
        // The session must not answer from its own cache (Apple platforms): this leg is the network.
        sent.cachePolicy = .reloadIgnoringLocalCacheData
        let conditional = stored.flatMap { $0.conditionalRequest(sent) }
        let requestTime = Date()
        let (data, urlResponse) = try await session.data(for: conditional ?? sent)
        let responseTime = Date()
        let response = ResponseContext(urlResponse, request: request)
        if response.status.code == 304, conditional != nil, let stored {
            let updated = stored.revalidated(by: response, requestTime: requestTime, responseTime: responseTime)
            cache.store(updated, for: request)
            return Loaded(value: try serialize(updated.body, updated.response), origin: .network, response: updated.response, isStale: false)
        }
        if StoredResponse.isStorable(response, request: request) {
            let varying = StoredResponse.varying(response, request: request)
            cache.store(StoredResponse(response: response, body: data, requestTime: requestTime, responseTime: responseTime, varying: varying), for: request)
        }
        return Loaded(value: try serialize(data, response), origin: .network, response: response, isStale: false)
    }
}
