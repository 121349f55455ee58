import SculptShared
/// A response's model together with the envelope metadata around it, decoded in one pass.
///
/// ```swift
/// let page = try serializer.serialize(data, for: context, as: [Question].self)  // Envelope<Wrapper, [Question]>
/// page.meta.hasMore         // Stack Exchange's has_more
/// page.value.first?.title   // the items at the model type's key path
/// ```
public struct Envelope<Meta: Sendable, Model: Sendable>: Sendable {
    /// The metadata the caller models: status, pagination, quota.
    public var meta: Meta
    /// The model, decoded at the matched model type's key path.
    public var value: Model

    /// Creates an envelope.
    ///
    /// - Parameters:
    ///   - meta: the metadata.
    ///   - value: the model.
    public init(meta: Meta, value: Model) {
        self.meta = meta
        self.value = value
    }
}
