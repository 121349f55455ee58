/// What `print` shows for a value, built only as far as a budget of UTF-8 bytes allows: an error
/// model or a thrown error from a server's body can hold a 100 MB string or two million elements,
/// and `String(describing:)` would copy and escape all of it to show its first kilobyte.
///
/// A value that describes itself (`CustomStringConvertible`, `CustomDebugStringConvertible`,
/// and Foundation's errors) is asked for its description, as `print` would; any other is walked
/// through its `Mirror` in the form Swift's default description has (`APIError(message: "...")`,
/// `["a", "b"]`, `Optional(1)`), strings cut to the budget and collections after the elements
/// that fit, so the time spent is in proportion to what is shown.
package enum BoundedDescription {
    /// `value` described in about `limit` bytes (a cut string ends with `…` and its size, a cut
    /// collection with `…`); a little more where the last part runs over.
    ///
    /// ```swift
    /// BoundedDescription.of(APIError(message: hundredMegabytes), limit: 1_024)   // APIError(message: "xxxx…")
    /// ```
    package static func of(_ value: Any, limit: Int) -> String {
        var budget = limit
        return describe(value, budget: &budget, depth: 0)
    }

    /// How deep the walk goes into nested values before writing `…`.
    private static let deepest = 16

    private static func describe(_ value: Any, budget: inout Int, depth: Int) -> String {
        guard budget > 0, depth < deepest else { return "…" }
        if let text = value as? String { return quoted(text, budget: &budget) }
        if value is CustomStringConvertible || value is CustomDebugStringConvertible {
            let text = String(describing: value)
            return spend(ClippedText.value(text, limit: max(budget, 16)), from: &budget)
        }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first?.value else { return spend("nil", from: &budget) }
            return spend("Optional(", from: &budget) + describe(wrapped, budget: &budget, depth: depth + 1) + spend(")", from: &budget)
        case .collection, .set:
            return "[" + children(of: mirror, budget: &budget, depth: depth, labelled: false) + "]"
        case .dictionary:
            return "[" + children(of: mirror, budget: &budget, depth: depth, labelled: false) + "]"
        case .enum:
            let name = String(describing: type(of: value)) + "."
            guard let payload = mirror.children.first else { return spend(name + String(describing: value), from: &budget) }
            return spend("\(name)\(payload.label ?? "")(", from: &budget) + describe(payload.value, budget: &budget, depth: depth + 1) + ")"
        case .tuple:
            return "(" + children(of: mirror, budget: &budget, depth: depth, labelled: true) + ")"
        case .struct, .class, .foreignReference:
            let name = String(describing: type(of: value))
            return spend(name + "(", from: &budget) + children(of: mirror, budget: &budget, depth: depth, labelled: true) + ")"
        case nil:
            return spend(ClippedText.value(String(describing: value), limit: max(budget, 16)), from: &budget)
        @unknown default:
            return spend(ClippedText.value(String(describing: value), limit: max(budget, 16)), from: &budget)
        }
    }

    /// The children joined with `, `, as many as the budget allows, then `…`.
    private static func children(of mirror: Mirror, budget: inout Int, depth: Int, labelled: Bool) -> String {
        var parts: [String] = []
        for child in mirror.children {
            guard budget > 0 else {
                parts.append("…")
                break
            }
            let label = labelled ? child.label.map { "\($0): " } ?? "" : ""
            parts.append(spend(label, from: &budget) + describe(child.value, budget: &budget, depth: depth + 1))
            budget -= 2
        }
        return parts.joined(separator: ", ")
    }

    /// A string as a description quotes it; one over the budget cut, with its size stated:
    /// `"abc…" (1,048,576 bytes)`.
    private static func quoted(_ text: String, budget: inout Int) -> String {
        let size = text.utf8.count
        guard size > budget else { return spend(String(reflecting: text), from: &budget) }
        let shown = String(reflecting: ClippedText.prefix(text, bytes: max(0, budget - 32)) + "…")
        return spend("\(shown) (\(ClippedText.count(size)) bytes)", from: &budget)
    }

    private static func spend(_ text: String, from budget: inout Int) -> String {
        budget -= text.utf8.count
        return text
    }
}
