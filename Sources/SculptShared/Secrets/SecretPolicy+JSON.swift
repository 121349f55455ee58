import Foundation

/// JSON members named as secrets, found in one pass over the bytes and replaced in place: the rest
/// of a body keeps every byte (white space, member order, number spelling).
extension SecretPolicy {
    /// `body` with the value of every secret member replaced by `"REDACTED"`; `body` itself when
    /// it has none or is not JSON text (it does not start, after white space, with `{` or `[`).
    ///
    /// ```swift
    /// SecretPolicy.default.redacting(json: Data(#"{"access_token": "abc", "expires_in": 3600}"#.utf8))
    /// // {"access_token": "REDACTED", "expires_in": 3600}
    /// ```
    package func redacting(json body: Data) -> Data {
        let replacements = secretReplacements(in: body, scanning: body.count)
        guard !replacements.isEmpty else { return body }
        return Data(Self.splice(body, replacements, upTo: body.count))
    }

    /// The start of `body` as text for a description, at most `bytes` bytes of it (cut on a scalar
    /// boundary), with secret members' values replaced, and how many bytes were left out. Reads at
    /// most `bytes` plus 64 KB: a secret value that runs past that is redacted to the cut.
    ///
    /// ```swift
    /// let (text, more) = SecretPolicy.default.excerpt(of: body, bytes: 512)
    /// ```
    package func excerpt(of body: Data, bytes: Int) -> (text: String, remaining: Int) {
        let (plain, remaining) = ClippedText.prefix(ofBytes: body, bytes: bytes)
        let shown = body.count - remaining
        // A replacement cut by the excerpt's end becomes the marker: a URL cut there shows nothing
        // of its query.
        let replacements = secretReplacements(in: body, scanning: min(body.count, bytes + (64 << 10)))
            .compactMap { found in
                found.range.lowerBound < shown
                    ? SecretReplacement(range: found.range.lowerBound..<min(found.range.upperBound, shown), text: found.range.upperBound <= shown ? found.text : nil)
                    : nil
            }
        guard !replacements.isEmpty else { return (plain, remaining) }
        return (String(decoding: Self.splice(body, replacements, upTo: shown), as: UTF8.self), remaining)
    }

    /// What replaces the secrets in the first `limit` bytes of `body`, in order: the values of
    /// secret members (a value that runs past `limit` ends there), and string values holding a
    /// URL with secrets (`"next": "https://graph.example/me?access_token=..."`), rewritten with
    /// them redacted.
    package func secretReplacements(in body: Data, scanning limit: Int, depth: Int = 0) -> [SecretReplacement] {
        guard !bodyFields.isEmpty else { return [] }
        return body.withUnsafeBytes { raw in
            let bytes = UnsafeBufferPointer(start: raw.bindMemory(to: UInt8.self).baseAddress, count: min(limit, raw.count))
            var scanner = SecretMemberScanner(bytes: bytes, policy: self, depth: depth)
            return scanner.replacements()
        }
    }

    /// `body`'s first `end` bytes with each replacement made.
    package static func splice(_ body: Data, _ replacements: [SecretReplacement], upTo end: Int) -> [UInt8] {
        let marker = Array("\"\(Secrets.marker)\"".utf8)
        return body.withUnsafeBytes { raw in
            var output: [UInt8] = []
            output.reserveCapacity(end)
            var position = 0
            for replacement in replacements {
                output += raw[position..<replacement.range.lowerBound]
                output += replacement.text ?? marker
                position = replacement.range.upperBound
            }
            output += raw[position..<end]
            return output
        }
    }
}

/// Where a secret lies in a JSON body and what stands in for it.
package struct SecretReplacement {
    /// The bytes replaced: a whole value, quotes included.
    package var range: Range<Int>
    /// The JSON text put there; `nil` for `"REDACTED"`.
    package var text: [UInt8]?
    /// For a string rewritten with the secrets inside it redacted (a URL, a JSON document): the
    /// secret values it held, which a description also hides.
    package var hidden: [String] = []
}

extension SecretPolicy {
    /// The deepest a JSON document written inside a string (inside a string...) is looked into.
    package static let deepestEmbeddedDocument = 4

    /// A JSON string's content (escapes decoded) with the secrets in it redacted, as a JSON string
    /// again, and the secret values it held; `nil` when it holds none. Read as a URL (or a
    /// reference, `/next?token=x`) when it has `://`, `?` or `#`; as a JSON document when it starts
    /// with `{` or `[` (the body of a webhook carried as a string), which is looked into as a body
    /// is, up to ``deepestEmbeddedDocument`` strings deep.
    fileprivate func redacting(inString content: UnsafeBufferPointer<UInt8>.SubSequence, depth: Int) -> (json: [UInt8], hidden: [String])? {
        guard content.count <= 64 << 10 else { return nil }
        let mayBeURL = Self.containsScheme(content) || content.contains(UInt8(ascii: "?")) || content.contains(UInt8(ascii: "#"))
        let mayBeDocument = depth < Self.deepestEmbeddedDocument
            && [UInt8(ascii: "{"), UInt8(ascii: "[")].contains(content.first { !JSONBytes.isWhitespace($0) })
        // A form or a parameter written in prose (`a=1&token=…`, `x token=… y`), or a
        // credential after its scheme (`Bearer …`); escapes may write either.
        let mayHoldParameters = content.contains(UInt8(ascii: "=")) || content.contains(UInt8(ascii: "\\")) || Self.namesAScheme(content)
        guard mayBeURL || mayBeDocument || mayHoldParameters,
            let decoded = JSONEscape.decodedContent(content.base, in: content.startIndex..<content.endIndex, replacingLoneSurrogates: true)
        else { return nil }
        let text = String(decoding: decoded, as: UTF8.self)
        if mayBeDocument {
            let document = Data(decoded)
            let replacements = secretReplacements(in: document, scanning: document.count, depth: depth + 1)
            guard !replacements.isEmpty else { return nil }
            let redacted = String(decoding: Self.splice(document, replacements, upTo: document.count), as: UTF8.self)
            return (Self.jsonString(redacted, rewriting: content, decoded: decoded), secretValues(of: replacements, in: document))
        }
        let url = mayBeURL ? redacting(urlText: text) : text
        var hidden = url == text ? [] : secretValues(inURLText: text)
        let redacted = redactingParameters(in: url, hiding: &hidden)
        guard redacted != text else { return nil }
        return (Self.jsonString(redacted, rewriting: content, decoded: decoded), hidden)
    }

    /// `text` with the values of the secret parameters written in it, and the credentials after
    /// a scheme, replaced by ``Secrets/marker`` (``embeddedParameterValueRanges(in:escapes:)``),
    /// each value replaced added to `hidden`.
    private func redactingParameters(in text: String, hiding hidden: inout [String]) -> String {
        let bytes = Array(text.utf8)
        // Parameters written in a string are named as a form's are: by body fields' names too.
        let ranges = formPolicy.embeddedParameterValueRanges(in: bytes).filter { !bytes[$0].elementsEqual(Secrets.marker.utf8) }
        guard !ranges.isEmpty else { return text }
        var output: [UInt8] = []
        var rest = 0
        for range in ranges {
            output += bytes[rest..<range.lowerBound]
            output += Secrets.marker.utf8
            hidden += Self.parameterValues(String(decoding: bytes[range], as: UTF8.self))
            rest = range.upperBound
        }
        output += bytes[rest...]
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `bytes` hold `Bearer` or `Basic`, in any case.
    private static func namesAScheme(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
        var index = bytes.startIndex
        while let b = bytes[index...].firstIndex(where: { $0 | 0x20 == UInt8(ascii: "b") }) {
            for word in ["bearer", "basic"] where bytes[b...].count >= word.utf8.count
                && zip(bytes[b...], word.utf8).allSatisfy({ $0 | 0x20 == $1 }) {
                return true
            }
            index = b + 1
        }
        return false
    }

    /// `text` as a JSON string literal, quotes included.
    private static func jsonString(_ text: String) -> [UInt8] {
        [UInt8(ascii: "\"")] + escaped(text.utf8) + [UInt8(ascii: "\"")]
    }

    /// `redacted`, the `decoded` content of the JSON string `written` with secrets in it replaced,
    /// as a JSON string: what lies before the first change and after the last written as it was
    /// (`\u0026` stays `\u0026`), so that a redaction changes no other byte of the string.
    private static func jsonString(_ redacted: String, rewriting written: UnsafeBufferPointer<UInt8>.SubSequence, decoded: [UInt8]) -> [UInt8] {
        let new = Array(redacted.utf8)
        // Where each written character or escape starts, in the decoded text and as written.
        var starts: [(decoded: Int, written: Int)] = []
        var position = written.startIndex
        var length = 0
        while position < written.endIndex {
            starts.append((length, position))
            if written[position] == UInt8(ascii: "\\") {
                position += 1
                var character: [UInt8] = []
                guard (try? JSONEscape.decode(written.base, at: &position, end: written.endIndex, into: &character, replacingLoneSurrogates: true)) != nil else { return jsonString(redacted) }
                length += character.count
            } else {
                position += 1
                length += 1
            }
        }
        starts.append((length, written.endIndex))
        // The unchanged text before the first change and after the last, cut where a character starts.
        let shift = decoded.count - new.count
        let prefix = zip(decoded, new).prefix { $0 == $1 }.count
        let suffix = min(zip(decoded.reversed(), new.reversed()).prefix { $0 == $1 }.count, min(decoded.count, new.count) - prefix)
        let isStart = { (offset: Int) in
            (offset >= decoded.count || decoded[offset] & 0xC0 != 0x80) && (offset - shift >= new.count || offset - shift < 0 || new[offset - shift] & 0xC0 != 0x80)
        }
        guard let first = starts.last(where: { $0.decoded <= prefix && isStart($0.decoded) }),
            let last = starts.first(where: { $0.decoded >= decoded.count - suffix && isStart($0.decoded) }),
            first.decoded <= last.decoded - shift
        else { return jsonString(redacted) }
        let json = [UInt8(ascii: "\"")] + written[written.startIndex..<first.written] + escaped(new[first.decoded..<(last.decoded - shift)])
            + written[last.written..<written.endIndex] + [UInt8(ascii: "\"")]
        // It must read as the redacted text, or it is written anew.
        let reads = json.withUnsafeBufferPointer { JSONEscape.decodedContent($0, in: 1..<($0.count - 1), replacingLoneSurrogates: true) }
        return reads == new ? json : jsonString(redacted)
    }

    /// UTF-8 text escaped as a JSON string's content: `"`, `\` and control characters.
    private static func escaped(_ utf8: some Sequence<UInt8>) -> [UInt8] {
        var json: [UInt8] = []
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): json += Array(#"\""#.utf8)
            case UInt8(ascii: "\\"): json += Array(#"\\"#.utf8)
            case 0..<0x20: json += Array(String(format: "\\u%04X", byte).utf8)
            default: json.append(byte)
            }
        }
        return json
    }

    /// Whether `bytes` hold `://` (escaped slashes, `:\/\/`, too).
    private static func containsScheme(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) -> Bool {
        var index = bytes.startIndex
        while index < bytes.endIndex, let colon = bytes[index...].firstIndex(of: UInt8(ascii: ":")) {
            let rest = bytes[(colon + 1)...]
            if rest.starts(with: "//".utf8) || rest.starts(with: #"\/\/"#.utf8) { return true }
            index = colon + 1
        }
        return false
    }
}

/// Walks JSON text once, without recursion, and notes where each secret member's value lies.
/// Lenient: a truncated document (an excerpt) or stray bytes end the walk or are stepped over,
/// never trapped on.
private struct SecretMemberScanner {
    package let bytes: UnsafeBufferPointer<UInt8>
    package let policy: SecretPolicy
    /// How many strings deep this document was written (0 for a body).
    package let depth: Int
    package var index = 0

    package init(bytes: UnsafeBufferPointer<UInt8>, policy: SecretPolicy, depth: Int) {
        self.bytes = bytes
        self.policy = policy
        self.depth = depth
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// Longer keys are no one's secret name and are not decoded.
    package static let longestName = 256

    package mutating func replacements() -> [SecretReplacement] {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") else { return [] }
        var found: [SecretReplacement] = []
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                index += 1
                continue
            }
            let stringStart = index
            let keyStart = index + 1
            skipString()
            let closed = index <= bytes.count && bytes[index - 1] == UInt8(ascii: "\"") && index - 1 > stringStart
            let keyEnd = closed ? index - 1 : index
            let stringEnd = index
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                // A string value: a URL or a JSON document in it may carry secrets.
                if closed, let rewritten = policy.redacting(inString: bytes[keyStart..<keyEnd], depth: depth) {
                    found.append(SecretReplacement(range: stringStart..<stringEnd, text: rewritten.json, hidden: rewritten.hidden))
                }
                continue
            }
            guard keyEnd >= keyStart, isSecret(keyStart..<keyEnd) else { continue }
            index += 1
            skipWhitespace()
            let valueStart = index
            guard valueStart < bytes.count else { break }
            let kept = skipValue()
            if !kept { found.append(SecretReplacement(range: valueStart..<index)) }
        }
        return found
    }

    private func isSecret(_ key: Range<Int>) -> Bool {
        guard key.count <= Self.longestName else { return false }
        guard let name = JSONEscape.decodedContent(bytes, in: key) else { return false }
        return policy.isSecret(bodyField: String(decoding: name, as: UTF8.self))
    }

    /// Moves past the string whose opening quote is at `index` (to the end, when it is not closed).
    private mutating func skipString() {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""):
                index += 1
                return
            default: index += 1
            }
        }
        index = bytes.count
    }

    /// Moves past the value at `index`; `true` when it is `null`, `true`, `false` or nothing (kept: no
    /// secret hides in them).
    private mutating func skipValue() -> Bool {
        let first = bytes[index]
        switch first {
        case UInt8(ascii: "\""):
            skipString()
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    skipString()
                    if depth == 0 { return false }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                default: break
                }
                index += 1
                if depth == 0 { return false }
            }
        default:
            let start = index
            while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
            let literal = bytes[start..<index]
            return literal.isEmpty || literal.elementsEqual("null".utf8) || literal.elementsEqual("true".utf8) || literal.elementsEqual("false".utf8)
        }
        return false
    }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || JSONBytes.isWhitespace(byte)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, JSONBytes.isWhitespace(bytes[index]) { index += 1 }
    }
}
