import Foundation

/// Secret members written inside text that is not JSON: JSONP (`cb({"access_token":"..."})`),
/// JavaScript, single-quoted pseudo-JSON, a JSON document after a prefix (`)]}'` or garbage).
extension SecretPolicy {
    /// `text` with the value of every `"name": value` or `'name': value` pair whose name is a
    /// secret body field replaced by ``Secrets/marker`` (quotes kept); `text` itself when it
    /// has none.
    ///
    /// ```swift
    /// SecretPolicy.default.redacting(embeddedMembers: #"cb({"access_token":"abc"})"#)   // cb({"access_token":"REDACTED"})
    /// ```
    package func redacting(embeddedMembers text: String, singleQuotedOnly: Bool = false) -> String {
        let bytes = Array(text.utf8)
        if singleQuotedOnly, !bytes.contains(UInt8(ascii: "'")) { return text }
        let ranges = embeddedMemberValueRanges(in: bytes, singleQuotedOnly: singleQuotedOnly)
        guard !ranges.isEmpty else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var position = 0
        for range in ranges {
            output += bytes[position..<range.lowerBound]
            output += Secrets.marker.utf8
            position = range.upperBound
        }
        output += bytes[position...]
        return String(decoding: output, as: UTF8.self)
    }

    /// Where the values of secret quoted members lie in `bytes`: inside the value's quotes, or
    /// the whole of an unquoted value (up to `,`, `;`, `&`, `)`, `}`, `]` or white space).
    /// `singleQuotedOnly` looks only at `'name':` (in a body read as JSON, whose double-quoted
    /// members the JSON scan found).
    package func embeddedMemberValueRanges(in bytes: [UInt8], singleQuotedOnly: Bool = false) -> [Range<Int>] {
        guard !bodyFields.isEmpty else { return [] }
        var found: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            let quote = bytes[index]
            guard quote == UInt8(ascii: "'") || (quote == UInt8(ascii: "\"") && !singleQuotedOnly) else {
                index += 1
                continue
            }
            // A name closes within 256 bytes; a quote that does not (an apostrophe in text, a
            // `)]}'` guard) is stepped over, and so is a name not followed by `:`: what it seemed
            // to enclose is read again.
            let opening = index
            index += 1
            guard let nameEnd = Self.closingQuote(in: bytes, from: opening + 1, quote: quote, within: 257) else { continue }
            let name = bytes[(opening + 1)..<nameEnd]
            var cursor = Self.skippingSpaces(bytes, from: nameEnd + 1)
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":"), isSecret(bodyField: String(decoding: name, as: UTF8.self)) else { continue }
            cursor = Self.skippingSpaces(bytes, from: cursor + 1)
            guard cursor < bytes.count else { break }
            let valueQuote = bytes[cursor]
            if valueQuote == UInt8(ascii: "\"") || valueQuote == UInt8(ascii: "'") {
                let end = Self.closingQuote(in: bytes, from: cursor + 1, quote: valueQuote, within: .max) ?? bytes.count
                if end > cursor + 1 { found.append((cursor + 1)..<end) }
                index = min(end + 1, bytes.count)
            } else {
                var end = cursor
                while end < bytes.count, !Self.endsBareValue(bytes[end]) { end += 1 }
                let literal = bytes[cursor..<end]
                let kept = literal.elementsEqual("null".utf8) || literal.elementsEqual("true".utf8) || literal.elementsEqual("false".utf8)
                if end > cursor, !kept { found.append(cursor..<end) }
                index = end
            }
        }
        return found
    }

    /// The index of the quote that closes a string begun before `start` (backslash escapes
    /// stepped over), looking at most `limit` bytes ahead; `nil` when there is none.
    private static func closingQuote(in bytes: [UInt8], from start: Int, quote: UInt8, within limit: Int) -> Int? {
        var index = start
        let end = limit >= bytes.count - start ? bytes.count : start + limit
        while index < end {
            if bytes[index] == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            if bytes[index] == quote { return index }
            index += 1
        }
        return nil
    }

    private static func skippingSpaces(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A || bytes[index] == 0x0D { index += 1 }
        return index
    }

    private static func endsBareValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "&"), UInt8(ascii: ")"), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: true
        default: false
        }
    }
}
