import Sculpt
import SculptShared
/// Where a load takes its values from: the HTTP cache, the network, or one after the other.
///
/// ```swift
/// for try await loaded in session.models(for: request, serializer: serializer, policy: .cachedThenFetch) {
///     show(loaded.value, stale: loaded.isStale)
/// }
/// ```
///
/// Every policy stores what the network answers when HTTP allows it (`GET`, a storable status,
/// no `no-store`), and a network leg revalidates a stored response with `If-None-Match` /
/// `If-Modified-Since`, so a `304` costs no body. A stored response whose `Cache-Control` says
/// `no-cache` or `must-revalidate` is never given out stale, except by ``cacheOnly``.
public enum LoadPolicy: Sendable, Hashable, CaseIterable {
    /// The stored value first, fresh or stale (marked), then the network's; the sequence ends after
    /// the network's. A transport error after a stored value ends the sequence with that error:
    /// the caller has shown the stored value and learns it could not be refreshed.
    case cachedThenFetch
    /// The value of the persistent store's last good response (origin ``Loaded/Origin/store``),
    /// then the network's; the network's alone when the load has no ``ResponseStore`` or it
    /// holds nothing for the request. What the network answers well is saved for next time.
    case storeThenFetch
    /// The stored value when it is fresh; otherwise the network's (revalidating a stale one).
    case cacheElseFetch
    /// The network's value; when the network cannot be reached (a transport error), the stored
    /// value, fresh or stale (marked), in its place: the HTTP cache's, else the persistent
    /// store's (``ResponseStore``). An HTTP error status is an answer, not a
    /// failure to reach the network: it is serialized (an error model) and never replaced.
    case fetchElseCache
    /// The network's value, never a stored one (the answer is still stored).
    case networkOnly
    /// The stored value, fresh or stale (marked), never the network; `URLError(.resourceUnavailable)`
    /// when nothing is stored.
    case cacheOnly
}
