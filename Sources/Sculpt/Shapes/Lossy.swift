import SculptShared
/// A model that is `nil`, rather than an error, when its body does not decode, with the failure
/// kept: for a response the app can do without.
///
/// ```swift
/// try routes.add("/users/*/status", Lossy<Status>.self)
/// let status = try serializer.serialize(data, for: context, as: Lossy<Status>.self)
/// status.value      // the status, or nil
/// status.failure    // why it did not decode (a DecodingError with its coding path), or nil
/// ```
///
/// Only decoding is lenient: a body that is not JSON, an error status or an unacceptable content
/// type still throws, as for any model. Beside it: `M` (one), `[M]` (all or nothing), `M?` (`null`
/// or an empty body is `nil`), and ``LossyArray`` (one optional per element).
public struct Lossy<Model: Decodable & Sendable>: Decodable, Sendable {
    /// The model, or `nil` when it did not decode.
    public var value: Model?
    /// Why it did not decode, or `nil` when it did.
    public var failure: (any Error)?

    /// Creates a lossy model from its parts.
    /// - Parameters:
    ///   - value: the model, or `nil` when it did not decode.
    ///   - failure: why it did not decode, or `nil`.
    public init(value: Model?, failure: (any Error)?) {
        self.value = value
        self.failure = failure
    }

    /// Decodes the model, keeping the error instead of throwing it.
    /// - Parameter decoder: the decoder to read the model from.
    public init(from decoder: any Decoder) {
        let mark = DecodingObservation.mark()
        do {
            value = try Model(from: decoder)
            failure = nil
        } catch {
            value = nil
            failure = error
            // What the model's own decode reported is not in the result: its drop says it all.
            DecodingObservation.discard(from: mark)
            DecodingObservation.dropped(at: decoder.codingPath, error: error)
        }
    }
}

extension Lossy: EmptyBodyRepresentable {
    /// An empty body is no model and no failure, as it is `nil` for `M?`.
    public static var emptyBodyValue: Lossy<Model> { Lossy(value: nil, failure: nil) }
}
