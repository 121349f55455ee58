/// The rule by which a JSON number stands for a registered discriminator value: its canonical
/// text. A number compares by value, so `3`, `3.0`, `30e-1` and `-0` all read as an integer's
/// decimal text (`3`, `0`); a number that is not a whole number within `Int`'s range reads as
/// Swift's shortest spelling of its `Double` (`2.5`, `1e+20`). The type-field peek reads a number's
/// text and `TypeFieldFamily` a decoded `Int` or `Double`: both end here, so they agree.
package enum JSONNumber {
    /// The canonical text of a number written as `literal` (JSON's grammar); `nil` for one that is
    /// not finite as a `Double` (`1e999`), which no decoder reads.
    ///
    /// ```swift
    /// JSONNumber.canonicalText(of: "3.0")    // "3"
    /// JSONNumber.canonicalText(of: "2.50")   // "2.5"
    /// ```
    package static func canonicalText(of literal: String) -> String? {
        if let integer = Int(literal) { return String(integer) }
        return Double(literal).flatMap(canonicalText(of:))
    }

    /// The canonical text of a decoded number; `nil` when it is not finite.
    ///
    /// ```swift
    /// JSONNumber.canonicalText(of: 1e20)   // "1e+20"
    /// ```
    package static func canonicalText(of value: Double) -> String? {
        guard value.isFinite else { return nil }
        if let integer = Int(exactly: value) { return String(integer) }
        return "\(value)"
    }
}
