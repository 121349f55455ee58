import Sculpt
import SculptShared
/// One value of a load, with where it came from and whether it is stale.
///
/// ```swift
/// for try await loaded in session.models(for: request, serializer: serializer, policy: .fetchElseCache) {
///     if loaded.origin == .cache, loaded.isStale { showOfflineBanner() }
///     render(loaded.value)
/// }
/// ```
public struct Loaded<Value: Sendable>: Sendable {
    /// Where a value came from.
    public enum Origin: Sendable, Hashable {
        /// The HTTP cache, without asking the network.
        case cache
        /// The network: a full response, or a stored one the server confirmed with `304`.
        case network
        /// A persistent store of decoded models.
        case store
    }

    /// The serialized value.
    public var value: Value
    /// Where it came from.
    public var origin: Origin
    /// The response it was serialized from (for a `304`, the stored response with the fields the
    /// `304` updated).
    public var response: ResponseContext
    /// Whether the response was past its freshness lifetime (RFC 9111) when it was given out.
    public var isStale: Bool

    /// Creates a loaded value.
    /// - Parameters:
    ///   - value: the model.
    ///   - origin: where it came from.
    ///   - response: the response it was decoded from.
    ///   - isStale: whether it is older than its freshness lifetime.
    public init(value: Value, origin: Origin, response: ResponseContext, isStale: Bool) {
        self.value = value
        self.origin = origin
        self.response = response
        self.isStale = isStale
    }
}
