/// JSON string escapes, decoded the way `JSONDecoder` decodes them: what ``JSONLexer`` reads a
/// string's text with, and what redaction reads a secret member's name with.
package enum JSONEscape {
    /// Appends `string` to `text` as a JSON string: in quotes, with `"`, `\` and the control
    /// characters escaped (`\n`, `\u001b`), everything else as it is.
    ///
    /// ```swift
    /// var text = ""
    /// JSONEscape.appendQuoted("a\nb", to: &text)   // "a\nb", quotes included
    /// ```
    /// - Parameters:
    ///   - string: the string.
    ///   - text: the text to add it to.
    ///   - escapingInvisible: whether scalars that show as nothing or move text (see
    ///     ``isInvisible(_:)``) are escaped too, for text a person reads in a terminal.
    package static func appendQuoted(_ string: String, to text: inout String, escapingInvisible: Bool = false) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case _ where scalar.value < 0x20 || (escapingInvisible && isInvisible(scalar)):
                appendEscaped(scalar, to: &text)
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// Whether a scalar shows as nothing or changes how the text around it shows: a control
    /// character (C0, DEL, C1), a format character (bidirectional controls, zero-width spaces,
    /// the byte order mark) or a line or paragraph separator.
    package static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    /// `\uXXXX` for a scalar in the Basic Multilingual Plane, a surrogate pair beyond it.
    private static func appendEscaped(_ scalar: Unicode.Scalar, to text: inout String) {
        for unit in String(scalar).utf16 {
            let hex = String(unit, radix: 16)
            text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// An escape JSON does not allow, and why.
    package struct Invalid: Error {
        package var reason: String
    }

    /// The content of a JSON string (between its quotes, `range` of `bytes`) with its escapes
    /// decoded; `nil` when an escape is invalid. With `replacingLoneSurrogates`, an escaped
    /// surrogate without its pair (`\ud800`) is read as U+FFFD, as a reader of what the text says
    /// (redaction) reads it.
    ///
    /// ```swift
    /// JSONEscape.decodedContent(bytes, in: start..<end)   // #"a\u00e9"# gives the UTF-8 of "aé"
    /// ```
    package static func decodedContent(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>, replacingLoneSurrogates: Bool = false) -> [UInt8]? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        var position = range.lowerBound
        while position < range.upperBound {
            let byte = bytes[position]
            position += 1
            guard byte == UInt8(ascii: "\\") else {
                decoded.append(byte)
                continue
            }
            guard (try? decode(bytes, at: &position, end: range.upperBound, into: &decoded, replacingLoneSurrogates: replacingLoneSurrogates)) != nil else { return nil }
        }
        return decoded
    }

    /// Decodes the escape after a backslash: `bytes[index]` is the character after `\`. Appends its
    /// UTF-8 to `output` and moves `index` past it. A `\u` high surrogate must be followed by a
    /// `\u` low one (they are joined); a lone surrogate is invalid.
    package static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, end: Int, into output: inout [UInt8], replacingLoneSurrogates: Bool = false
    ) throws(Invalid) {
        guard index < end else { throw Invalid(reason: "a backslash ends the string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(escape)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var value = UInt32(try hex4(bytes, at: &index, end: end))
            if (0xD800...0xDBFF).contains(value) {
                let pairStart = index
                do throws(Invalid) {
                    guard index + 2 <= end, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw Invalid(reason: "a high surrogate must be followed by a low one")
                    }
                    index += 2
                    let low = UInt32(try hex4(bytes, at: &index, end: end))
                    guard (0xDC00...0xDFFF).contains(low) else { throw Invalid(reason: "a high surrogate must be followed by a low one") }
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                } catch {
                    guard replacingLoneSurrogates else { throw error }
                    // What follows is read on its own.
                    index = pairStart
                    value = 0xFFFD
                }
            } else if (0xDC00...0xDFFF).contains(value) {
                guard replacingLoneSurrogates else { throw Invalid(reason: "a low surrogate without a high one") }
                value = 0xFFFD
            }
            guard let scalar = Unicode.Scalar(value) else { throw Invalid(reason: "\\u escape is not a Unicode scalar") }
            output.append(contentsOf: String(Character(scalar)).utf8)
        default:
            throw Invalid(reason: "invalid escape \\\(Character(Unicode.Scalar(escape)))")
        }
    }

    private static func hex4(_ bytes: UnsafeBufferPointer<UInt8>, at index: inout Int, end: Int) throws(Invalid) -> UInt16 {
        guard index + 4 <= end else { throw Invalid(reason: "\\u needs four hex digits") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Invalid(reason: "\\u needs four hex digits")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}
