package import HTTPTypes

extension HTTPField.Name {
    /// A field name written in the source, for the names swift-http-types does not declare:
    /// `.literal("X-Sculpt-Replay")`. A literal that is not a field name is a programming error,
    /// stopped at its first use.
    ///
    /// ```swift
    /// static let link = HTTPField.Name.literal("Link")
    /// ```
    package static func literal(_ name: StaticString) -> HTTPField.Name {
        guard let field = HTTPField.Name("\(name)") else { preconditionFailure("\(name) is not an HTTP field name") }
        return field
    }
}
