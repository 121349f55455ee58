/// The directives of `Cache-Control` field values (RFC 9111, section 5.2), names lowercased.
///
/// ```swift
/// let control = CacheControl(["max-age=60, must-revalidate"])
/// control.seconds("max-age")      // 60
/// control.contains("no-store")    // false
/// ```
struct CacheControl: Sendable {
    /// Each directive's argument (`nil` when it has none), by lowercased name; the first of a
    /// repeated directive wins.
    private var directives: [String: String?] = [:]

    /// Parses the values of every `Cache-Control` field of a message.
    init(_ values: [String]) {
        for value in values {
            for directive in Self.split(value) {
                let parts = directive.split(separator: "=", maxSplits: 1)
                guard let name = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else { continue }
                let argument = parts.count > 1 ? Self.unquoted(parts[1].trimmingCharacters(in: .whitespaces)) : nil
                if directives[name] == nil { directives[name] = .some(argument) }
            }
        }
    }

    /// Whether the directive is present.
    func contains(_ name: String) -> Bool {
        directives[name] != nil
    }

    /// A delta-seconds argument (`max-age=60`); `nil` when absent or not a number. Values past
    /// 2^31 are taken as 2^31 (RFC 9111, section 1.2.2).
    func seconds(_ name: String) -> Int? {
        guard let argument = directives[name] ?? nil, !argument.isEmpty, argument.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            return nil
        }
        return Int(argument.prefix(10)).map { min($0, 1 << 31) }
    }

    /// The comma-separated directives of one value; commas inside quoted strings do not split.
    private static func split(_ value: String) -> [Substring] {
        var pieces: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                pieces.append(value[start..<index])
                start = value.index(after: index)
            }
            index = value.index(after: index)
        }
        pieces.append(value[start...])
        return pieces
    }

    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
        return String(text.dropFirst().dropLast())
    }
}
