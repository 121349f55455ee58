import SculptShared
extension SculptError {
    /// Which case an error is, without its values: for a `switch` that only needs the kind, a
    /// log field, or a test that checks the kind alone.
    ///
    /// ```swift
    /// if error.code == .unacceptableStatusCode, error.response.status == .notFound { showMissing() }
    /// ```
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// ``SculptError/noModelMatched(candidates:_:)``
        case noModelMatched
        /// ``SculptError/unacceptableStatusCode(underlying:_:)``
        case unacceptableStatusCode
        /// ``SculptError/unacceptableContentType(acceptable:_:)``
        case unacceptableContentType
        /// ``SculptError/emptyBody(expected:_:)``
        case emptyBody
        /// ``SculptError/keyPathNotFound(_:_:)``
        case keyPathNotFound
        /// ``SculptError/invalidKeyPath(_:_:)``
        case invalidKeyPath
        /// ``SculptError/decodingFailed(_:underlying:_:)``
        case decodingFailed
        /// ``SculptError/typeMismatch(expected:matched:_:)``
        case typeMismatch
        /// ``SculptError/errorResponse(model:_:)``
        case errorResponse
        /// ``SculptError/matcherFailed(underlying:_:)``
        case matcherFailed
        /// ``SculptError/unknownDiscriminator(field:found:registered:_:)``
        case unknownDiscriminator
        /// ``SculptError/invalidJSON(reason:offset:_:)``
        case invalidJSON
        /// ``SculptError/bodyTooLarge(maximum:_:)``
        case bodyTooLarge
        /// ``SculptError/nestingTooDeep(maximum:offset:_:)``
        case nestingTooDeep
    }

    /// Which case this error is (``Code``'s raw value is the case's name).
    public var code: Code {
        switch self {
        case .noModelMatched: .noModelMatched
        case .unacceptableStatusCode: .unacceptableStatusCode
        case .unacceptableContentType: .unacceptableContentType
        case .emptyBody: .emptyBody
        case .keyPathNotFound: .keyPathNotFound
        case .invalidKeyPath: .invalidKeyPath
        case .decodingFailed: .decodingFailed
        case .typeMismatch: .typeMismatch
        case .errorResponse: .errorResponse
        case .matcherFailed: .matcherFailed
        case .unknownDiscriminator: .unknownDiscriminator
        case .invalidJSON: .invalidJSON
        case .bodyTooLarge: .bodyTooLarge
        case .nestingTooDeep: .nestingTooDeep
        }
    }
}
