/// Percent-encoding (RFC 3986, section 2.1) on bytes, without Foundation: encoding, decoding, and
/// the normal form that makes equal encodings one.
package enum PercentEncoding {
    /// The value of a hexadecimal digit, either case.
    ///
    /// ```swift
    /// PercentEncoding.hexValue(UInt8(ascii: "c"))   // 12
    /// ```
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// `bytes` with every `%` and two hex digits replaced by the byte they encode; a `%` without
    /// them is kept as it is.
    ///
    /// ```swift
    /// PercentEncoding.decoded(Array("a%20b".utf8))   // "a b"
    /// ```
    package static func decoded(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: transformed(Array(bytes)) { byte in [byte] }, as: UTF8.self)
    }

    /// `text` with every byte but the unreserved characters (ASCII letters, digits, `-._~`)
    /// encoded: what a path segment or a query name or value holds, so that it decodes to itself
    /// whatever it holds and no byte of it is taken for a delimiter.
    ///
    /// ```swift
    /// PercentEncoding.encoded("a b/c+d")   // "a%20b%2Fc%2Bd"
    /// ```
    package static func encoded(_ text: String) -> String {
        encoding(text.utf8) ?? text
    }

    /// The same, for a part of a string.
    package static func encoded(_ text: Substring) -> String {
        encoding(text.utf8) ?? String(text)
    }

    /// The bytes of `utf8`, encoded; `nil` when none needs encoding (the common case: the text
    /// is kept as it is, with no copy).
    private static func encoding(_ utf8: some Collection<UInt8>) -> String? {
        guard utf8.contains(where: { !isUnreserved($0) }) else { return nil }
        return String(unsafeUninitializedCapacity: utf8.count * 3) { output in
            var count = 0
            for byte in utf8 {
                if isUnreserved(byte) {
                    output[count] = byte
                    count += 1
                } else {
                    output[count] = UInt8(ascii: "%")
                    output[count + 1] = hexDigit(byte >> 4)
                    output[count + 2] = hexDigit(byte & 0x0F)
                    count += 3
                }
            }
            return count
        }
    }

    /// `text` with encodings equal by RFC 3986 (section 6.2.2) made one: hex digits in capitals
    /// (`%7c` becomes `%7C`) and unreserved characters decoded (`%41` becomes `A`, `%7E` `~`);
    /// anything else, `%2F` included, stays encoded.
    ///
    /// ```swift
    /// PercentEncoding.normalized("/a%7cb/%41")   // "/a%7Cb/A"
    /// ```
    package static func normalized(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let output = transformed(Array(text.utf8)) { byte in
            isUnreserved(byte) ? [byte] : [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0x0F)]
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `bytes` with each valid encoding replaced by what `replacement` gives for its byte.
    private static func transformed(_ bytes: [UInt8], _ replacement: (UInt8) -> [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            else {
                output.append(bytes[index])
                index += 1
                continue
            }
            output += replacement(high << 4 | low)
            index += 3
        }
        return output
    }

    /// The capital hexadecimal digit of `value` (0 to 15).
    package static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
