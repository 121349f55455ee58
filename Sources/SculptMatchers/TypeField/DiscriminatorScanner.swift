import Foundation

/// Finds one field of a JSON object by scanning bytes, without parsing the document: keys are
/// compared as they pass, and every other value (nested objects, arrays, long strings) is skipped
/// by looking only for the bytes that can end it.
///
/// It agrees with `JSONDecoder` on what it reports: the first occurrence of a duplicate key wins,
/// keys and string values compare after unescaping, a UTF-8 byte order mark is ignored, UTF-16
/// and UTF-32 bodies are read after transcoding, and a trailing comma before `}` is accepted. It
/// checks only what it reads; the decode that follows validates the rest.
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
    }

    /// Why the bytes are not JSON, and where.
    struct Malformed: Error, Equatable {
        var reason: String
        var offset: Int
    }

    /// The field's keys, outermost first, as UTF-8.
    let path: [[UInt8]]

    init(path: [String]) {
        self.path = path.map { Array($0.utf8) }
    }

    /// Scans `data` for the field.
    func scan(_ data: Data) throws(Malformed) -> Outcome {
        if let transcoded = Self.transcodedFromUTF16or32(data) {
            return try scan(transcoded)
        }
        let outcome: Result<Outcome, Malformed> = data.withUnsafeBytes { raw in
            var cursor = Cursor(bytes: raw.bindMemory(to: UInt8.self))
            cursor.skipByteOrderMark()
            return Result { () throws(Malformed) in try find(in: &cursor) }
        }
        return try outcome.get()
    }

    private func find(in cursor: inout Cursor) throws(Malformed) -> Outcome {
        cursor.skipWhitespace()
        guard let first = cursor.peek() else { throw cursor.malformed("the body has no JSON value") }
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

    /// The body as UTF-8 when it is UTF-16 or UTF-32 (by byte order mark, or by the zero bytes an
    /// ASCII first character leaves), as `JSONDecoder` reads it; `nil` for UTF-8.
    private static func transcodedFromUTF16or32(_ data: Data) -> Data? {
        let head = Array(data.prefix(4))
        let encoding: String.Encoding? =
            switch head {
            case [0x00, 0x00, 0xFE, 0xFF]: .utf32BigEndian
            case [0xFF, 0xFE, 0x00, 0x00]: .utf32LittleEndian
            case _ where head.starts(with: [0xFE, 0xFF]): .utf16BigEndian
            case _ where head.starts(with: [0xFF, 0xFE]): .utf16LittleEndian
            case _ where head.count == 4 && head[0] == 0 && head[1] == 0 && head[2] == 0: .utf32BigEndian
            case _ where head.count == 4 && head[1] == 0 && head[2] == 0 && head[3] == 0: .utf32LittleEndian
            case _ where head.count >= 2 && head[0] == 0: .utf16BigEndian
            case _ where head.count >= 2 && head[1] == 0: .utf16LittleEndian
            default: nil
            }
        guard let encoding, var text = String(data: data, encoding: encoding) else { return nil }
        if text.first == "\u{FEFF}" { text.removeFirst() }
        return Data(text.utf8)
    }
}
