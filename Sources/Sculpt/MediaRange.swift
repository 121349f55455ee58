import Foundation

/// A serializer's acceptable content types, parsed once: the media ranges, in the order they are
/// best tried (exact types first, `application/json` before the rest, wildcards and suffixes last),
/// and the exact header values accepted by one byte comparison before any parsing (each exact type
/// alone and with `; charset=utf-8`, as servers send them).
@usableFromInline
struct ContentTypeFilter: Sendable {
    private let ranges: [MediaRange]
    private let commonValues: [[UInt8]]
    /// The exact types that are plain (see ``MediaRange/isPlain(_:)``).
    private let plainTypes: [[UInt8]]

    init(_ patterns: Set<String>) {
        let rank = { (pattern: String) in pattern == "application/json" ? 0 : pattern.contains("*") ? 2 : 1 }
        ranges = patterns.sorted { (rank($0), $0) < (rank($1), $1) }.map(MediaRange.init)
        let exactTypes = ranges.compactMap(\.exactType)
        commonValues = exactTypes.flatMap { [$0, $0 + Array("; charset=utf-8".utf8)] }
        plainTypes = exactTypes.filter { $0.withUnsafeBufferPointer(MediaRange.isPlain) }
    }

    /// Whether a media type, as FoundationNetworking parses it (lowercase, no parameters), is one
    /// of the exact types and plain: accepted by one comparison, the question whether it compares
    /// as the field would answered by the type it equals.
    func acceptsPlainType(_ mediaType: String) -> Bool {
        // In place: `withUTF8` needs a copy of the string to call on, which costs a retain.
        mediaType.utf8.withContiguousStorageIfAvailable { Self.index(of: $0, in: plainTypes) != nil } ?? false
    }

    /// Whether a `Content-Type` value is acceptable.
    @usableFromInline
    func accepts(_ contentType: String) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            Self.index(of: bytes, in: commonValues) != nil || MediaRange.contentType(bytes, isIn: ranges)
        }
    }

    /// The index of the first of `values` equal to `bytes`.
    private static func index(of bytes: UnsafeBufferPointer<UInt8>, in values: [[UInt8]]) -> Int? {
        values.firstIndex { value in
            value.count == bytes.count && value.withUnsafeBufferPointer { value in
                guard let left = value.baseAddress, let right = bytes.baseAddress else { return true }
                return memcmp(left, right, bytes.count) == 0
            }
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

    /// Whether a media type FoundationNetworking parsed compares as the field itself would: only
    /// lowercase token characters and `/`. Anything else (white space, a backslash, a control
    /// character, a non-ASCII byte) sends the comparison to the field, as `HTTPFields` holds it;
    /// so does a `k`, which may be a Kelvin sign (U+212A) that lowercasing turned into ASCII. The
    /// one other change the parse makes, dropping quotes, the comparison makes too.
    static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // One bit per byte: iterating a string's `utf8` cost 600 instructions for
        // `application/json`.
        bytes.allSatisfy { byte in
            let bits = byte < 64 ? plainBelow64 >> byte : byte < 128 ? plainFrom64 >> (byte - 64) : 0
            return bits & 1 == 1
        }
    }

    /// ``isPlain(_:)`` for a string.
    static func isPlain(_ mediaType: String) -> Bool {
        var mediaType = mediaType
        return mediaType.withUTF8(isPlain)
    }

    /// `!#$&+-./` and `0`...`9`, as bits 0...63.
    private static let plainBelow64: UInt64 = 0x03FF_E85A_0000_0000
    /// `^_` and `a`...`z` but `k`, as bits 64...127.
    private static let plainFrom64: UInt64 = 0x07FF_F7FE_C000_0000

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
