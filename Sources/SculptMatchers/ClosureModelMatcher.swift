public import Foundation
import SculptShared
public import Sculpt

/// A matcher written as a closure, for a one-off rule.
///
/// ```swift
/// let byHeader = ClosureModelMatcher { response, _ in
///     response.headerFields[HTTPField.Name("X-GitHub-Event")!] == "push" ? ModelType(PushEvent.self) : nil
/// }
/// ```
public struct ClosureModelMatcher: ModelMatcher {
    private let body: @Sendable (ResponseContext, Data) throws -> ModelType?

    /// Creates a matcher that calls `body` for each response.
    ///
    /// ```swift
    /// let matcher = ClosureModelMatcher { response, _ in response.status == .created ? ModelType(Created.self) : nil }
    /// ```
    /// - Parameter body: answers the model type for a response and its body, or `nil`.
    public init(_ body: @escaping @Sendable (ResponseContext, Data) throws -> ModelType?) {
        self.body = body
    }

    /// What the closure answers.
    ///
    /// - Parameters:
    ///   - response: the response to match.
    ///   - data: its body.
    /// - Throws: what the closure throws.
    public func modelType(for response: ResponseContext, data: Data) throws -> ModelType? {
        try body(response, data)
    }
}
