import Foundation
import SculptShared

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
    /// Whether the pattern is not `type/subtype` (`json`, `text`): it matches nothing.
    private let matchesNothing: Bool

    init(_ text: String) {
        let bytes = Array(text.utf8)
        let essence = bytes.withUnsafeBufferPointer { Self.essence(of: $0) }
        matchesNothing = essence == nil
        let (type, subtype) = essence ?? (0..<0, 0..<0)
        let lower = { (range: Range<Int>) in bytes[range].map(ASCII.lowercased) }
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
        matchesNothing || type.isEmpty || subtype.isEmpty ? nil : type + [UInt8(ascii: "/")] + subtype
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
        guard let (type, subtype) = essence(of: bytes) else { return false }
        return ranges.contains { $0.contains(type: bytes[type], subtype: bytes[subtype]) }
    }

    private func contains(type: Slice<UnsafeBufferPointer<UInt8>>, subtype: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard !matchesNothing, self.type.isEmpty || Self.equalsIgnoringCase(type, self.type) else { return false }
        if !suffix.isEmpty {
            return subtype.count > suffix.count && Self.equalsIgnoringCase(subtype.suffix(suffix.count), suffix)
        }
        return self.subtype.isEmpty || Self.equalsIgnoringCase(subtype, self.subtype)
    }

    /// The ranges of the type and subtype in `Type/Subtype; parameters` (white space around the
    /// whole trimmed); `nil` when it is not a media type: no `/`, an empty type or subtype, or white
    /// space around the `/` (RFC 9110 allows none: `application /json` is not `application/json`).
    private static func essence(of bytes: UnsafeBufferPointer<UInt8>) -> (type: Range<Int>, subtype: Range<Int>)? {
        let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
        let whole = trimmed(bytes, 0..<end)
        guard let slash = bytes[whole].firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let type = whole.lowerBound..<slash
        let subtype = (slash + 1)..<whole.upperBound
        guard !type.isEmpty, !subtype.isEmpty, trimmed(bytes, type) == type, trimmed(bytes, subtype) == subtype else { return nil }
        return (type, subtype)
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
            guard ASCII.lowercased(bytes[index]) == expected else { return false }
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
}
