import Foundation

extension JSONDecoder: ModelDecoder {
    /// Refuses the body `JSONDecoder` stops the process on: one whose last character opens an
    /// array or object past 512 levels (FoundationEssentials places its "too many nested" error
    /// past the text's end, and traps). Any other body is left to `JSONDecoder`, which refuses
    /// every other body nested that deep itself, so the answer is the same, without the trap.
    /// One look at the last character; the levels are counted only when it opens a container.
    ///
    /// ```swift
    /// try JSONDecoder().checkBounds(of: Data(String(repeating: "[", count: 513).utf8))  // throws
    /// ```
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

    /// Whether the last character of `data` is `[` or `{`, in any encoding `JSONDecoder` reads
    /// (a UTF-16 or UTF-32 code unit ends in up to three zero bytes after or before it).
    private static func endsByOpeningContainer(_ data: Data) -> Bool {
        var trailingZeros = 0
        for byte in data.reversed() {
            if byte == 0, trailingZeros < 3 {
                trailingZeros += 1
                continue
            }
            return byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{")
        }
        return false
    }
}
