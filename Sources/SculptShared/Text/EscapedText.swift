/// Text read as a reader decodes its escapes, with where each decoded byte was written: what finds
/// a secret written with escapes (`%67hp_…` in a URL, `ghp_\u0041…` in JSON text,
/// `access_token%3Dx` in a path, `BEGIN+RSA+PRIVATE+KEY` in a form, `&#103;hp_…` in XML) and
/// replaces it where it is written.
///
/// ```swift
/// let view = EscapedText(Array("a%3Db".utf8))
/// view?.decoded                    // "a=b"
/// view?.written(0..<3)             // 0..<5
/// ```
package struct EscapedText {
    /// The text with percent-escapes, JSON's `\uXXXX` escapes of ASCII and `\/`, and XML's and
    /// HTML's numeric character references of ASCII (`&#103;`, `&#x67;`) decoded, and `+` read as
    /// a space, as a form writes one.
    package let decoded: [UInt8]
    /// Where each decoded byte was written.
    private let origin: [Int]
    /// The text as written.
    private let written: [UInt8]

    /// The decoded reading of `bytes`; `nil`, at the cost of one scan, when they hold no escape.
    /// Linear in the length of `bytes`.
    package init?(_ bytes: [UInt8]) {
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "&") }) else {
            return nil
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var origin: [Int] = []
        origin.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let (byte, width) = Self.decodedByte(in: bytes, at: index)
            decoded.append(byte)
            origin.append(index)
            index += width
        }
        guard decoded != bytes else { return nil }
        self.decoded = decoded
        self.origin = origin
        self.written = bytes
    }

    /// Where the decoded bytes `range` were written.
    package func written(_ range: Range<Int>) -> Range<Int> {
        origin[range.lowerBound]..<(range.upperBound < origin.count ? origin[range.upperBound] : written.count)
    }

    /// Whether the decoded bytes `range` were written otherwise: with an escape, or a `+`.
    package func isEscaped(_ range: Range<Int>) -> Bool {
        !written[self.written(range)].elementsEqual(decoded[range])
    }

    /// The byte an escape at `index` stands for and the escape's width; the byte itself, 1 wide,
    /// where no escape starts.
    private static func decodedByte(in bytes: [UInt8], at index: Int) -> (UInt8, Int) {
        let byte = bytes[index]
        if byte == UInt8(ascii: "+") { return (UInt8(ascii: " "), 1) }
        if byte == UInt8(ascii: "&"), let reference = characterReference(in: bytes, at: index) { return reference }
        if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = PercentEncoding.hexValue(bytes[index + 1]), let low = PercentEncoding.hexValue(bytes[index + 2]) {
            return (high << 4 | low, 3)
        }
        guard byte == UInt8(ascii: "\\"), index + 1 < bytes.count else { return (byte, 1) }
        if bytes[index + 1] == UInt8(ascii: "/") { return (UInt8(ascii: "/"), 2) }
        guard bytes[index + 1] == UInt8(ascii: "u"), index + 5 < bytes.count,
            let a = PercentEncoding.hexValue(bytes[index + 2]), let b = PercentEncoding.hexValue(bytes[index + 3]), let c = PercentEncoding.hexValue(bytes[index + 4]), let d = PercentEncoding.hexValue(bytes[index + 5]),
            a == 0, b == 0, c < 8
        else { return (byte, 1) }
        return (c << 4 | d, 6)
    }

    /// A numeric character reference of an ASCII character at `index` (`&#103;`, `&#x67;`): the
    /// character and the reference's width.
    private static func characterReference(in bytes: [UInt8], at index: Int) -> (UInt8, Int)? {
        guard index + 3 < bytes.count, bytes[index + 1] == UInt8(ascii: "#") else { return nil }
        let isHex = bytes[index + 2] | 0x20 == UInt8(ascii: "x")
        var cursor = index + (isHex ? 3 : 2)
        var value = 0
        // Leading zeros aside, an ASCII character's reference has at most three digits.
        while cursor < bytes.count, cursor - index < 12, let digit = isHex ? PercentEncoding.hexValue(bytes[cursor]) : bytes[cursor] &- UInt8(ascii: "0") < 10 ? bytes[cursor] &- UInt8(ascii: "0") : nil {
            value = value * (isHex ? 16 : 10) + Int(digit)
            guard value < 0x80 else { return nil }
            cursor += 1
        }
        guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ";"), cursor > index + (isHex ? 3 : 2) else { return nil }
        return (UInt8(value), cursor + 1 - index)
    }
}
