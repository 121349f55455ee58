import Foundation

/// The values a body holds under secret names, as text, so that a description built from what was
/// decoded (an error model's own description, a `DecodingError` that quotes the value it could not
/// take) can have them replaced wherever they appear.
extension SecretPolicy {
    /// The most values collected from one body (or URL).
    package static let mostSecretValues = 1_024

    /// Values shorter than this are not looked for: `"abc"` would replace parts of words.
    package static let shortestSecretValue = 4

    /// The secret values in the first `scanning` bytes of `body`: each secret JSON member's
    /// string (as written and, when it has escapes, decoded) or the numbers and strings inside
    /// it, or each secret form parameter's value (as written and percent-decoded). At most 1,024;
    /// `isWhole` is `false` when the body goes on past `scanning` bytes or holds more, so that
    /// values from it that were not looked at can be withheld.
    ///
    /// ```swift
    /// SecretPolicy.default.secretValues(in: Data(#"{"token":"abc123"}"#.utf8), contentTypes: ["application/json"], scanning: 1 << 20)
    /// // (values: ["abc123"], isWhole: true)
    /// ```
    package func secretValues(in body: Data, contentTypes: [String], scanning limit: Int) -> (values: [String], isWhole: Bool) {
        let scanned = body.prefix(limit)
        var values: [String] = []
        var isWhole = body.count <= limit
        func add(_ bytes: some Collection<UInt8>) {
            guard bytes.count >= Self.shortestSecretValue else { return }
            let text = String(decoding: bytes, as: UTF8.self)
            guard !values.contains(text) else { return }
            guard values.count < Self.mostSecretValues else {
                isWhole = false
                return
            }
            values.append(text)
        }
        if MultipartBody.isMultipart(contentTypes) {
            for value in secretValues(inMultipart: body, boundary: MultipartBody.boundary(in: contentTypes), scanning: limit) { add(value.utf8) }
        }
        let kind = Self.descriptionKind(of: scanned, contentTypes: contentTypes)
        if kind != .opaque {
            // A credential of a known shape is secret under any name, or none.
            let written = Array(scanned)
            for found in CredentialShape.find(in: written, insideWords: true) { add(written[found.range]) }
            // Written with escapes too (`ghp_\u0041…`): as written, and as a decoder gives it.
            for found in CredentialShape.escaped(in: written) {
                add(written[found.range])
                add(found.decoded)
            }
        }
        if kind != .opaque {
            // A query or form written inside a value, and a credential after its scheme: as
            // written, and as a decoder gives the text (JSON escapes decoded; XML references).
            let written = Array(scanned)
            var readings = [written]
            let decoded = kind == .json ? Self.unescapingJSON(written)
                : kind == .xml && written.contains(UInt8(ascii: "&")) ? Array(Self.resolvingReferences(in: String(decoding: written, as: UTF8.self)).utf8)
                : written
            if decoded != written { readings.append(decoded) }
            for bytes in readings {
                // As written, an escape (`\/`, `&#99;`) is part of a value.
                let escapes: EscapeSyntax = bytes != written ? .none : kind == .json ? .json : kind == .xml ? .xml : .none
                for range in embeddedParameterValueRanges(in: bytes, escapes: escapes) {
                    for value in Self.parameterValues(String(decoding: bytes[range], as: UTF8.self)) { add(value.utf8) }
                }
            }
        }
        switch kind {
        case .opaque: return (values, isWhole)
        case .json: break
        case .xml:
            let bytes = Array(scanned)
            for range in secretXMLValueRanges(in: bytes) {
                add(bytes[range])
                let trimmed = String(decoding: bytes[range], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                add(trimmed.utf8)
                // As a decoder gives it: `x&amp;y` is `x&y`, `&#83;` is `S`.
                add(Self.resolvingReferences(in: trimmed).utf8)
            }
            fallthrough  // then as text, as a form is read
        case .form:
            let policy = formPolicy
            for pair in scanned.split(whereSeparator: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
                guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { continue }
                let name = String(decoding: pair[..<equals], as: UTF8.self)
                guard policy.isSecret(parameter: name, besideOAuth: false) else { continue }
                for value in Self.parameterValues(String(decoding: pair[pair.index(after: equals)...], as: UTF8.self)) { add(value.utf8) }
            }
            let bytes = Array(scanned)
            for range in embeddedMemberValueRanges(in: bytes) { add(bytes[range]) }
            return (values, isWhole)
        }
        let all = Array(scanned)
        for range in embeddedMemberValueRanges(in: all, singleQuotedOnly: true) { add(all[range]) }
        for value in secretValues(of: secretReplacements(in: scanned, scanning: scanned.count), in: scanned) { add(value.utf8) }
        return (values, isWhole)
    }

    /// The secret values `replacements` of `body` (JSON) hide: a secret member's strings and
    /// scalars, or what a rewritten string (a URL, an embedded document) held.
    package func secretValues(of replacements: [SecretReplacement], in body: Data) -> [String] {
        var values: [String] = []
        let all = Array(body)
        all.withUnsafeBufferPointer { bytes in
            for replacement in replacements {
                guard replacement.text == nil else {
                    values += replacement.hidden
                    continue
                }
                Self.tokens(bytes, replacement.range) { values.append(String(decoding: $0, as: UTF8.self)) }
            }
        }
        return values
    }

    /// The secret values in a URL: its password (its user name when it has none), credentials of
    /// a known shape, and the values of its secret query and fragment parameters (as written and
    /// percent-decoded). At most 1,024.
    ///
    /// ```swift
    /// SecretPolicy.default.secretValues(in: URL(string: "https://h/cb?access_token=abc123")!)   // ["abc123"]
    /// ```
    package func secretValues(in url: URL) -> [String] {
        var values: [String] = []
        func add(_ value: String) {
            guard value.utf8.count >= Self.shortestSecretValue, values.count < Self.mostSecretValues, !values.contains(value) else { return }
            values.append(value)
        }
        let absolute = url.absoluteURL
        if redactsURLs {
            let text = Array(absolute.absoluteString.utf8)
            for found in CredentialShape.find(in: text, insideWords: true) { add(String(decoding: text[found.range], as: UTF8.self)) }
            // Percent-encoded (`%67hp_…`): as written, and as the path a matcher decodes shows it.
            for found in CredentialShape.escaped(in: text) {
                add(String(decoding: text[found.range], as: UTF8.self))
                add(String(decoding: found.decoded, as: UTF8.self))
            }
            // A user name is the credential when no password follows it (`https://sk_live_…:@h`);
            // beside one, it names who signs in, and hiding it would blank every `users` a text
            // holds when it is `user`.
            let password = absolute.password(percentEncoded: true) ?? ""
            if password.isEmpty {
                absolute.user(percentEncoded: true).map(add)
                absolute.user(percentEncoded: false).map(add)
            }
            absolute.password(percentEncoded: true).map(add)
            absolute.password(percentEncoded: false).map(add)
        }
        let lists = [absolute.query(percentEncoded: true), absolute.fragment(percentEncoded: true)].compactMap { $0 }
        let besideOAuth = hasOAuthCompanion(lists.flatMap { Self.names(in: $0) })
        for list in lists {
            for item in list.split(whereSeparator: { $0 == "&" || $0 == ";" || $0 == "?" }) {
                guard let equals = item.firstIndex(of: "="), isSecret(parameter: item[..<equals], besideOAuth: besideOAuth) else { continue }
                Self.parameterValues(item[item.index(after: equals)...]).forEach(add)
            }
        }
        return values
    }

    /// The secret values of the URL written in `text`; none when it does not parse.
    package func secretValues(inURLText text: String) -> [String] {
        URL(string: text).map { secretValues(in: $0) } ?? []
    }

    /// `text` with each of `values` replaced by ``Secrets/marker``, longest first (a value that
    /// contains another is replaced whole), in each form a description writes it: as it is, as a
    /// quoted string shows it (`String(reflecting:)`: `\u{1}`, `\"`), and escaped as a printable
    /// line (`\u{1}` as `PrintableText` writes it), in any case (`ABC123` too). Where a value was
    /// cut short (the text before a `…` ends with its first four bytes or more), the part shown is
    /// replaced too.
    ///
    /// ```swift
    /// SecretPolicy.redacting(values: ["abc123"], in: #"Grant(token: "abc123")"#)   // Grant(token: "REDACTED")
    /// SecretPolicy.redacting(values: ["abc123"], in: #"Grant(token: "abc1…" (6 bytes))"#)   // Grant(token: "REDACTED…" (6 bytes))
    /// ```
    package static func redacting(values: [String], in text: String) -> String {
        guard !values.isEmpty else { return text }
        // As bytes: Swift compares strings by canonical equivalence, which would keep one
        // spelling of `é` and lose the other.
        var forms = Set<[UInt8]>()
        for value in values {
            // Cased where casing changes its length (`ß` as `SS`), or in another canonical
            // spelling (`é` as `e` and a combining accent).
            let spellings = value.utf8.contains(where: { $0 >= 0x80 })
                ? [value, value.uppercased(), value.lowercased(), value.precomposedStringWithCanonicalMapping, value.decomposedStringWithCanonicalMapping]
                : [value]
            for spelling in spellings {
                var written = [spelling, String(String(reflecting: spelling).dropFirst().dropLast()), PrintableText.value(spelling, limit: .max)]
                // Written elsewhere in a URL or a form (`p%40ss%20w0rd`, `p%40ss+w0rd`), or, for a
                // value held encoded, decoded (`ab%2Fcd` as `ab/cd`).
                if let encoded = spelling.addingPercentEncoding(withAllowedCharacters: unreservedCharacters) {
                    written += [encoded, encoded.replacingOccurrences(of: "%20", with: "+")]
                }
                if spelling.utf8.contains(UInt8(ascii: "%")), let decoded = spelling.removingPercentEncoding { written.append(decoded) }
                // As JSON writers that escape `/` write it (`ab\/cd`).
                written += written.filter { $0.utf8.contains(UInt8(ascii: "/")) }.map { $0.replacingOccurrences(of: "/", with: "\\/") }
                forms.formUnion(written.lazy.map { Array($0.utf8) })
            }
        }
        let ordered = forms.filter { $0.count >= shortestSecretValue }.sorted { $0.count > $1.count }
        // Byte by byte: a combining mark after a value (`abc1234\u{301}`) makes one character of
        // its last letter and the mark, and must not hide it. In any case: a model's error may
        // quote a value upper- or lowercased.
        var bytes = Array(text.utf8)
        var changed = false
        for value in ordered {
            guard let replaced = replacing(occurrencesInAnyCase(value, in: bytes), in: bytes) else { continue }
            bytes = Array(replaced.utf8)
            changed = true
        }
        // Written with other escapes than the ones above (`s3cr%65t`, `\u0065`), escaped again up
        // to three times in all: found where the text decodes to a value, replaced where written.
        let layers = EscapeLayers(bytes)
        var ranges: [Range<Int>] = []
        for (depth, decoded) in layers.readings.enumerated() {
            for value in ordered {
                ranges += occurrencesInAnyCase(value, in: decoded).map { layers.written($0, atDepth: depth) }
            }
        }
        if let replaced = replacing(ranges, in: bytes) {
            bytes = Array(replaced.utf8)
            changed = true
        }
        return redactingCutValues(ordered.map { String(decoding: $0, as: UTF8.self) }, in: changed ? String(decoding: bytes, as: UTF8.self) : text)
    }

    /// Where `bytes` hold `value` (ASCII letters in either case), each place after the last.
    private static func occurrencesInAnyCase(_ value: [UInt8], in bytes: [UInt8]) -> [Range<Int>] {
        guard let first = value.first.map({ ASCII.lowercased($0) }), value.count <= bytes.count else { return [] }
        var found: [Range<Int>] = []
        var index = 0
        while index + value.count <= bytes.count {
            if ASCII.lowercased(bytes[index]) == first, zip(bytes[index..<(index + value.count)], value).allSatisfy({ ASCII.lowercased($0) == ASCII.lowercased($1) }) {
                found.append(index..<(index + value.count))
                index += value.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// RFC 3986's unreserved characters: what a percent-encoded form of a value leaves as it is.
    private static let unreservedCharacters = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `text` with the start of a value shown before a cut (`…`) replaced by the marker.
    private static func redactingCutValues(_ values: [String], in text: String) -> String {
        var redacted = text
        var searchEnd = redacted.endIndex
        while let cut = redacted[..<searchEnd].range(of: "…", options: .backwards) {
            let before = redacted[..<cut.lowerBound]
            guard let shown = values.lazy.compactMap({ Self.shownStart(of: $0, endingAt: before) }).first else {
                searchEnd = cut.lowerBound
                continue
            }
            let start = redacted.distance(from: redacted.startIndex, to: shown.lowerBound)
            redacted.replaceSubrange(shown, with: Secrets.marker)
            searchEnd = redacted.index(redacted.startIndex, offsetBy: start)
        }
        return redacted
    }

    /// The range at the end of `text` that is `value`'s first four characters or more (but not all
    /// of it), or `nil`.
    private static func shownStart(of value: String, endingAt text: Substring) -> Range<String.Index>? {
        let value = Array(value.utf8)
        let tail = Array(text.utf8.suffix(value.count - 1))
        guard tail.count >= shortestSecretValue else { return nil }
        for start in tail.indices where tail.count - start >= shortestSecretValue && tail[start] == value[0] {
            if tail[start...].elementsEqual(value[..<(tail.count - start)]) {
                let length = tail.count - start
                let lower = text.utf8.index(text.utf8.endIndex, offsetBy: -length)
                return lower..<text.endIndex
            }
        }
        return nil
    }

    /// The strings and other scalars in one JSON value (a string, a number, or an object or array
    /// of them), each passed to `add`; a string with escapes is passed as written and decoded,
    /// then its ``secretParts(of:)``.
    private static func tokens(_ bytes: UnsafeBufferPointer<UInt8>, _ value: Range<Int>, into add: ([UInt8]) -> Void) {
        var index = value.lowerBound
        var scalar: [UInt8] = []
        func endScalar() {
            if !["true", "false", "null"].contains(String(decoding: scalar, as: UTF8.self)) { add(scalar) }
            scalar.removeAll()
        }
        while index < value.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\"") else {
                if Self.isStructural(byte) { endScalar() } else { scalar.append(byte) }
                index += 1
                continue
            }
            endScalar()
            index += 1
            var written: [UInt8] = []
            var decoded: [UInt8] = []
            var escaped = false
            while index < value.upperBound, bytes[index] != UInt8(ascii: "\"") {
                let start = index
                if bytes[index] == UInt8(ascii: "\\") {
                    escaped = true
                    index += 1
                    if (try? JSONEscape.decode(bytes, at: &index, end: value.upperBound, into: &decoded)) == nil {
                        index = min(start + 2, value.upperBound)
                    }
                } else {
                    decoded.append(bytes[index])
                    index += 1
                }
                written += bytes[start..<index]
            }
            index += 1
            add(written)
            if escaped { add(decoded) }
            // A credential after its scheme, a cookie's value: a part may be written alone elsewhere.
            for part in secretParts(of: decoded) { add(Array(part)) }
        }
        endScalar()
    }

    private static func isStructural(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ","), UInt8(ascii: ":"),
            UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
            true
        default:
            false
        }
    }
}
