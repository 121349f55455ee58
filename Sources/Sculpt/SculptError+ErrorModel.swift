import SculptShared
extension SculptError {
    /// The error model the response carried, as the caller's own type: the value the
    /// serializer's `errorMatcher` decoded from an error status's body (or a matched
    /// ``ErrorResponseModel``), when it is an `M`; `nil` for every other error.
    ///
    /// ```swift
    /// do {
    ///     let issue = try serializer.serialize(data, for: context, as: Issue.self)
    /// } catch {
    ///     // The serializer throws SculptError (typed throws): no cast.
    ///     if let apiError = error.errorModel(as: APIError.self) { show(apiError.message) }
    /// }
    /// ```
    /// - Parameter type: The error model type the caller expects.
    public func errorModel<M: Decodable & Sendable>(as type: M.Type) -> M? {
        guard case .errorResponse(let model) = reason else { return nil }
        return model as? M
    }
}
