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
        let ranges = secretValueRanges(in: body, scanning: body.count)
        guard !ranges.isEmpty else { return body }
        return Data(Self.splice(body, ranges, upTo: body.count))
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
        let ranges = secretValueRanges(in: body, scanning: min(body.count, bytes + (64 << 10)))
            .compactMap { range in range.lowerBound < shown ? range.lowerBound..<min(range.upperBound, shown) : nil }
        guard !ranges.isEmpty else { return (plain, remaining) }
        return (String(decoding: Self.splice(body, ranges, upTo: shown), as: UTF8.self), remaining)
    }

    /// The byte offsets (from the body's start) of the values of secret members in the first
    /// `limit` bytes of `body`; a value that runs past `limit` ends there.
    func secretValueRanges(in body: Data, scanning limit: Int) -> [Range<Int>] {
        guard !bodyFields.isEmpty else { return [] }
        return body.withUnsafeBytes { raw in
            let bytes = UnsafeBufferPointer(start: raw.bindMemory(to: UInt8.self).baseAddress, count: min(limit, raw.count))
            var scanner = SecretMemberScanner(bytes: bytes, policy: self)
            return scanner.ranges()
        }
    }

    /// `body`'s first `end` bytes with each range replaced by `"REDACTED"`.
    private static func splice(_ body: Data, _ ranges: [Range<Int>], upTo end: Int) -> [UInt8] {
        let marker = Array("\"\(Secrets.marker)\"".utf8)
        return body.withUnsafeBytes { raw in
            var output: [UInt8] = []
            output.reserveCapacity(end)
            var position = 0
            for range in ranges {
                output += raw[position..<range.lowerBound]
                output += marker
                position = range.upperBound
            }
            output += raw[position..<end]
            return output
        }
    }
}

/// Walks JSON text once, without recursion, and notes where each secret member's value lies.
/// Lenient: a truncated document (an excerpt) or stray bytes end the walk or are stepped over,
/// never trapped on.
private struct SecretMemberScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let policy: SecretPolicy
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>, policy: SecretPolicy) {
        self.bytes = bytes
        self.policy = policy
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    /// Longer keys are no one's secret name and are not decoded.
    static let longestName = 256

    mutating func ranges() -> [Range<Int>] {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") else { return [] }
        var found: [Range<Int>] = []
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\"") else {
                index += 1
                continue
            }
            let keyStart = index + 1
            skipString()
            let keyEnd = index - 1
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":"), keyEnd >= keyStart, isSecret(keyStart..<keyEnd) else { continue }
            index += 1
            skipWhitespace()
            let valueStart = index
            guard valueStart < bytes.count else { break }
            let kept = skipValue()
            if !kept { found.append(valueStart..<index) }
        }
        return found
    }

    private func isSecret(_ key: Range<Int>) -> Bool {
        guard key.count <= Self.longestName else { return false }
        var name = Array(bytes[key])
        if name.contains(UInt8(ascii: "\\")) {
            var decoded: [UInt8] = []
            var position = key.lowerBound
            while position < key.upperBound {
                let byte = bytes[position]
                position += 1
                guard byte == UInt8(ascii: "\\") else {
                    decoded.append(byte)
                    continue
                }
                do {
                    try JSONEscape.decode(bytes, at: &position, end: key.upperBound, into: &decoded)
                } catch {
                    return false
                }
            }
            name = decoded
        }
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
