import Foundation

/// How deeply a JSON body nests arrays and objects, measured without parsing it: brackets inside
/// strings do not count. Used by ``ModelResponseSerializer/maximumNestingDepth``.
enum NestingDepth {
    /// The byte offset of the first `[` or `{` that opens level `limit + 1`, or `nil` when the body
    /// stays within `limit` levels. Reads UTF-8 (and ASCII-compatible) bodies; malformed JSON is
    /// left to the decoder.
    static func firstOffset(exceeding limit: Int, in data: Data) -> Int? {
        data.withUnsafeBytes { raw in
            var lexer = JSONLexer(raw.bindMemory(to: UInt8.self))
            var depth = 0
            while let byte = lexer.peek() {
                switch byte {
                case UInt8(ascii: "\""):
                    // A string the text ends inside holds no more brackets.
                    guard (try? lexer.skipString()) != nil else { return nil }
                    continue
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > limit { return lexer.index }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    depth -= 1
                default:
                    break
                }
                lexer.index += 1
            }
            return nil
        }
    }
}
