import Sculpt
import SculptShared
/// The first fault in a string's or number's text, named and placed as `JSONDecoder` names and
/// places it: the same order of checks, so that the same text gives the same ``JSONError``.
/// `locate` gives a byte's line and column.
///
/// Called only once a fast read has failed: the read itself never pays for the diagnosis.
enum JSONFaultDiagnosis {
    /// The first fault in the string whose content (between its quotes) is `range` of `text`:
    /// checked from its start, a run of text up to an escape as UTF-8, then the escape; a control
    /// character where it stands. `nil` when it has none.
    static func stringFault(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, locate: (Int) -> JSONError.SourceLocation) -> JSONError? {
        var index = range.lowerBound
        var runStart = index
        while index < range.upperBound {
            let byte = text[index]
            if byte == UInt8(ascii: "\\") {
                if !isUTF8(text, runStart..<index) { return .cannotConvertInputStringDataToUTF8(location: locate(runStart)) }
                switch escape(in: text, at: index, end: range.upperBound, locate: locate) {
                case .endsBefore(let next):
                    index = next
                    runStart = next
                case .fault(let fault):
                    return fault
                }
            } else if byte & 0xE0 == 0 {
                return .unescapedControlCharacterInString(ascii: byte, location: locate(index))
            } else {
                index += 1
            }
        }
        return isUTF8(text, runStart..<range.upperBound) ? nil : .cannotConvertInputStringDataToUTF8(location: locate(runStart))
    }

    /// An escape read: where it ends, or its fault.
    private enum Escape {
        case endsBefore(Int)
        case fault(JSONError)
    }

    /// The escape whose backslash is at `backslash`.
    private static func escape(in text: UnsafeBufferPointer<UInt8>, at backslash: Int, end: Int, locate: (Int) -> JSONError.SourceLocation) -> Escape {
        let letter = backslash + 1
        guard letter < end else { return .fault(.unexpectedEscapedCharacter(ascii: UInt8(ascii: "\""), location: locate(letter))) }
        switch text[letter] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return .endsBefore(letter + 1)
        case UInt8(ascii: "u"):
            let digits = letter + 1
            guard let value = hexValue(in: text, at: digits, end: end) else {
                return .fault(.invalidHexDigitSequence(hexText(in: text, at: digits, end: end), location: locate(digits)))
            }
            let after = digits + 4
            if UTF16.isLeadSurrogate(value) {
                guard after + 1 < end, text[after] == UInt8(ascii: "\\"), text[after + 1] == UInt8(ascii: "u") else {
                    return .fault(.expectedLowSurrogateUTF8SequenceAfterHighSurrogate(location: locate(after)))
                }
                let lowDigits = after + 2
                guard let low = hexValue(in: text, at: lowDigits, end: end) else {
                    return .fault(.invalidHexDigitSequence(hexText(in: text, at: lowDigits, end: end), location: locate(lowDigits)))
                }
                guard UTF16.isTrailSurrogate(low) else { return .fault(.expectedLowSurrogateUTF8SequenceAfterHighSurrogate(location: locate(lowDigits))) }
                return .endsBefore(lowDigits + 4)
            }
            guard Unicode.Scalar(UInt32(value)) != nil else { return .fault(.couldNotCreateUnicodeScalarFromUInt32(location: locate(digits), unicodeScalarValue: UInt32(value))) }
            return .endsBefore(after)
        case let other:
            return .fault(.unexpectedEscapedCharacter(ascii: other, location: locate(letter)))
        }
    }

    private static func hexValue(in text: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> UInt16? {
        guard start + 4 <= end else { return nil }
        var value: UInt16 = 0
        for index in start..<(start + 4) {
            guard let digit = PercentEncoding.hexValue(text[index]) else { return nil }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    private static func hexText(in text: UnsafeBufferPointer<UInt8>, at start: Int, end: Int) -> String {
        String(decoding: text[start..<min(start + 4, end)], as: UTF8.self)
    }

    private static func isUTF8(_ text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        JSONLexer.string(validating: UnsafeBufferPointer(rebasing: text[range])) != nil
    }

    /// The first fault in the number whose text is `range` of `text`: a leading zero or a sign
    /// without digits first, then an exponent without digits before it, then the last character,
    /// then the first character out of place. `nil` when it follows JSON's grammar.
    static func numberFault(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, locate: (Int) -> JSONError.SourceLocation) -> JSONError? {
        guard !range.isEmpty else { return nil }
        let start = range.lowerBound
        let isDigit = { (byte: UInt8) in byte &- UInt8(ascii: "0") < 10 }
        var firstDigit = start
        if text[start] == UInt8(ascii: "-") {
            guard range.count > 1 else { return .unexpectedCharacter(context: "at end of number", ascii: text[start], location: locate(start)) }
            firstDigit = start + 1
            if text[firstDigit] != UInt8(ascii: "0"), !isDigit(text[firstDigit]) {
                return .unexpectedCharacter(context: "after '-' in number", ascii: text[firstDigit], location: locate(firstDigit))
            }
        }
        if text[firstDigit] == UInt8(ascii: "0"), firstDigit + 1 < range.upperBound {
            let next = text[firstDigit + 1]
            if isDigit(next) { return .numberWithLeadingZero(location: locate(firstDigit + 1)) }
            if next != UInt8(ascii: "."), next != UInt8(ascii: "e"), next != UInt8(ascii: "E") {
                return .unexpectedCharacter(context: "in number", ascii: next, location: locate(firstDigit + 1))
            }
        }
        if let exponent = ((firstDigit + 1)..<range.upperBound).first(where: { text[$0] | 0x20 == UInt8(ascii: "e") }), !isDigit(text[exponent - 1]) {
            return .unexpectedCharacter(context: "in number", ascii: text[exponent], location: locate(exponent))
        }
        let last = range.upperBound - 1
        guard isDigit(text[last]) else { return .unexpectedCharacter(context: "at end of number", ascii: text[last], location: locate(last)) }
        return misplacedCharacter(in: text, firstDigit..<range.upperBound, locate: locate)
    }

    /// The first character out of place in a number's digits and marks.
    private static func misplacedCharacter(in text: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, locate: (Int) -> JSONError.SourceLocation) -> JSONError? {
        enum Part { case integer, fraction, exponent, exponentSign }
        var part = Part.integer
        var digits = 0
        for index in range {
            let byte = text[index]
            let misplaced: Bool
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                digits += 1
                continue
            case UInt8(ascii: "."):
                misplaced = digits == 0 || part != .integer
                part = .fraction
            case UInt8(ascii: "e"), UInt8(ascii: "E"):
                misplaced = digits == 0 || (part != .integer && part != .fraction)
                part = .exponent
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                misplaced = digits != 0 || part != .exponent
                part = .exponentSign
            default:
                misplaced = true
            }
            if misplaced { return .unexpectedCharacter(context: "in number", ascii: byte, location: locate(index)) }
            digits = 0
        }
        return nil
    }
}
