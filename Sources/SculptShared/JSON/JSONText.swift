import Foundation

/// A body's bytes as JSON text in UTF-8, the way `JSONDecoder` reads its encoding: a body in UTF-16
/// or UTF-32 (told by a byte order mark or by the zero bytes ASCII leaves) is transcoded, and
/// offsets into the UTF-8 map back to offsets into the body as it arrived. What reads JSON bytes
/// itself (the type-field peek, the nesting check, the search for secrets a description hides)
/// reads them through this.
///
/// ```swift
/// let text = JSONText(body)               // nil: UTF-16 that does not decode
/// text?.utf8                              // the text, transcoded when it had to be
/// text?.originalOffset(of: 12)            // where byte 12 of the UTF-8 lies in `body`
/// ```
package struct JSONText: Sendable {
    /// The text in UTF-8: the body itself when it is UTF-8 (a byte order mark still in front).
    package let utf8: Data
    /// The body's encoding when it is not UTF-8, and the length of its byte order mark.
    package let transcodedFrom: (encoding: String.Encoding, orderMark: Int)?
    private let original: Data

    /// The body as UTF-8 text; `nil` for a body that looks like UTF-16 or UTF-32 but does not
    /// decode as it.
    package init?(_ body: Data) {
        self.init(body, upTo: body.count)
    }

    /// The start of the body, about `limit` bytes of it, as UTF-8 text: for a reader that needs
    /// no more (a description), a UTF-16 or UTF-32 body is cut on a whole code unit, and a
    /// surrogate pair cut in two is left out. With `readingUTF32LEMark`, a body that starts with
    /// UTF-32LE's mark (`FF FE 00 00`) is read as UTF-32LE, as an XML decoder reads it (what a
    /// description needs): `JSONDecoder` takes it for UTF-16LE that starts with a NUL, which it
    /// refuses, so no value it decodes is read otherwise.
    package init?(_ body: Data, upTo limit: Int, readingUTF32LEMark: Bool = false) {
        original = body
        let marked: (encoding: String.Encoding, orderMark: Int)? =
            readingUTF32LEMark && body.starts(with: [0xFF, 0xFE, 0x00, 0x00]) ? (.utf32LittleEndian, 4) : nil
        guard let found = marked ?? body.withUnsafeBytes({ Self.encoding(of: $0.bindMemory(to: UInt8.self)) }) else {
            utf8 = body.prefix(limit)
            transcodedFrom = nil
            return
        }
        let cut = body.count > limit ? limit - limit % 4 : body.count
        let encoded = body.prefix(cut).dropFirst(found.orderMark)
        guard let text = String(data: encoded, encoding: found.encoding)
            ?? (cut < body.count ? String(data: encoded.dropLast(2), encoding: found.encoding) : nil)
        else { return nil }
        utf8 = Data(text.utf8)
        transcodedFrom = found
    }

    /// The offset in the body as it arrived of the character at `offset` in ``utf8``.
    package func originalOffset(of offset: Int) -> Int {
        guard let (encoding, orderMark) = transcodedFrom else { return offset }
        let isUTF32 = encoding == .utf32BigEndian || encoding == .utf32LittleEndian
        var result = orderMark
        var consumed = 0
        for scalar in String(decoding: utf8, as: UTF8.self).unicodeScalars {
            guard consumed < offset else { break }
            consumed += UTF8.width(scalar)
            result += isUTF32 ? 4 : UTF16.width(scalar) * 2
        }
        return min(result, original.count)
    }

    /// Whether the body may be UTF-16 or UTF-32: a first look, for callers that read UTF-8 in
    /// place and come here only when they must.
    package static func mayNeedTranscoding(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && (bytes[0] == 0x00 || bytes[1] == 0x00 || bytes[0] == 0xFE || bytes[0] == 0xFF)
    }

    /// The body's encoding when it is UTF-16 or UTF-32, and the length of the byte order mark
    /// before the text (0 when the encoding is told by the zero bytes ASCII characters leave);
    /// `nil` for UTF-8. Exactly as `JSONDecoder` detects it, quirks included: it takes a body
    /// starting `FE FF 00 00` for UTF-32LE after a 4-byte mark (the UTF-32LE mark, `FF FE 00 00`,
    /// with its first two bytes swapped), and one starting `FF FE 00 00` for UTF-16LE after a
    /// 2-byte mark, followed by a NUL. It looks for marks and zeros only in a body of 4 bytes or
    /// more, and at zeros alone in one of exactly 2 (a 3-byte body is UTF-8 to it, whatever its
    /// zeros).
    package static func encoding(of bytes: UnsafeBufferPointer<UInt8>) -> (encoding: String.Encoding, orderMark: Int)? {
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
        guard bytes.count == 2 else { return nil }
        if bytes[0] == 0x00 { return (.utf16BigEndian, 0) }
        if bytes[1] == 0x00 { return (.utf16LittleEndian, 0) }
        return nil
    }
}
