import Foundation

/// How deeply a JSON body nests arrays and objects, measured without parsing it: brackets inside
/// strings do not count. Used by ``ModelResponseSerializer/maximumNestingDepth``.
@usableFromInline
enum NestingDepth {
    /// The byte offset of the first `[` or `{` that opens level `limit + 1`, or `nil` when the body
    /// stays within `limit` levels. Reads UTF-8 (and ASCII-compatible) bodies; malformed JSON is
    /// left to the decoder.
    @usableFromInline
    static func firstOffset(exceeding limit: Int, in data: Data) -> Int? {
        data.withUnsafeBytes { bytes in
            var depth = 0
            var inString = false
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if inString {
                    if byte == UInt8(ascii: "\\") {
                        index += 1
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                } else {
                    switch byte {
                    case UInt8(ascii: "\""):
                        inString = true
                    case UInt8(ascii: "["), UInt8(ascii: "{"):
                        depth += 1
                        if depth > limit { return index }
                    case UInt8(ascii: "]"), UInt8(ascii: "}"):
                        depth -= 1
                    default:
                        break
                    }
                }
                index += 1
            }
            return nil
        }
    }
}
