import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Runs one load under a ``LoadPolicy``: reads the HTTP cache, asks the network (revalidating
/// what is stored), stores what may be stored, and hands each value to the caller in order.
struct ResponseLoader<Output: Sendable>: Sendable {
    let session: URLSession
    let cache: HTTPResponseCache
    /// Serializes a response: the caller's serializer.
    let serialize: @Sendable (Data, ResponseContext) throws -> Output

    /// Loads `request` under `policy`, passing each value to `yield`.
    ///
    /// A stored response that no longer serializes (a model that changed since it was stored) is
    /// passed over where the network can still answer, and its error thrown where it is the only
    /// answer (``LoadPolicy/cacheOnly``, the fallback of ``LoadPolicy/fetchElseCache``).
    ///
    /// - Throws: the transport error, the serializer's error, `URLError(.resourceUnavailable)`
    ///   for ``LoadPolicy/cacheOnly`` with nothing stored, or `CancellationError`.
    func load(_ request: URLRequest, policy: LoadPolicy, yield: (Loaded<Output>) -> Void) async throws {
        let now = Date()
        let stored = cache.response(for: request)
        let mayUseStored = !CacheControl(request.value(forHTTPHeaderField: "Cache-Control").map { [$0] } ?? []).contains("no-cache")
        switch policy {
        case .cacheOnly:
            guard let stored else { throw URLError(.resourceUnavailable, userInfo: [NSLocalizedDescriptionKey: "Nothing is stored for this request."]) }
            yield(try cached(stored, at: now))
        case .cacheElseFetch:
            if mayUseStored, let stored, stored.isFresh(at: now), let value = try? cached(stored, at: now) {
                yield(value)
                return
            }
            yield(try await fetch(request, revalidating: stored))
        case .cachedThenFetch:
            if mayUseStored, let stored, stored.isFresh(at: now) || stored.mayBeServedStale, let value = try? cached(stored, at: now) {
                yield(value)
            }
            yield(try await fetch(request, revalidating: stored))
        case .fetchElseCache:
            do {
                yield(try await fetch(request, revalidating: stored))
            } catch let error as URLError where error.code != .cancelled {
                guard let stored, stored.isFresh(at: now) || stored.mayBeServedStale else { throw error }
                yield(try cached(stored, at: now))
            }
        case .networkOnly:
            yield(try await fetch(request, revalidating: nil))
        }
    }

    /// A stored response's value, stale or not.
    private func cached(_ stored: StoredResponse, at now: Date) throws -> Loaded<Output> {
        Loaded(value: try serialize(stored.body, stored.response), origin: .cache, response: stored.response, isStale: !stored.isFresh(at: now))
    }

    /// The network's value. With `stored`, the request is conditional, and a `304` answers with
    /// the stored body and the updated fields.
    private func fetch(_ request: URLRequest, revalidating stored: StoredResponse?) async throws -> Loaded<Output> {
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
