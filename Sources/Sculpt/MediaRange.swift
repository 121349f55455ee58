import Foundation

/// A content type pattern such as `application/json`, `text/*` or `*/*+json`, compared the way
/// HTTP compares media types: case-insensitively, parameters (`; charset=utf-8`) ignored.
struct MediaRange: Sendable {
    let type: String
    let subtype: String

    init(_ text: String) {
        (type, subtype) = Self.essence(of: text)
    }

    /// Whether a `Content-Type` value falls in this range.
    func contains(_ contentType: String) -> Bool {
        let (type, subtype) = Self.essence(of: contentType)
        guard self.type == "*" || self.type == type else { return false }
        if self.subtype == "*" || self.subtype == subtype { return true }
        guard self.subtype.hasPrefix("*+") else { return false }
        let suffix = self.subtype.dropFirst()  // "+json"
        return subtype.hasSuffix(suffix) && subtype.count > suffix.count
    }

    /// `Application/JSON; charset=utf-8` → (`application`, `json`).
    private static func essence(of text: String) -> (type: String, subtype: String) {
        let essence = text.prefix { $0 != ";" }.lowercased()
        let parts = essence.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let trimmed = parts.map { $0.trimmingCharacters(in: .whitespaces) }
        return (trimmed.first ?? "", trimmed.count > 1 ? trimmed[1] : "")
    }
}
