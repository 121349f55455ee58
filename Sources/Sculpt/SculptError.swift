import Foundation
import SculptShared

/// Why a response did not become a model.
///
/// ```swift
/// do {
///     let user = try serializer.serialize(data, for: context, as: User.self)
/// } catch let error as SculptError {
///     print(error)                 // what was expected, what arrived, and a body excerpt
///     let body = error.body        // nothing is lost: the raw bytes are here
/// }
/// ```
///
/// Every case carries a ``Context``: the response's URL, method, status and headers
/// (``response``), and its body (``body``).
public enum SculptError: Error, CustomStringConvertible {
    /// The matcher had no model type for the response. `candidates` are the registrations nearest
    /// to it (for a URL matcher, the patterns nearest to the path).
    case noModelMatched(candidates: [String], Context)

    /// The status is outside the serializer's `acceptableStatusCodes` and no error model was
    /// decoded. `underlying` is the failure to decode the error model, when one was tried.
    case unacceptableStatusCode(underlying: (any Error)?, Context)

    /// The `Content-Type` is not one the serializer accepts (an HTML page served with status 200).
    case unacceptableContentType(acceptable: [String], Context)

    /// The body is empty (or white space) where a model was expected. `expected` names the model
    /// type when the matcher had resolved one.
    case emptyBody(expected: String?, Context)

    /// The model type's key path does not lead anywhere in this body.
    case keyPathNotFound(KeyPathMiss, Context)

    /// The model type's key path is not valid syntax.
    case invalidKeyPath(ModelKeyPath.SyntaxError, Context)

    /// The body did not decode as the model type. `underlying` is usually a `DecodingError`.
    case decodingFailed(ModelType, underlying: any Error, Context)

    /// The caller asked for one type and the matcher resolved the response to another.
    case typeMismatch(expected: any (Decodable & Sendable).Type, matched: ModelType, Context)

    /// The server answered with an error status and a body that decoded as the error model the
    /// serializer's `errorMatcher` chose: `model` is that decoded error.
    case errorResponse(model: any Decodable & Sendable, Context)

    /// The matcher could not read the body and threw something other than a ``SculptError``.
    case matcherFailed(underlying: any Error, Context)

    /// The body's discriminator field is missing (`found` is `nil`) or holds a value with no
    /// registered model type. `found` is the value as JSON (`"answer"`, `3`, `null`, `an object`);
    /// `registered` lists the registered values, sorted.
    case unknownDiscriminator(field: String, found: String?, registered: [String], Context)

    /// The body is not valid JSON where a matcher had to read it: `reason` says what was wrong at
    /// byte `offset`.
    case invalidJSON(reason: String, offset: Int, Context)

    /// The body is larger than the serializer's ``ModelResponseSerializer/maximumBodySize``; it was
    /// not read.
    case bodyTooLarge(maximum: Int, Context)

    /// The body nests deeper (JSON arrays and objects, XML elements) than the serializer's
    /// ``ModelResponseSerializer/maximumNestingDepth``: level `maximum + 1` opens at byte `offset`.
    case nestingTooDeep(maximum: Int, offset: Int, Context)

    /// The response and body a ``SculptError`` is about.
    public struct Context: Sendable {
        /// The response's URL, method, status and headers.
        public var response: ResponseContext
        /// The response body exactly as received (empty when there was none).
        public var body: Data

        /// Creates a context.
        public init(response: ResponseContext, body: Data) {
            self.response = response
            self.body = body
        }
    }

    /// Where a key path stopped resolving and what was there instead.
    public struct KeyPathMiss: Sendable, Equatable {
        /// The whole key path, as written.
        public var keyPath: String
        /// The key path up to and including the step that failed, e.g. `data.items`.
        public var failedAt: String
        /// The keys present where the step failed (sorted), or `[0]...[n]` for an array; empty
        /// when there was nothing to descend into.
        public var availableKeys: [String]
        /// What stood where an object or array was needed, when it was neither (`null`, a string).
        public var found: String?

        /// Creates a description of a key path miss.
        public init(keyPath: String, failedAt: String, availableKeys: [String], found: String? = nil) {
            self.keyPath = keyPath
            self.failedAt = failedAt
            self.availableKeys = availableKeys
            self.found = found
        }
    }

    /// The response and body this error is about: ``response`` and ``body``.
    var context: Context {
        switch self {
        case .noModelMatched(_, let context), .unacceptableStatusCode(_, let context),
            .unacceptableContentType(_, let context), .emptyBody(_, let context),
            .keyPathNotFound(_, let context), .invalidKeyPath(_, let context),
            .decodingFailed(_, _, let context), .typeMismatch(_, _, let context),
            .errorResponse(_, let context), .matcherFailed(_, let context),
            .unknownDiscriminator(_, _, _, let context), .invalidJSON(_, _, let context),
            .bodyTooLarge(_, let context), .nestingTooDeep(_, _, let context):
            return context
        }
    }

    /// This error with `context` in place of its own: what a serializer makes of an error a
    /// matcher threw, so that it carries the response and body the serializer was given.
    func replacingContext(with context: Context) -> SculptError {
        switch self {
        case .noModelMatched(let candidates, _): .noModelMatched(candidates: candidates, context)
        case .unacceptableStatusCode(let underlying, _): .unacceptableStatusCode(underlying: underlying, context)
        case .unacceptableContentType(let acceptable, _): .unacceptableContentType(acceptable: acceptable, context)
        case .emptyBody(let expected, _): .emptyBody(expected: expected, context)
        case .keyPathNotFound(let miss, _): .keyPathNotFound(miss, context)
        case .invalidKeyPath(let error, _): .invalidKeyPath(error, context)
        case .decodingFailed(let modelType, let underlying, _): .decodingFailed(modelType, underlying: underlying, context)
        case .typeMismatch(let expected, let matched, _): .typeMismatch(expected: expected, matched: matched, context)
        case .errorResponse(let model, _): .errorResponse(model: model, context)
        case .matcherFailed(let underlying, _): .matcherFailed(underlying: underlying, context)
        case .unknownDiscriminator(let field, let found, let registered, _):
            .unknownDiscriminator(field: field, found: found, registered: registered, context)
        case .invalidJSON(let reason, let offset, _): .invalidJSON(reason: reason, offset: offset, context)
        case .bodyTooLarge(let maximum, _): .bodyTooLarge(maximum: maximum, context)
        case .nestingTooDeep(let maximum, let offset, _): .nestingTooDeep(maximum: maximum, offset: offset, context)
        }
    }

    /// The response's URL, method, status and headers.
    public var response: ResponseContext { context.response }

    /// The response body exactly as received.
    public var body: Data { context.body }
}
