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
    ///
    /// With `policy`, a property whose name is a secret's (`token`, `accessToken`, as a JSON member
    /// of that name would be) is shown as `REDACTED`, whatever it holds.
    package static func of(_ value: Any, limit: Int, hiding policy: SecretPolicy? = nil) -> String {
        var walk = Walk(budget: limit, policy: policy)
        return walk.describe(value, depth: 0)
    }

    /// One description's walk: the bytes left to spend, and what it hides.
    private struct Walk {
        package var budget: Int
        package let policy: SecretPolicy?

        /// How deep the walk goes into nested values before writing `…`.
        private static let deepest = 16

        package mutating func describe(_ value: Any, depth: Int) -> String {
            guard budget > 0, depth < Self.deepest else { return "…" }
            if let text = value as? String { return quoted(text) }
            if value is CustomStringConvertible || value is CustomDebugStringConvertible {
                let text = String(describing: value)
                return Self.spend(ClippedText.value(text, limit: max(budget, 16)), from: &budget)
            }
            let mirror = Mirror(reflecting: value)
            switch mirror.displayStyle {
            case .optional:
                guard let wrapped = mirror.children.first?.value else { return Self.spend("nil", from: &budget) }
                return Self.spend("Optional(", from: &budget) + describe(wrapped, depth: depth + 1) + Self.spend(")", from: &budget)
            case .collection, .set:
                return "[" + children(of: mirror, depth: depth, labelled: false) + "]"
            case .dictionary:
                return "[" + children(of: mirror, depth: depth, labelled: false) + "]"
            case .enum:
                let name = String(describing: type(of: value)) + "."
                guard let payload = mirror.children.first else { return Self.spend(name + String(describing: value), from: &budget) }
                return Self.spend("\(name)\(payload.label ?? "")(", from: &budget) + describe(payload.value, depth: depth + 1) + ")"
            case .tuple:
                return "(" + children(of: mirror, depth: depth, labelled: true) + ")"
            case .struct, .class, .foreignReference:
                let name = String(describing: type(of: value))
                return Self.spend(name + "(", from: &budget) + children(of: mirror, depth: depth, labelled: true) + ")"
            case nil:
                return Self.spend(ClippedText.value(String(describing: value), limit: max(budget, 16)), from: &budget)
            @unknown default:
                return Self.spend(ClippedText.value(String(describing: value), limit: max(budget, 16)), from: &budget)
            }
        }

        /// The children joined with `, `, as many as the budget allows, then `…`.
        private mutating func children(of mirror: Mirror, depth: Int, labelled: Bool) -> String {
            var parts: [String] = []
            for child in mirror.children {
                guard budget > 0 else {
                    parts.append("…")
                    break
                }
                let label = labelled ? child.label.map { "\($0): " } ?? "" : ""
                if labelled, let name = child.label, policy?.isSecret(bodyField: name) == true {
                    parts.append(Self.spend(label + "\"\(Secrets.marker)\"", from: &budget))
                } else {
                    parts.append(Self.spend(label, from: &budget) + describe(child.value, depth: depth + 1))
                }
                budget -= 2
            }
            return parts.joined(separator: ", ")
        }

        /// A string as a description quotes it; one over the budget cut, with its size stated:
        /// `"abc…" (1,048,576 bytes)`.
        private mutating func quoted(_ text: String) -> String {
            let size = text.utf8.count
            guard size > budget else { return Self.spend(String(reflecting: text), from: &budget) }
            let shown = String(reflecting: ClippedText.prefix(text, bytes: max(0, budget - 32)) + "…")
            return Self.spend("\(shown) (\(ClippedText.count(size)) bytes)", from: &budget)
        }

        private static func spend(_ text: String, from budget: inout Int) -> String {
            budget -= text.utf8.count
            return text
        }
    }
}
