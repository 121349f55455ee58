import SculptShared
/// A model with a value for responses that carry no body.
///
/// ```swift
/// struct Deleted: Decodable, Sendable, EmptyBodyRepresentable {
///     static var emptyBodyValue: Deleted { Deleted() }
/// }
/// ```
///
/// A `204 No Content`, a `205 Reset Content` or the answer to a `HEAD` request may have an empty
/// body. When the matched model type conforms, the serializer returns its ``emptyBodyValue``;
/// otherwise it returns ``NoContent``. Any other empty body is
/// ``SculptError/Reason/emptyBody(expected:)``: Sculpt never invents a model from nothing.
public protocol EmptyBodyRepresentable {
    /// The value that stands for "no body".
    static var emptyBodyValue: Self { get }
}

/// The model of a response that has, by design, no body: what a 204, 205 or `HEAD` response
/// serializes to.
///
/// ```swift
/// let result = try serializer.serialize(Data(), for: ResponseContext(url: url, status: .noContent))
/// result is NoContent  // true
/// ```
///
/// Decoding it from a body reads nothing, so a route registered as `NoContent` accepts any body.
public struct NoContent: Decodable, Sendable, Hashable, EmptyBodyRepresentable {
    /// Creates the empty model.
    public init() {}

    /// Reads nothing from `decoder`.
    /// - Parameter decoder: the decoder, which is not read.
    public init(from decoder: any Decoder) throws {}

    /// A ``NoContent``.
    public static var emptyBodyValue: NoContent { NoContent() }
}

extension Optional: EmptyBodyRepresentable {
    /// `nil`: an optional model of a bodiless response is absent.
    public static var emptyBodyValue: Optional { nil }
}
