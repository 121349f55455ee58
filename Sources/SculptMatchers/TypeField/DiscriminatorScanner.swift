import Foundation

/// Finds one field of a JSON object by scanning bytes, without parsing the document: keys are
/// compared as they pass, and every other value (nested objects, arrays, long strings) is skipped
/// by looking only for the bytes that can end it.
///
/// It agrees with `JSONDecoder` on what it reports: keys compare after unescaping and as Swift
/// strings compare (canonically equivalent spellings are one key, see ``Key``), the first
/// occurrence of a duplicate key wins, a UTF-8 byte order mark is ignored, UTF-16 and UTF-32
/// bodies are read after transcoding, and a trailing comma before `}` is accepted. A string value
/// is reported as a `String`, so it too compares as Swift compares strings. It checks only what
/// it reads; the decode that follows validates the rest.
struct DiscriminatorScanner {
    /// What stands at the field.
    enum Value: Equatable, Sendable {
        case string(String)
        /// A number, as written (`3`, `-1.5e3`).
        case number(String)
        case bool(Bool)
        case null
        case object
        case array
    }

    /// The result of a scan.
    enum Outcome: Equatable, Sendable {
        case found(Value)
        /// The field (or an object on the way to it) is not there.
        case missing
        /// The body is valid JSON so far but not an object: `"an array"`, `"a string"`, ...
        case notAnObject(String)
        /// The body is empty or only white space.
        case empty
    }

    /// Why the bytes are not JSON, and where.
    struct Malformed: Error, Equatable {
        var reason: String
        var offset: Int
    }

    /// The field's keys, outermost first.
    let path: [Key]

    init(path: [String]) {
        self.path = path.map(Key.init)
    }

    /// Scans `data` for the field: one access to its bytes, unless it must be transcoded.
    func scan(_ data: Data) throws(Malformed) -> Outcome {
        let scanned = data.withUnsafeBytes { raw -> Result<Outcome, Malformed>? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard Self.encoding(of: bytes) == nil else { return nil }
            var cursor = Cursor(bytes: bytes)
            cursor.skipByteOrderMark()
            do throws(Malformed) {
                return .success(try find(in: &cursor))
            } catch {
                return .failure(error)
            }
        }
        if let scanned { return try scanned.get() }
        return try scanTranscoded(data)
    }

    /// A UTF-16 or UTF-32 body, scanned after transcoding to UTF-8.
    private func scanTranscoded(_ data: Data) throws(Malformed) -> Outcome {
        guard let (encoding, orderMark) = data.withUnsafeBytes({ Self.encoding(of: $0.bindMemory(to: UInt8.self)) }),
            let transcoded = String(data: data.dropFirst(orderMark), encoding: encoding).map({ Data($0.utf8) })
        else {
            throw Malformed(reason: "the body looks like UTF-16 or UTF-32 but does not decode as it", offset: 0)
        }
        let scanned = transcoded.withUnsafeBytes { raw -> Result<Outcome, Malformed> in
            var cursor = Cursor(bytes: raw.bindMemory(to: UInt8.self))
            do throws(Malformed) {
                return .success(try find(in: &cursor))
            } catch {
                return .failure(error)
            }
        }
        do throws(Malformed) {
            return try scanned.get()
        } catch {
            // The offset the caller sees is into the body as it arrived, not into our UTF-8 copy.
            throw Malformed(
                reason: error.reason, offset: Self.offset(error.offset, in: transcoded, of: data, encodedAs: encoding, after: orderMark))
        }
    }

    /// The offset in the UTF-16 or UTF-32 `original` of the character at `offset` in its UTF-8
    /// `transcoded` form, which starts after the byte order mark's `orderMark` bytes.
    private static func offset(
        _ offset: Int, in transcoded: Data, of original: Data, encodedAs encoding: String.Encoding, after orderMark: Int
    ) -> Int {
        let isUTF32 = encoding == .utf32BigEndian || encoding == .utf32LittleEndian
        var result = orderMark
        var consumed = 0
        for scalar in String(decoding: transcoded, as: UTF8.self).unicodeScalars {
            guard consumed < offset else { break }
            consumed += UTF8.width(scalar)
            result += isUTF32 ? 4 : UTF16.width(scalar) * 2
        }
        return min(result, original.count)
    }

    private func find(in cursor: inout Cursor) throws(Malformed) -> Outcome {
        cursor.skipWhitespace()
        guard let first = cursor.peek() else { return .empty }
        guard first == UInt8(ascii: "{") else {
            return .notAnObject(try Self.kind(of: first, at: cursor))
        }
        for (depth, key) in path.enumerated() {
            guard try cursor.moveToValue(ofKey: key) else { return .missing }
            if depth == path.count - 1 {
                return .found(try cursor.readValue())
            }
            guard cursor.peek() == UInt8(ascii: "{") else { return .missing }
        }
        return .missing
    }

    private static func kind(of byte: UInt8, at cursor: Cursor) throws(Malformed) -> String {
        switch byte {
        case UInt8(ascii: "["): "an array"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): "a number"
        default: throw cursor.malformed("expected a JSON value, found \(Cursor.describe(byte))")
        }
    }

    /// The body's encoding when it is UTF-16 or UTF-32, and the length of the byte order mark
    /// before the text (0 when the encoding is told by the zero bytes ASCII characters leave);
    /// `nil` for UTF-8. Exactly as `JSONDecoder` detects it, quirks included: it takes a body
    /// starting `FE FF 00 00` for UTF-32LE after a 4-byte mark (the UTF-32LE mark, `FF FE 00 00`,
    /// with its first two bytes swapped), and one starting `FF FE 00 00` for UTF-16LE after a
    /// 2-byte mark, followed by a NUL. It looks for marks and zeros only in a body of 4 bytes or
    /// more, and at zeros alone in one of 2 or 3.
    private static func encoding(of bytes: UnsafeBufferPointer<UInt8>) -> (String.Encoding, orderMark: Int)? {
        if bytes.count >= 4 {
            switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
            case (0x00, 0x00, 0xFE, 0xFF): return (.utf32BigEndian, 4)
            case (0xFE, 0xFF, 0x00, 0x00): return (.utf32LittleEndian, 4)
            case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
            case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
            case (0x00, 0x00, 0x00, _): return (.utf32BigEndian, 0)
            case (_, 0x00, 0x00, 0x00): return (.utf32LittleEndian, 0)
            case (0x00, _, 0x00, _): return (.utf16BigEndian, 0)
            case (_, 0x00, _, 0x00): return (.utf16LittleEndian, 0)
            default: return nil
            }
        }
        guard bytes.count >= 2 else { return nil }
        if bytes[0] == 0x00 { return (.utf16BigEndian, 0) }
        if bytes[1] == 0x00 { return (.utf16LittleEndian, 0) }
        return nil
    }
}
