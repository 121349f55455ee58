import Foundation
import SculptShared

/// Why a response did not become a model: the ``reason``, and the ``response`` and ``body`` it
/// concerns.
///
/// ```swift
/// do {
///     let user = try serializer.serialize(data, for: context, as: User.self)
/// } catch {
///     print(error)                      // what was expected, what arrived, and a body excerpt
///     switch error.reason {
///     case .unacceptableStatusCode where error.response.status == .notFound: showMissing()
///     case .errorResponse(let model): show(model)
///     default: let body = error.body    // nothing is lost: the raw bytes are here
///     }
/// }
/// ```
public struct SculptError: Error, CustomStringConvertible {
    /// What went wrong, with what was expected and what arrived.
    public var reason: Reason

    /// The response's URL, method, status and headers.
    public var response: ResponseContext

    /// The response body exactly as received (empty when there was none).
    public var body: Data

    /// What the matcher says about its answer, one sentence per line, when no model type matched
    /// or another type than the one asked for did: the description prints it after the reason.
    /// Empty for every other reason, and for a matcher that does not explain itself
    /// (``ModelMatcher/diagnosis(for:data:resolved:expected:)``).
    ///
    /// ```swift
    /// error.diagnosis  // ["The path /users/octocat does not start with the prefix /v3: no route was tried.", ...]
    /// ```
    public var diagnosis: [String] = []

    /// Creates an error about a response and its body.
    ///
    /// ```swift
    /// throw SculptError(.bodyTooLarge(maximum: limit), response: context, body: received)
    /// ```
    /// - Parameters:
    ///   - reason: what went wrong.
    ///   - response: the response it concerns.
    ///   - body: the body as received.
    public init(_ reason: Reason, response: ResponseContext, body: Data) {
        self.reason = reason
        self.response = response
        self.body = body
    }

    /// What went wrong with a response, each case with what was expected and what arrived.
    public enum Reason: Sendable {
        /// The matcher had no model type for the response. `candidates` are the registrations
        /// nearest to it (for a URL matcher, the patterns nearest to the path).
        case noModelMatched(candidates: [String])

        /// The status is outside the serializer's `acceptableStatusCodes` and no error model was
        /// decoded. `underlying` is the failure to decode the error model, when one was tried.
        case unacceptableStatusCode(underlying: (any Error)?)

        /// The `Content-Type` is not one the serializer accepts (an HTML page served with status
        /// 200).
        case unacceptableContentType(acceptable: [String])

        /// The body is empty (or white space) where a model was expected. `expected` names the
        /// model type when the matcher had resolved one.
        case emptyBody(expected: String?)

        /// The model type's key path does not lead anywhere in this body.
        case keyPathNotFound(KeyPathMiss)

        /// The model type's key path is not valid syntax.
        case invalidKeyPath(ModelKeyPath.SyntaxError)

        /// The body did not decode as the model type. `underlying` is usually a `DecodingError`.
        case decodingFailed(ModelType, underlying: any Error)

        /// The caller asked for one type and the matcher resolved the response to another.
        case typeMismatch(expected: any (Decodable & Sendable).Type, matched: ModelType)

        /// The server answered with an error status and a body that decoded as the error model the
        /// serializer's `errorMatcher` chose: `model` is that decoded error.
        case errorResponse(model: any Decodable & Sendable)

        /// The matcher could not read the body and threw something other than a ``SculptError``.
        case matcherFailed(underlying: any Error)

        /// The body's discriminator field is missing (`found` is `nil`) or holds a value with no
        /// registered model type. `found` is the value as JSON (`"answer"`, `3`, `null`, `an
        /// object`); `registered` lists the registered values, sorted.
        case unknownDiscriminator(field: String, found: String?, registered: [String])

        /// The body is not valid JSON where a matcher had to read it: `reason` says what was wrong
        /// at byte `offset`.
        case invalidJSON(reason: String, offset: Int)

        /// The body is larger than the serializer's ``ModelResponseSerializer/maximumBodySize``; it
        /// was not read.
        case bodyTooLarge(maximum: Int)

        /// The body nests deeper (JSON arrays and objects, XML elements) than the serializer's
        /// ``ModelResponseSerializer/maximumNestingDepth``: level `maximum + 1` opens at byte
        /// `offset`.
        case nestingTooDeep(maximum: Int, offset: Int)

        /// The case's name, for a log field or a test that checks the kind alone:
        /// `"unacceptableStatusCode"`.
        public var name: String {
            Mirror(reflecting: self).children.first?.label ?? String(describing: self)
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
        /// - Parameters:
        ///   - keyPath: the whole key path, as written.
        ///   - failedAt: the key path up to and including the step that failed.
        ///   - availableKeys: the keys present where the step failed, sorted.
        ///   - found: what stood where an object or array was needed, when it was neither.
        public init(keyPath: String, failedAt: String, availableKeys: [String], found: String? = nil) {
            self.keyPath = keyPath
            self.failedAt = failedAt
            self.availableKeys = availableKeys
            self.found = found
        }
    }
}
