import Foundation

/// A serializer's acceptable content types, parsed once: the media ranges, in the order they are
/// best tried (exact types first, `application/json` before the rest, wildcards and suffixes last),
/// and the exact header values accepted by one byte comparison before any parsing (each exact type
/// alone and with `; charset=utf-8`, as servers send them).
@usableFromInline
struct ContentTypeFilter: Sendable {
    private let ranges: [MediaRange]
    private let commonValues: [[UInt8]]

    init(_ patterns: Set<String>) {
        let rank = { (pattern: String) in pattern == "application/json" ? 0 : pattern.contains("*") ? 2 : 1 }
        ranges = patterns.sorted { (rank($0), $0) < (rank($1), $1) }.map(MediaRange.init)
        commonValues = ranges.compactMap(\.exactType).flatMap { [$0, $0 + Array("; charset=utf-8".utf8)] }
    }

    /// Whether a `Content-Type` value is acceptable.
    @usableFromInline
    func accepts(_ contentType: String) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            commonValues.contains { common in
                common.count == bytes.count && common.withUnsafeBufferPointer { common in
                    guard let left = common.baseAddress, let right = bytes.baseAddress else { return true }
                    return memcmp(left, right, bytes.count) == 0
                }
            } || MediaRange.contentType(bytes, isIn: ranges)
        }
    }
}

/// A content type pattern such as `application/json`, `text/*` or `*/*+json`, compared the way
/// HTTP compares media types: case-insensitively, parameters (`; charset=utf-8`) ignored.
///
/// Ranges are parsed once; a response's `Content-Type` is compared in place, byte by byte, with no
/// allocation: this runs for every response.
struct MediaRange: Sendable {
    /// Lowercased; empty for `*`.
    private let type: [UInt8]
    /// Lowercased; empty for `*`.
    private let subtype: [UInt8]
    /// For `*/*+json`: `+json`, lowercased.
    private let suffix: [UInt8]

    init(_ text: String) {
        let bytes = Array(text.utf8)
        let (type, subtype) = bytes.withUnsafeBufferPointer { Self.essence(of: $0) }
        let lower = { (range: Range<Int>) in bytes[range].map(Self.lowercased) }
        let typeBytes = lower(type)
        let subtypeBytes = lower(subtype)
        self.type = typeBytes == [UInt8(ascii: "*")] ? [] : typeBytes
        if subtypeBytes.starts(with: [UInt8(ascii: "*"), UInt8(ascii: "+")]) {
            self.subtype = []
            self.suffix = Array(subtypeBytes.dropFirst())
        } else {
            self.subtype = subtypeBytes == [UInt8(ascii: "*")] ? [] : subtypeBytes
            self.suffix = []
        }
    }

    /// `type/subtype` for a range with no wildcard, in lowercase bytes.
    var exactType: [UInt8]? {
        type.isEmpty || subtype.isEmpty ? nil : type + [UInt8(ascii: "/")] + subtype
    }

    /// Whether a `Content-Type` value (its UTF-8 bytes) falls in any of `ranges`; the value is
    /// parsed once.
    static func contentType(_ bytes: UnsafeBufferPointer<UInt8>, isIn ranges: [MediaRange]) -> Bool {
        let quote = UInt8(ascii: "\"")
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        if bytes[..<end].contains(quote) {
            // Quotes in a media type ("application/json") are dropped, as Foundation's own parse
            // drops them: a URLSession response and a context made from its fields must agree.
            return bytes[..<end].filter { $0 != quote }.withUnsafeBufferPointer { contentType($0, isIn: ranges) }
        }
        let (type, subtype) = essence(of: bytes)
        return ranges.contains { $0.contains(type: bytes[type], subtype: bytes[subtype]) }
    }

    private func contains(type: Slice<UnsafeBufferPointer<UInt8>>, subtype: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard self.type.isEmpty || Self.equalsIgnoringCase(type, self.type) else { return false }
        if !suffix.isEmpty {
            return subtype.count > suffix.count && Self.equalsIgnoringCase(subtype.suffix(suffix.count), suffix)
        }
        return self.subtype.isEmpty || Self.equalsIgnoringCase(subtype, self.subtype)
    }

    /// The ranges of the type and subtype in `Type/Subtype; parameters`, spaces trimmed.
    private static func essence(of bytes: UnsafeBufferPointer<UInt8>) -> (type: Range<Int>, subtype: Range<Int>) {
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        let slash = bytes[..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
        return (trimmed(bytes, 0..<slash), trimmed(bytes, min(slash + 1, end)..<end))
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    private static func equalsIgnoringCase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lowercase: [UInt8]) -> Bool {
        guard bytes.count == lowercase.count else { return false }
        // An index loop: `zip` over a slice and an array costs more than the comparison itself.
        var index = bytes.startIndex
        for expected in lowercase {
            guard lowercased(bytes[index]) == expected else { return false }
            index += 1
        }
        return true
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
