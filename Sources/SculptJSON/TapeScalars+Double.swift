import Foundation
import Sculpt
import SculptShared

extension TapeScalars {
    /// The floating-point value `JSONDecoder` decodes from a number's text (grammar checked):
    /// the nearest `Double`.
    ///
    /// - Throws: ``Invalid`` for a number past the type's range, or one that rounds to zero
    ///   without being zero.
    @inline(__always)
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) throws(Invalid) -> Double {
        if let value = exactlyRounded(bytes) { return value }
        let literal = String(decoding: bytes, as: UTF8.self)
        guard let value = JSONNumber.double(fromLiteral: literal) else {
            throw .notRepresentable(parsed: literal)
        }
        return value
    }

    /// Powers of ten a `Double` holds exactly: 10^0 through 10^22.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    /// The nearest `Double` to a number whose digits, read as an integer `m`, are at most 2^53
    /// and whose decimal exponent `e` (after moving the point past the last digit) lies in
    /// -22...22: then `m` and 10^|e| are exact and one multiplication or division rounds once,
    /// to what `strtod` gives (Clinger's fast path). `nil` for any other number, and for zero,
    /// which `JSONDecoder` refuses in some spellings (`0e1`).
    @inline(__always)
    private static func exactlyRounded(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var exponent = 0
        var inFraction = false
        while index < bytes.count {
            let byte = bytes[index]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                guard mantissa <= 1 << 53 else { return nil }
                if inFraction { exponent -= 1 }
            } else if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else if byte | 0x20 == UInt8(ascii: "e") {
                guard let written = smallExponent(UnsafeBufferPointer(rebasing: bytes[(index + 1)...])) else { return nil }
                exponent += written
                break
            } else {
                return nil
            }
            index += 1
        }
        guard mantissa != 0, exponent >= -22, exponent <= 22 else { return nil }
        let magnitude = exponent < 0
            ? Double(mantissa) / exactPowersOfTen[-exponent]
            : Double(mantissa) * exactPowersOfTen[exponent]
        return negative ? -magnitude : magnitude
    }

    /// An exponent's value (after the `e`: an optional sign and digits), when it has at most four
    /// digits.
    @inline(__always)
    private static func smallExponent(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var index = 0
        var negative = false
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            index = 1
        }
        guard bytes.count - index <= 4 else { return nil }
        var value = 0
        while index < bytes.count {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value * 10 + Int(digit)
            index += 1
        }
        return negative ? -value : value
    }
}
