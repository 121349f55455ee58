import Foundation
import SculptShared

extension JSONDecoder: ModelDecoder {
    /// Refuses the body `JSONDecoder` stops the process on: one whose last character, white space
    /// aside, opens an array or object past 512 levels (FoundationEssentials places its "too many
    /// nested" error past the text's end, and traps). Any other body is left to `JSONDecoder`,
    /// which refuses every other body nested that deep itself, so the answer is the same, without
    /// the trap. One look at the end of the body; the levels are counted only when it opens a
    /// container.
    ///
    /// ```swift
    /// try JSONDecoder().checkBounds(of: Data(String(repeating: "[", count: 513).utf8))  // throws
    /// ```
    /// - Parameter data: the body about to be decoded.
    /// - Throws: `DecodingError.dataCorrupted` "The given data was not valid JSON.", as
    ///   `JSONDecoder` throws it for a body nested too deep, its underlying error naming the
    ///   bracket that went past 512 levels.
    public func checkBounds(of data: Data) throws {
        guard Self.endsByOpeningContainer(data), let offset = NestingDepth.firstOffset(exceeding: Self.maximumDepth, in: data) else { return }
        let location = data.withUnsafeBytes { JSONError.SourceLocation(offset: offset, in: $0) }
        throw DecodingError.dataCorrupted(.init(
            codingPath: [], debugDescription: "The given data was not valid JSON.",
            underlyingError: JSONError.tooManyNestedArraysOrDictionaries(location: location)))
    }

    /// The deepest nesting `JSONDecoder` reads.
    private static let maximumDepth = 512

    /// Whether the last character of `data` that is not JSON white space is `[` or `{`, in any
    /// encoding `JSONDecoder` reads (a UTF-16 or UTF-32 code unit is its ASCII byte and zeros).
    private static func endsByOpeningContainer(_ data: Data) -> Bool {
        for byte in data.reversed() {
            switch byte {
            case 0x00, UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): continue
            default: return byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{")
            }
        }
        return false
    }
}
