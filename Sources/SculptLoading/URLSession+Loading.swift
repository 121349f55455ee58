import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import Foundation
public import FoundationNetworking
#else
public import Foundation
#endif

extension URLSession {
    /// Loads a request under a ``LoadPolicy`` and serializes each response it yields: a stored
    /// one from the HTTP cache, the network's, or both in turn.
    ///
    /// ```swift
    /// for try await loaded in URLSession.shared.models(for: request, serializer: serializer, policy: .cachedThenFetch) {
    ///     render(loaded.value)        // first the stored value (loaded.origin == .cache), then the network's
    /// }
    /// ```
    ///
    /// The sequence ends after the policy's last value, or with the first error. Each value is
    /// produced when the iteration asks for it (``LoadSequence``): with ``LoadPolicy/cachedThenFetch``
    /// the network is asked once the loop comes back for the second value. Cancelling the task
    /// that iterates ends the iteration at once (no further value, no error) and cancels the
    /// request in flight; on Linux, a session with a `URLCache` leaves it to finish unseen
    /// instead (Docs/Loading.md). Only `GET` responses are stored.
    ///
    /// Redirects are followed without carrying the request's credentials to another origin. On
    /// Linux that takes a session made with ``CrossOriginRedirects`` as its delegate: FoundationNetworking
    /// asks only the session's delegate about redirects.
    ///
    /// - Parameters:
    ///   - request: the request to load; only `GET` responses are stored.
    ///   - serializer: what turns each response into the value yielded.
    ///   - policy: where values come from, and in what order.
    ///   - cache: where responses are stored under HTTP's rules; the session's `URLCache` by default.
    ///   - store: where the last good response to each request is kept whatever HTTP says, for
    ///     ``LoadPolicy/storeThenFetch`` and the offline fallback of ``LoadPolicy/fetchElseCache``;
    ///     none by default.
    /// - Throws (from the iteration): the transport error (`URLError`; on Linux,
    ///   `URLError(.cancelled)` for a request that timed out while a session delegate was asked
    ///   about its redirect), the serializer's error (an error model is a `SculptError`), the
    ///   store's error, or `URLError(.resourceUnavailable)` for ``LoadPolicy/cacheOnly`` with
    ///   nothing stored.
    public func models<S: ResponseSerializer>(
        for request: URLRequest, serializer: S, policy: LoadPolicy, cache: HTTPResponseCache? = nil, store: (any ResponseStore)? = nil
    ) -> LoadSequence<S.Output> {
        loads(request, policy: policy, cache: cache, store: store) { data, response in try serializer.serialize(data, for: response) }
    }

    /// Loads a request under a ``LoadPolicy`` and serializes each response as a model of type `M`.
    ///
    /// ```swift
    /// for try await user in session.models(for: request, serializer: serializer, as: User.self, policy: .fetchElseCache) {
    ///     render(user.value, offline: user.origin == .cache)
    /// }
    /// ```
    /// - Parameters:
    ///   - request: the request to load; only `GET` responses are stored.
    ///   - serializer: the serializer whose matcher must resolve `type`.
    ///   - type: the model each value holds.
    ///   - policy: where values come from, and in what order.
    ///   - cache: where responses are stored under HTTP's rules; the session's `URLCache` by default.
    ///   - store: where the last good response to each request is kept; none by default.
    /// - Throws (from the iteration): as ``models(for:serializer:policy:cache:store:)``, and
    ///   `SculptError/Reason/typeMismatch(expected:matched:)` when the matcher resolved another type.
    public func models<Matcher, M: Decodable & Sendable>(
        for request: URLRequest, serializer: ModelResponseSerializer<Matcher>, as type: M.Type, policy: LoadPolicy,
        cache: HTTPResponseCache? = nil, store: (any ResponseStore)? = nil
    ) -> LoadSequence<M> {
        loads(request, policy: policy, cache: cache, store: store) { data, response in try serializer.serialize(data, for: response, as: M.self) }
    }

    /// Loads a request under a ``LoadPolicy`` and serializes each response as metadata and a model
    /// of type `M`.
    ///
    /// ```swift
    /// for try await loaded in session.models(for: request, serializer: enveloped, as: [Question].self, policy: .cachedThenFetch) {
    ///     render(loaded.value.value, hasMore: loaded.value.meta.hasMore)
    /// }
    /// ```
    /// - Parameters:
    ///   - request: the request to load; only `GET` responses are stored.
    ///   - serializer: an envelope serializer whose matcher must resolve `type`.
    ///   - type: the model each value holds beside the metadata.
    ///   - policy: where values come from, and in what order.
    ///   - cache: where responses are stored under HTTP's rules; the session's `URLCache` by default.
    ///   - store: where the last good response to each request is kept; none by default.
    /// - Throws (from the iteration): as ``models(for:serializer:policy:cache:store:)``, and
    ///   `SculptError/Reason/typeMismatch(expected:matched:)` when the matcher resolved another type.
    public func models<Meta, Matcher, M: Decodable & Sendable>(
        for request: URLRequest, serializer: EnvelopeResponseSerializer<Meta, Matcher>, as type: M.Type, policy: LoadPolicy,
        cache: HTTPResponseCache? = nil, store: (any ResponseStore)? = nil
    ) -> LoadSequence<Envelope<Meta, M>> {
        loads(request, policy: policy, cache: cache, store: store) { data, response in try serializer.serialize(data, for: response, as: M.self) }
    }

    private func loads<Output: Sendable>(
        _ request: URLRequest, policy: LoadPolicy, cache: HTTPResponseCache?, store: (any ResponseStore)?,
        serialize: @escaping @Sendable (Data, ResponseContext) throws -> Output
    ) -> LoadSequence<Output> {
        let loader = ResponseLoader(session: self, cache: cache ?? HTTPResponseCache(for: self), store: store, serialize: serialize)
        return LoadSequence(loader: loader, request: request, policy: policy)
    }
}
