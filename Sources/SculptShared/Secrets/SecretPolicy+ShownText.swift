/// Free text, as ``ShownText`` shows it: secrets recognised by their names and shapes wherever they are
/// written, since a line may quote a URL, a header, a form or a JSON excerpt.
extension SecretPolicy {
    /// `text` with every credential of a known shape (``CredentialShape``) replaced by
    /// ``Secrets/marker``: as written, even inside a longer word; written with escapes (`%67hp_…`,
    /// `ghp_\u0041…`, and escaped again: `%2567hp_…`); or cut short where a text was cut (a known
    /// prefix and four or more of its characters before a `…`). `text` itself when it holds none.
    ///
    /// ```swift
    /// SecretPolicy.redactingCredentials(inShownText: "GET /users/%67hp_…")   // GET /users/REDACTED
    /// ```
    package static func redactingCredentials(inShownText text: String) -> String {
        let bytes = Array(text.utf8)
        var ranges = CredentialShape.find(in: bytes, insideWords: true).map(\.range)
            + CredentialShape.escaped(in: bytes).map(\.range) + cutCredentialRanges(in: bytes)
        // Cut short and written with escapes: `%67hp_u8jz…`; and escaped again, up to three times
        // in all (`%2567hp_…`, a path encoded twice).
        let layers = EscapeLayers(bytes)
        for (depth, decoded) in layers.readings.enumerated() {
            let found = cutCredentialRanges(in: decoded) + (depth > 0 ? CredentialShape.find(in: decoded, insideWords: true).map(\.range) : [])
            ranges += found.map { layers.written($0, atDepth: depth) }
        }
        return replacing(ranges, in: bytes) ?? text
    }

    /// `text` with every secret this policy finds by its name in free text replaced by
    /// ``Secrets/marker``: a URL's user name and password, the value of a quoted secret member
    /// (`"token": "…"`), the value after a secret name and `=` (up to the next delimiter: a value
    /// in prose ends at a space), and the credential after `Bearer` or `Basic`; each also where it
    /// is written with escapes, up to three times (`access_token%3Dx`, `Bearer%2520x`). `text`
    /// itself when it holds none.
    ///
    /// ```swift
    /// SecretPolicy.default.redactingNames(inShownText: "retry with token=abc123 or Bearer abcdefgh12")   // retry with token=REDACTED or Bearer REDACTED
    /// ```
    package func redactingNames(inShownText text: String) -> String {
        let named = redacting(embeddedMembers: redactingUserInfo(in: text))
        let bytes = Array(named.utf8)
        var ranges = embeddedParameterValueRanges(in: bytes)
        // Written with escapes, and escaped again, up to three times in all (`Bearer%2520…`).
        let layers = EscapeLayers(bytes)
        for (depth, decoded) in layers.readings.enumerated() {
            ranges += embeddedParameterValueRanges(in: decoded).map { layers.written($0, atDepth: depth) }
        }
        return Self.replacing(ranges, in: bytes) ?? named
    }

    /// `bytes` with each of `ranges` replaced by ``Secrets/marker`` (ranges that overlap by one);
    /// `nil` when there are none.
    static func replacing(_ ranges: [Range<Int>], in bytes: [UInt8]) -> String? {
        guard !ranges.isEmpty else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.upperBound > position {
            // A range that overlaps the one before widens it: one marker for both.
            if range.lowerBound >= position {
                output += bytes[position..<range.lowerBound]
                output += Secrets.marker.utf8
            }
            position = range.upperBound
        }
        output += bytes[position...]
        return String(decoding: output, as: UTF8.self)
    }

    /// The credentials a cut left short: a known prefix (``CredentialShape/known``'s, or a JWT's
    /// `eyJ`) with four or more of a token's characters after it, ending at a `…`. A prefix alone
    /// (`ghp_…`, as `sculpt check` shows a finding) is not one.
    private static func cutCredentialRanges(in bytes: [UInt8]) -> [Range<Int>] {
        let ellipsis: [UInt8] = [0xE2, 0x80, 0xA6]
        var ranges: [Range<Int>] = []
        var index = 0
        while index + ellipsis.count <= bytes.count {
            guard bytes[index] == ellipsis[0], bytes[index..<(index + ellipsis.count)].elementsEqual(ellipsis) else {
                index += 1
                continue
            }
            // The run of a token's characters before the cut, at most as long as the longest
            // credential; an escape cut short (`Ig%7…`) is part of it.
            var start = index
            while start > max(0, index - 320), CredentialShape.isTokenByte(bytes[start - 1]) || bytes[start - 1] == UInt8(ascii: ".") || bytes[start - 1] == UInt8(ascii: "%") {
                start -= 1
            }
            let cut = (start..<index).first { position in
                cutPrefixes.contains { prefix in
                    index - position - prefix.count >= 4 && bytes[position...].starts(with: prefix)
                }
            }
            if let cut { ranges.append(cut..<index) }
            index += ellipsis.count
        }
        return ranges
    }

    /// What every credential of a known shape starts with.
    private static let cutPrefixes = CredentialShape.known.map { Array($0.prefix.utf8) } + [Array("eyJ".utf8)]
}
