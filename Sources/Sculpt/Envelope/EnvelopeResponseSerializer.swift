import Foundation
import SculptShared

/// A serializer whose output is the matched model together with metadata decoded from the same
/// body.
///
/// ```swift
/// struct Wrapper: Decodable, Sendable { let hasMore: Bool; let quotaRemaining: Int }
/// var routes = URLModelMatcher()
/// try routes.add("/questions", [Question].self, at: "items")
/// let serializer = ModelResponseSerializer(matcher: routes, decoder: snakeCase).enveloped(in: Wrapper.self)
/// let page = try await session.model(for: request, serializer: serializer, as: [Question].self)
/// page.meta.hasMore   // Envelope<Wrapper, [Question]>
/// ```
///
/// `Meta` decodes from the whole body (its keys are the envelope's; it ignores the rest) and the
/// result from the model type's key path, in one decode of the body: the document is parsed once.
/// Everything else (status, empty bodies, content type, matching, errors) is the base serializer's.
public struct EnvelopeResponseSerializer<Meta: Decodable & Sendable, Matcher: ModelMatcher>: ResponseSerializer {
    /// The metadata and the model the matcher picked.
    public typealias Output = Envelope<Meta, any Decodable & Sendable>

    /// The serializer whose pipeline, matcher and decoder this one uses.
    public var base: ModelResponseSerializer<Matcher>

    /// The base serializer's ``ModelResponseSerializer/maximumBodySize``: the envelope and its
    /// model are one body.
    public var maximumBodySize: Int? { base.maximumBodySize }

    /// Creates an envelope serializer around `base`.
    ///
    /// ```swift
    /// let serializer = EnvelopeResponseSerializer(meta: Wrapper.self, base: ModelResponseSerializer(matcher: routes))
    /// ```
    /// - Parameters:
    ///   - meta: the metadata type, decoded from the whole body.
    ///   - base: the serializer whose matcher, decoders and checks are used.
    public init(meta: Meta.Type, base: ModelResponseSerializer<Matcher>) {
        self.base = base
    }

    /// Serializes the body into the metadata and the model the matcher picks.
    ///
    /// ```swift
    /// let page = try serializer.serialize(data, for: context)
    /// ```
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response it came with.
    /// - Throws: ``SculptError``, as ``ModelResponseSerializer/serialize(_:for:)`` does; a body
    ///   whose metadata does not decode is ``SculptError/Reason/decodingFailed(_:underlying:)`` naming
    ///   `Meta`. A bodiless response has no metadata: it is
    ///   ``SculptError/Reason/emptyBody(expected:)`` unless `Meta` is ``EmptyBodyRepresentable``.
    public func serialize(_ data: Data, for response: ResponseContext) throws(SculptError) -> Output {
        try base.running(response, data) { () throws(SculptError) in try steps(data, response) }
    }

    /// The steps of ``serialize(_:for:)``.
    private func steps(_ data: Data, _ response: ResponseContext) throws(SculptError) -> Output {
        switch try base.resolve(response, data, expecting: nil) {
        case .bodiless:
            return Envelope(meta: try base.bodilessValue(response, data, as: Meta.self), value: try base.bodilessValue(response, data))
        case .model(let modelType):
            return try decode(modelType, response, data) { try modelType.decode(modelType.type, from: $0) }
        }
    }

    /// Serializes the body into the metadata and a model of type `M`, checking that the matcher
    /// agrees.
    ///
    /// ```swift
    /// let page = try serializer.serialize(data, for: context, as: [Question].self)
    /// ```
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response it came with.
    ///   - type: the model the matcher must resolve.
    /// - Throws: ``SculptError``, as ``ModelResponseSerializer/serialize(_:for:as:)`` does.
    public func serialize<M: Decodable & Sendable>(_ data: Data, for response: ResponseContext, as type: M.Type) throws(SculptError) -> Envelope<Meta, M> {
        try base.running(response, data) { () throws(SculptError) in try steps(data, response, as: M.self) }
    }

    /// The outcome of serializing a response into the metadata and a model of type `M`, as a
    /// `Result` whose failure is typed.
    ///
    /// ```swift
    /// switch serializer.result(data, for: context, as: [Question].self) {
    /// case .success(let page): show(page.value, more: page.meta.hasMore)
    /// case .failure(let error): show(error)
    /// }
    /// ```
    /// - Parameters:
    ///   - data: the body.
    ///   - response: the response it came with.
    ///   - type: the model the matcher must resolve.
    /// - Returns: the metadata and the model, or the ``SculptError``.
    public func result<M: Decodable & Sendable>(_ data: Data, for response: ResponseContext, as type: M.Type) -> Result<Envelope<Meta, M>, SculptError> {
        Result { () throws(SculptError) in try serialize(data, for: response, as: M.self) }
    }

    /// The steps of ``serialize(_:for:as:)``.
    private func steps<M: Decodable & Sendable>(_ data: Data, _ response: ResponseContext, as type: M.Type) throws(SculptError) -> Envelope<Meta, M> {
        switch try base.resolve(response, data, expecting: M.self) {
        case .bodiless:
            return Envelope(meta: try base.bodilessValue(response, data, as: Meta.self), value: try base.bodilessValue(response, data, as: M.self))
        case .model(let modelType):
            return try decode(modelType, response, data) { try modelType.decode(M.self, from: $0) }
        }
    }

    /// The base's step 7 with the metadata beside the model: both from one root decoder, a failure
    /// attributed to whichever of the two failed (or to the body, when it is only white space).
    private func decode<Model: Sendable>(
        _ modelType: ModelType, _ response: ResponseContext, _ data: Data, _ model: @escaping @Sendable (any Decoder) throws -> Model
    ) throws(SculptError) -> Envelope<Meta, Model> {
        do {
            return try RootDecoding.decode(data, using: base.decoder(for: response)) { decoder in
                let meta: Meta
                do {
                    meta = try Meta(from: decoder)
                } catch {
                    throw MetaFailure(underlying: error)
                }
                return Envelope(meta: meta, value: try model(decoder))
            }
        } catch let failure as MetaFailure {
            throw base.decodingFailure(failure.underlying, ModelType(Meta.self), response, data)
        } catch {
            throw base.decodingFailure(error, modelType, response, data)
        }
    }

    /// The metadata did not decode; carried out of the root decode to be reported as `Meta`'s.
    private struct MetaFailure: Error {
        let underlying: any Error
    }
}

extension ModelResponseSerializer {
    /// This serializer, with metadata of type `Meta` decoded from each body beside the model.
    ///
    /// ```swift
    /// let serializer = ModelResponseSerializer(matcher: routes).enveloped(in: Wrapper.self)
    /// ```
    /// - Parameter meta: The metadata decoded from the whole body beside each model.
    public func enveloped<Meta: Decodable & Sendable>(in meta: Meta.Type) -> EnvelopeResponseSerializer<Meta, Matcher> {
        EnvelopeResponseSerializer(meta: meta, base: self)
    }
}
