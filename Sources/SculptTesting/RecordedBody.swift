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
/// let text = BodyText(body, contentTypes: fields[values: .contentType]).utf8               // UTF-16 read as UTF-8
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

    /// Whether `body` reads as text (in UTF-8, or in UTF-16 or UTF-32 as `BodyText` tells them)
    /// with no control character but white space in its first 4 KiB. Compressed
    /// bytes never do.
    package static func isText(_ body: Data) -> Bool {
        // A cut in the middle of a character is not a fault: only the bytes before it are judged.
        let read = BodyText(body.prefix(4 << 10), contentTypes: [])
        return !String(decoding: read.utf8, as: UTF8.self).unicodeScalars.dropLast().contains { scalar in
            scalar == "\u{FFFD}" || read.isLoneUnit(scalar) || scalar.value < 0x20 && scalar != "\n" && scalar != "\r" && scalar != "\t" || scalar.value == 0x7F
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
    /// would get it: decompressed when it is a gzip or zlib stream.
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

    /// Whether `data` starts as a zlib stream does (what `deflate` means in practice): a header
    /// whose method is deflate and whose check bits hold.
    private static func looksLikeZlib(_ data: Data) -> Bool {
        guard data.count >= 2 else { return false }
        let first = data[data.startIndex], second = data[data.startIndex + 1]
        return first & 0x0F == 8 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
    }
}
