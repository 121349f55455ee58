import Foundation
import SculptShared

/// A serializer's acceptable content types, parsed once: the media ranges, in the order they are
/// best tried (exact types first, `application/json` before the rest, wildcards and suffixes last),
/// and the exact header values accepted by one byte comparison before any parsing (each exact type
/// alone and with `; charset=utf-8`, as servers send them).
struct ContentTypeFilter: Sendable {
    /// The media ranges as given.
    let patterns: Set<String>
    private let ranges: [MediaRange]
    private let commonValues: [[UInt8]]
    /// The exact types that are plain (see ``MediaRange/isPlain(_:)``).
    private let plainTypes: [[UInt8]]

    init(_ patterns: Set<String>) {
        self.patterns = patterns
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

    /// Whether a `Content-Type` value is acceptable. An empty one (or one of white space) says
    /// nothing, and is accepted as a response without the field is.
    func accepts(_ contentType: String) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            Self.index(of: bytes, in: commonValues) != nil || MediaRange.contentType(bytes, isIn: ranges)
                || bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 }
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
