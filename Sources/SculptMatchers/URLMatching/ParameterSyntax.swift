import SculptShared

/// How a pattern writes a named parameter: a whole segment `{name}`, `{name:#}`, `{name:*}` or
/// `{name:**}`. Braces anywhere else, a segment written as other routers write a parameter
/// (`:name`), and a `?` (a query, which no route matches) are refused with what to write instead,
/// so that no such pattern is taken silently for a literal that matches nothing.
enum ParameterSyntax {
    /// The longest parameter name: 64 bytes.
    static let maximumNameLength = 64

    /// The token and name a raw segment writes when it is a parameter; `nil` for any other segment.
    /// - Throws: `URLPattern.SyntaxError` for a segment with braces that do not make it a
    ///   parameter, a name that is not an identifier, an unknown kind, or `:name`.
    static func parameter(_ raw: Substring, in pattern: String) throws(URLPattern.SyntaxError) -> (URLPattern.Token, String)? {
        let bytes = raw.utf8
        if let query = bytes.firstIndex(of: UInt8(ascii: "?")) {
            throw URLPattern.SyntaxError(
                pattern: pattern,
                reason: "segment '\(PrintableText.value(raw, limit: 64))' has a '?', which starts a query: a pattern is a path, and routes never match a query; leave '\(PrintableText.value(raw[query...], limit: 64))' out, or write %3F for a literal '?'")
        }
        if bytes.first == UInt8(ascii: ":"), let first = bytes.dropFirst().first, isLetter(first) {
            // `:name`, `:user-id`, `:id.json`: a parameter as Express and Rails write one.
            let name = raw.dropFirst()
            let hint = isName(name.utf8) ? "write {\(name)}" : "write a parameter as a whole segment, {name}"
            throw URLPattern.SyntaxError(
                pattern: pattern,
                reason: "segment '\(PrintableText.value(raw, limit: 64))' is written as other routers write a parameter: \(hint), or %3A\(PrintableText.value(name, limit: 64)) for a literal")
        }
        let opens = bytes.contains(UInt8(ascii: "{"))
        guard opens || bytes.contains(UInt8(ascii: "}")) else { return nil }
        guard bytes.first == UInt8(ascii: "{"), bytes.last == UInt8(ascii: "}"), bytes.count >= 2,
            !bytes.dropFirst().dropLast().contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") })
        else {
            throw URLPattern.SyntaxError(
                pattern: pattern,
                reason: "segment '\(PrintableText.value(raw, limit: 64))' has braces that do not make it a parameter: a parameter is a whole segment, {name}; match a segment that holds more (v{n}, {base}...{head}) with one parameter and split its value, or write %7B and %7D for literal braces")
        }
        let inner = raw.dropFirst().dropLast()
        let parts = inner.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts[0]
        guard isName(name.utf8) else {
            throw URLPattern.SyntaxError(
                pattern: pattern,
                reason: "'\(PrintableText.value(name, limit: 64))' is not a parameter name: an ASCII letter or '_', then letters, digits, '_', '-' or '.', at most \(maximumNameLength) bytes")
        }
        let token: URLPattern.Token
        switch parts.count == 2 ? parts[1] : "*" {
        case "*": token = .segment
        case "#": token = .digits
        case "**": token = .remainder
        case let kind:
            throw URLPattern.SyntaxError(
                pattern: pattern, reason: "parameter '\(name)' has the kind '\(PrintableText.value(kind, limit: 64))': write {\(name)}, {\(name):#} for digits or {\(name):**} for the rest of the path")
        }
        return (token, String(name))
    }

    /// A parameter as a pattern writes it: `{owner}`, `{number:#}`, `{path:**}`.
    static func text(_ token: URLPattern.Token, named name: String) -> String {
        switch token {
        case .digits: "{\(name):#}"
        case .remainder: "{\(name):**}"
        case .segment, .literal: "{\(name)}"
        }
    }

    /// Whether `bytes` are a parameter name: an ASCII letter or `_`, then letters, digits, `_`, `-` and `.` (OpenAPI's `{enterprise-team}`).
    static func isName(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first, bytes.count <= maximumNameLength, isLetter(first) else { return false }
        // '-' and '.' too, as OpenAPI documents write them (GitHub's `{enterprise-team}`).
        return bytes.allSatisfy { isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
    }

    static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
    }
}
