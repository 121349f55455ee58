import Foundation

/// How deeply a JSON body nests arrays and objects, measured without parsing it: brackets inside
/// strings do not count. Used by ``ModelResponseSerializer/maximumNestingDepth``.
package enum NestingDepth {
    /// The byte offset of the first `[` or `{` that opens level `limit + 1`, or `nil` when the body
    /// stays within `limit` levels. Reads the body as `JSONDecoder` reads its encoding (UTF-16 and
    /// UTF-32 transcoded, the offset counted in the body as it arrived); malformed JSON is left to
    /// the decoder.
    package static func firstOffset(exceeding limit: Int, in data: Data) -> Int? {
        let inPlace = data.withUnsafeBytes { raw -> Int?? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard !JSONText.mayNeedTranscoding(raw) || JSONText.encoding(of: bytes) == nil else { return .none }
            return .some(firstOffset(exceeding: limit, in: bytes))
        }
        if let inPlace { return inPlace }
        guard let text = JSONText(data) else { return nil }
        let offset = text.utf8.withUnsafeBytes { firstOffset(exceeding: limit, in: $0.bindMemory(to: UInt8.self)) }
        return offset.map(text.originalOffset(of:))
    }

    /// The same, over UTF-8.
    private static func firstOffset(exceeding limit: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var lexer = JSONLexer(bytes)
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
