import Foundation
import HTTPTypes
import SculptShared

/// A recorded body as every reader of recordings reads it, so that one interaction means the same
/// bytes wherever it is read: a fixture file or HAR archive as it loads, ``FixtureServer`` and a
/// replay's session as they answer, ``RecordingDiff`` as it compares shapes, ``SecretScan`` as it
/// looks for secrets, and ``Redaction`` before a recording is kept.
///
/// ```swift
/// let (body, fields) = try RecordedBody.decoded(stored, fields: recorded.headerFields)   // gzip undone
/// let text = RecordedBody.utf8(body, fields: fields)                                       // UTF-16 read as UTF-8
/// ```
///
/// Fixtures hold the body a client sees (as `URLSession` gives it): a body stored compressed, as a
/// recorder or a browser sometimes keeps it (`Content-Encoding: gzip`, `x-gzip` or `deflate` over
/// the compressed bytes), is decompressed, and the fields that described the stored bytes
/// (`Content-Encoding`, `Content-Length`) are left out. A `Content-Encoding` over a body that is
/// not compressed (a recorder that kept the header of a body it had decoded) is left out too; one
/// over bytes that do not decompress is damaged, and a fixture that holds one does not load.
/// Other codings (`br`) are kept as stored, header included.
package enum RecordedBody {
    /// The body a client sees, and the fields that describe it.
    ///
    /// - Parameters:
    ///   - stored: the bytes as recorded.
    ///   - fields: the header fields recorded with them.
    ///   - limit: the most bytes a decompressed body may have.
    ///   - keptDecoded: whether the recording may hold the body decoded under the fields of the
    ///     wire (a browser's HAR archive): then bytes that are not compressed, text or not, are
    ///     the body.
    /// - Throws: `Gzip.Failure` for a compressed body that is damaged or expands past `limit`.
    package static func decoded(_ stored: Data, fields: HTTPFields, limit: Int = Gzip.maximumSize, keptDecoded: Bool = false) throws(Gzip.Failure) -> (body: Data, fields: HTTPFields) {
        let codings = codings(in: fields)
        guard !codings.isEmpty, codings.allSatisfy(decodable.contains) else { return (stored, fields) }
        let described = withoutCoding(fields)
        var body = stored
        // Undone last first. A body that is not compressed was decoded already, and its header kept.
        for coding in codings.reversed() {
            body = try decompressed(body, deflate: coding == "deflate", limit: limit, declared: !keptDecoded) ?? body
        }
        return (body, described)
    }

    /// `body` decompressed, or `nil` when it is not compressed: a gzip stream by its magic bytes
    /// (and then it must decompress); a zlib stream, or with `deflate` raw deflate, when it
    /// decompresses (two bytes that look like a zlib header begin much ordinary text, `x ` among
    /// them). Under a coding the fields `declared`, a body that decompresses neither way is
    /// damaged unless it reads as text (a body a recorder decoded and kept the header of), bytes
    /// that are not compressed at all included; one that expands past `limit` is too large,
    /// whatever it is.
    private static func decompressed(_ body: Data, deflate: Bool, limit: Int, declared: Bool) throws(Gzip.Failure) -> Data? {
        if Gzip.isCompressed(body) { return try Gzip.decompress(body, limit: limit) }
        var failure: Gzip.Failure?
        if looksLikeZlib(body) {
            do throws(Gzip.Failure) { return try Gzip.decompress(body, limit: limit) } catch { failure = error }
        }
        // Deflate without the zlib wrapper, as some servers send it.
        if deflate {
            do throws(Gzip.Failure) { return try Gzip.decompress(body, limit: limit, raw: true) } catch { failure = failure ?? error }
        }
        if let failure, failure.isOverLimit { throw failure }
        guard declared, !isText(body) else { return nil }
        throw failure ?? Gzip.Failure(reason: "the body is neither a gzip nor a zlib stream, nor text")
    }

    /// Whether `body` reads as text (in UTF-8, or in UTF-16 or UTF-32 as ``utf8(_:fields:)``
    /// tells them) with no control character but white space in its first 4 KiB. Compressed
    /// bytes never do.
    package static func isText(_ body: Data) -> Bool {
        // A cut in the middle of a character is not a fault: only the bytes before it are judged.
        let text = String(decoding: utf8(body.prefix(4 << 10), fields: [:]), as: UTF8.self)
        return !text.unicodeScalars.dropLast().contains { scalar in
            scalar == "\u{FFFD}" || scalar.value < 0x20 && scalar != "\n" && scalar != "\r" && scalar != "\t" || scalar.value == 0x7F
        }
    }

    /// Every coding `fields` list, in the order applied, lowercased; `identity` is none.
    private static func codings(in fields: HTTPFields) -> [String] {
        fields[values: .contentEncoding].flatMap { $0.split(separator: ",") }
            .map { ASCII.lowercased($0.trimmingCharacters(in: .whitespaces)) }.filter { $0 != "identity" }
    }

    /// `fields` without the `Content-Encoding` and `Content-Length` that describe stored bytes.
    private static func withoutCoding(_ fields: HTTPFields) -> HTTPFields {
        var described = fields
        described[.contentEncoding] = nil
        described[.contentLength] = nil
        return described
    }

    /// The codings a recorded body can be decompressed from.
    private static let decodable: Set<String> = ["gzip", "x-gzip", "deflate"]

    /// A stored body whose fields are not at hand (a body inside a file being scanned) as a client
    /// would get it: decompressed when it is a gzip or zlib stream (read as text with
    /// ``utf8(_:fields:)``).
    ///
    /// - Throws: `Gzip.Failure` for a compressed body that is damaged or too large, with what was
    ///   decompressed before the failure.
    package static func decompressed(ofStored stored: Data) throws(Gzip.Failure) -> Data {
        try decompressed(stored, deflate: false, limit: Gzip.maximumSize, declared: false) ?? stored
    }

    /// ``decoded(_:fields:limit:)`` for a reader that shows what it cannot decode as stored (a
    /// server, a replay): a damaged compressed body stays as it is, its fields with it.
    package static func decodedIfPossible(_ stored: Data, fields: HTTPFields) -> (body: Data, fields: HTTPFields) {
        (try? decoded(stored, fields: fields)) ?? (stored, fields)
    }

    /// `fields` with a `Content-Length` they state made the length of `body` as it is kept
    /// (decompressed, secrets replaced, a JSON body written as the file holds it); an empty body
    /// (a `HEAD` response's, a `304`'s) keeps the length stated.
    package static func stating(_ body: Data?, in fields: HTTPFields) -> HTTPFields {
        guard let body, !body.isEmpty, let stated = fields[.contentLength], stated != String(body.count) else { return fields }
        var fields = fields
        fields[.contentLength] = String(body.count)
        return fields
    }

    /// The fields of a response a `URLSession` gave, as they describe the body it gave: a session
    /// undoes `gzip` and `deflate`, so those codings, and the length of the compressed bytes, are
    /// left out; the body is kept as given (a `.gz` file served under `Content-Encoding: gzip` is
    /// the file).
    package static func describingSessionBody(_ fields: HTTPFields) -> HTTPFields {
        let codings = codings(in: fields)
        guard !codings.isEmpty, codings.allSatisfy(decodable.contains) else { return fields }
        return withoutCoding(fields)
    }

    /// ``decoded(_:fields:limit:)`` for a writer of recordings (the recorder, redaction): a body
    /// that does not decompress under the coding its fields state is kept as the bytes it is,
    /// without the `Content-Encoding` and `Content-Length` that call it compressed (a session
    /// that gave it had undone the coding already), so that what is written reads back.
    package static func decodedForWriting(_ stored: Data, fields: HTTPFields) -> (body: Data, fields: HTTPFields) {
        (try? decoded(stored, fields: fields)) ?? (stored, withoutCoding(fields))
    }

    /// The body as UTF-8 text for a reader of its content (shapes, secrets): transcoded when its
    /// byte order mark, its zero bytes (UTF-16 and UTF-32 JSON) or its `Content-Type`'s `charset`
    /// (`utf-16`, `iso-8859-1`, `windows-1252`) say it is in another encoding; as it is otherwise,
    /// or when it does not decode.
    package static func utf8(_ body: Data, fields: HTTPFields) -> Data {
        if let declared = charset(in: fields[values: .contentType]), declared != .utf8 {
            // Whole units only, in the byte order the body is in.
            let reading = reading(declared, of: body)
            let units = body.dropFirst(reading.orderMark)
            if let text = String(data: units.prefix(units.count - units.count % reading.width), encoding: reading.encoding) { return Data(text.utf8) }
        }
        guard let found = wideEncoding(of: body) else { return body }
        if let text = JSONText(body, upTo: body.count, readingUTF32LEMark: true), text.transcodedFrom != nil { return text.utf8 }
        // Text that does not decode whole (a lone surrogate): read with each unit that does not
        // as U+FFFD, so that what it holds is still read.
        let units = body.dropFirst(found.orderMark)
        let isUTF32 = found.encoding == .utf32LittleEndian || found.encoding == .utf32BigEndian
        let bigEndian = found.encoding == .utf16BigEndian || found.encoding == .utf32BigEndian
        let width = isUTF32 ? 4 : 2
        let values = stride(from: units.startIndex, to: units.endIndex - width + 1, by: width).map { start in
            let unit = units[start..<(start + width)]
            return (bigEndian ? Array(unit) : unit.reversed()).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        let text = isUTF32 ? String(String.UnicodeScalarView(values.map { Unicode.Scalar($0) ?? "\u{FFFD}" }))
            : String(decoding: values.map { UInt16(truncatingIfNeeded: $0) }, as: UTF16.self)
        return Data(text.utf8)
    }

    /// The UTF-16 or UTF-32 encoding a body's first bytes tell (a byte order mark, UTF-32LE's
    /// included, or the zero bytes of JSON text), and the mark's length.
    private static func wideEncoding(of body: Data) -> (encoding: String.Encoding, orderMark: Int)? {
        if body.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LittleEndian, 4) }
        return body.withUnsafeBytes { JSONText.encoding(of: $0.bindMemory(to: UInt8.self)) }
    }

    /// `utf8`, text read by ``utf8(_:fields:)`` from `original` and changed since, in the encoding
    /// `original` was in (its byte order mark kept), so that a body keeps the encoding its fields
    /// state.
    package static func encoded(_ utf8: Data, like original: Data, fields: HTTPFields) -> Data {
        let text = String(decoding: utf8, as: UTF8.self)
        if let declared = charset(in: fields[values: .contentType]), declared != .utf8 {
            // In the byte order `original` was read in, its mark and the bytes past its last whole
            // unit kept.
            let reading = reading(declared, of: original)
            guard let encoded = text.data(using: reading.encoding, allowLossyConversion: true) else { return utf8 }
            return original.prefix(reading.orderMark) + encoded + original.suffix((original.count - reading.orderMark) % reading.width)
        }
        guard let found = wideEncoding(of: original), let encoded = text.data(using: found.encoding) else {
            return utf8
        }
        // Bytes past the last whole unit are kept as they were.
        let width = found.encoding == .utf32LittleEndian || found.encoding == .utf32BigEndian ? 4 : 2
        return original.prefix(found.orderMark) + encoded + original.suffix((original.count - found.orderMark) % width)
    }

    /// How a body in the `declared` charset is read: in the byte order its byte order mark states
    /// (the mark's length given, to be kept), else the one its zero bytes tell over its first
    /// 4 KiB (ASCII is `41 00` in UTF-16LE under `charset=utf-16`, as Windows writes it), else
    /// big-endian (RFC 2781); and the width of a unit, whose bytes past the last whole one are
    /// kept as they are.
    private static func reading(_ declared: String.Encoding, of body: Data) -> (encoding: String.Encoding, orderMark: Int, width: Int) {
        let width: Int
        switch declared {
        case .utf16, .utf16BigEndian, .utf16LittleEndian: width = 2
        case .utf32, .utf32BigEndian, .utf32LittleEndian: width = 4
        default: return (declared, 0, 1)
        }
        let little = (width == 2 ? [0xFF, 0xFE] : [0xFF, 0xFE, 0x00, 0x00]) as [UInt8]
        let big = (width == 2 ? [0xFE, 0xFF] : [0x00, 0x00, 0xFE, 0xFF]) as [UInt8]
        let (littleEndian, bigEndian): (String.Encoding, String.Encoding) = width == 2 ? (.utf16LittleEndian, .utf16BigEndian) : (.utf32LittleEndian, .utf32BigEndian)
        if body.starts(with: little), declared != bigEndian { return (littleEndian, width, width) }
        if body.starts(with: big), declared != littleEndian { return (bigEndian, width, width) }
        guard declared == .utf16 || declared == .utf32 else { return (declared, 0, width) }
        // A unit's zero bytes: first in big-endian ASCII, last in little-endian.
        var (zerosFirst, zerosLast) = (0, 0)
        for (offset, byte) in body.prefix(4 << 10).enumerated() where byte == 0 {
            if offset % width == 0 { zerosFirst += 1 } else if offset % width == width - 1 { zerosLast += 1 }
        }
        return (zerosLast > zerosFirst ? littleEndian : bigEndian, 0, width)
    }

    /// The encoding a `Content-Type`'s `charset` names, for the charsets recordings hold.
    package static func charset(in contentTypes: [String]) -> String.Encoding? {
        for value in contentTypes {
            for parameter in value.split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { ASCII.lowercased($0.trimmingCharacters(in: [" ", "\t", "\""])) }
                guard pair.count == 2, pair[0] == "charset" else { continue }
                return encodings[pair[1]]
            }
        }
        return nil
    }

    private static let encodings: [String: String.Encoding] = [
        "utf-8": .utf8, "utf8": .utf8, "us-ascii": .utf8, "utf-16": .utf16, "utf-16le": .utf16LittleEndian, "utf-16be": .utf16BigEndian,
        "utf-32": .utf32, "utf-32le": .utf32LittleEndian, "utf-32be": .utf32BigEndian, "iso-8859-1": .isoLatin1, "latin1": .isoLatin1,
        "windows-1252": .windowsCP1252,
    ]

    /// Whether `data` starts as a zlib stream does (what `deflate` means in practice): a header
    /// whose method is deflate and whose check bits hold.
    private static func looksLikeZlib(_ data: Data) -> Bool {
        guard data.count >= 2 else { return false }
        let first = data[data.startIndex], second = data[data.startIndex + 1]
        return first & 0x0F == 8 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
    }
}
