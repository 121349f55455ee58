import Foundation

/// JSON numbers read as `JSONDecoder` reads them, and the rule by which a number stands for a
/// registered discriminator value.
///
/// ```swift
/// JSONNumber.integer(fromLiteral: "34.0")      // 34: JSONDecoder decodes an Int from it
/// JSONNumber.canonicalText(of: "3.0")          // "3"
/// JSONNumber.canonicalText(of: "2.50")         // "2.5"
/// ```
///
/// A number's canonical text is the decimal text of the `Int` `JSONDecoder` decodes from it, else
/// Swift's shortest spelling of the `Double` it decodes (`2.5`, `1e+20`); `nil` when it decodes
/// neither (`1e999`, `1e-400`). The type-field peek reads a number's text and `TypeFieldFamily` a
/// decoded `Int` or `Double`: both end in the canonical text, so they agree, with each other and
/// with the decode.
package enum JSONNumber {
    /// The canonical text of the number written `literal` (JSON's grammar, which the caller has
    /// checked).
    package static func canonicalText(of literal: String) -> String? {
        if let integer = integer(fromLiteral: literal) { return String(integer) }
        return double(fromLiteral: literal).map(canonicalText(of:))
    }

    /// The canonical text of a decoded `Double`: an integer's decimal text when it is one that
    /// `Int` holds, else Swift's shortest spelling.
    package static func canonicalText(of value: Double) -> String {
        Int(exactly: value).map { String($0) } ?? "\(value)"
    }

    /// The `Int` `JSONDecoder` (Swift 6.3's) decodes from a number written `literal`, or `nil`
    /// where it throws. Its rules, quirks included: a plain integer is read exactly; any other
    /// number is read as a `Double`, which must hold a whole number in range; below 2^53 that
    /// `Double` is the answer (so `3.0000000000000001` is 3), and from 2^53 up the text is read as
    /// a `Decimal` (at most 38 significant digits, trailing zeros dropped, a mantissa that fits 64
    /// bits) and truncated (so `9007199254740993.9` is 9007199254740993).
    package static func integer(fromLiteral literal: String) -> Int? {
        integer(fromLiteral: literal, as: Int.self)
    }

    /// ``integer(fromLiteral:)`` for any integer type, as `JSONDecoder` decodes each.
    package static func integer<T: FixedWidthInteger>(fromLiteral literal: String, as type: T.Type) -> T? {
        if let plain = T(literal) { return plain }
        guard let double = Double(literal), let value = T(exactly: double) else { return nil }
        if double.magnitude < 9_007_199_254_740_992 { return value }
        return DecimalTruncation(literal)?.integer(as: T.self)
    }

    /// The `Double` `JSONDecoder` decodes from a number written `literal`, or `nil` where it
    /// throws: for a number past `Double`'s range, or one that is not zero but rounds to zero.
    package static func double(fromLiteral literal: String) -> Double? {
        guard let value = Double(literal), value.isFinite else { return nil }
        return value != 0 || isZero(literal) ? value : nil
    }

    /// Whether `JSONDecoder` takes a number that parsed to zero for a true zero rather than an
    /// underflow (which it rejects): no digit 1-9 is found before an exponent marker.
    ///
    /// `JSONDecoder` scans the text in blocks of four bytes from the front, then the last
    /// `count % 4` bytes from the back, so an exponent digit in that tail is seen before the `e`:
    /// it rejects `0e1` and `0E5` while it accepts `0e+1`, `-0e1` and `0.0e1`. The same order here
    /// keeps the answers identical.
    package static func isZero(_ literal: String) -> Bool {
        let bytes = Array(literal.utf8)
        let blocks = bytes.count - bytes.count % 4
        for index in Array(0..<blocks) + (blocks..<bytes.count).reversed() {
            switch bytes[index] {
            case UInt8(ascii: "1")...UInt8(ascii: "9"): return false
            case UInt8(ascii: "e"), UInt8(ascii: "E"): return true
            default: continue
            }
        }
        return true
    }

    /// A number read as Foundation's `Decimal` reads text, then made an `Int` as `JSONDecoder`
    /// makes one of a `Decimal`: the mantissa keeps the leading digits that fit 128 bits (later
    /// digits of the integer part count as zeros, later fraction digits are dropped), trailing
    /// zeros are moved into the exponent, the mantissa must then fit 64 bits, and the exponent is
    /// applied by multiplying (checked) or dividing (truncating) by 10.
    private struct DecimalTruncation {
        package var isNegative = false
        package var mantissa = Mantissa()
        package var exponent = 0

        package init?(_ literal: String) {
            var bytes = literal.utf8[...]
            if bytes.first == UInt8(ascii: "-") {
                isNegative = true
                bytes = bytes.dropFirst()
            }
            var fits = true
            var inFraction = false
            while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
                bytes = bytes.dropFirst()
                if byte == UInt8(ascii: ".") {
                    inFraction = true
                    continue
                }
                let digit = UInt64(byte &- UInt8(ascii: "0"))
                if fits, mantissa.multiplyBy10Adding(digit) {
                    if inFraction { exponent -= 1 }
                } else {
                    fits = false
                    if !inFraction { exponent += 1 }
                }
            }
            if !bytes.isEmpty {
                guard let written = Int(String(decoding: bytes.dropFirst(), as: UTF8.self)), abs(written) <= 254 else { return nil }
                exponent += written
            }
            guard (-128...127).contains(exponent) else { return nil }
            while !mantissa.isZero, mantissa.divideBy10IfExact() { exponent += 1 }
        }

        /// The whole number, truncated, when it fits `T`.
        package func integer<T: FixedWidthInteger>(as type: T.Type) -> T? {
            guard var value = mantissa.uint64 else { return nil }
            for _ in 0..<abs(exponent) {
                if exponent < 0 {
                    value /= 10
                } else {
                    let (product, overflow) = value.multipliedReportingOverflow(by: 10)
                    guard !overflow else { return nil }
                    value = product
                }
            }
            guard let magnitude = T(exactly: value) else { return nil }
            guard isNegative else { return magnitude }
            // As JSONDecoder makes it: the magnitude as T, then negated (T.min is out of reach,
            // and no negative number is an unsigned one, not even -0).
            return T.isSigned ? 0 - magnitude : nil
        }
    }

    /// A 128-bit unsigned mantissa, as `Decimal` holds one.
    private struct Mantissa {
        package var high: UInt64 = 0
        package var low: UInt64 = 0

        package var isZero: Bool { high == 0 && low == 0 }
        package var uint64: UInt64? { high == 0 ? low : nil }

        /// `self * 10 + digit`, unless that overflows 128 bits.
        package mutating func multiplyBy10Adding(_ digit: UInt64) -> Bool {
            let lowProduct = low.multipliedFullWidth(by: 10)
            let (highProduct, highOverflow) = high.multipliedReportingOverflow(by: 10)
            guard !highOverflow else { return false }
            let (newHigh, carryOverflow) = highProduct.addingReportingOverflow(lowProduct.high)
            guard !carryOverflow else { return false }
            let (newLow, lowCarry) = lowProduct.low.addingReportingOverflow(digit)
            let (finalHigh, finalOverflow) = newHigh.addingReportingOverflow(lowCarry ? 1 : 0)
            guard !finalOverflow else { return false }
            high = finalHigh
            low = newLow
            return true
        }

        /// Divides by 10 when the remainder is 0; `false`, changing nothing, when it is not.
        package mutating func divideBy10IfExact() -> Bool {
            let (highQuotient, highRemainder) = high.quotientAndRemainder(dividingBy: 10)
            let (lowQuotient, lowRemainder) = UInt64(10).dividingFullWidth((highRemainder, low))
            guard lowRemainder == 0 else { return false }
            high = highQuotient
            low = lowQuotient
            return true
        }
    }
}
