import Foundation

/// A body's text in UTF-8 for a reader of what it says (secrets, shapes), and the way back into
/// the encoding it was in for a writer that changed it (redaction): one reading for a whole body
/// and for each part of a multipart body, so that every reader and writer of recordings agrees on
/// what a body says.
///
/// ```swift
/// let text = BodyText(body, contentTypes: fields[values: .contentType])   // UTF-16 read as UTF-8
/// let written = text.encoded(changed)                                      // back in UTF-16
/// ```
///
/// A body is read in the UTF-16 or UTF-32 its `Content-Type`'s `charset` names (`utf-16`,
/// `utf-16le`, `utf-32`), else in the one its byte order mark names (a mark wins over a one-byte
/// charset, as JSON readers read it), else in the one-byte charset named (`iso-8859-1`,
/// `windows-1252`), else in UTF-16 or UTF-32 when the zero bytes of its text say so, else as it
/// is. Only whole code units are read; the bytes past the last whole one, and every code unit that
/// is no character (a lone surrogate, a UTF-32 value past U+10FFFF), are written back as they were.
package struct BodyText: Sendable {
    /// The text in UTF-8: the body itself when it is UTF-8 or in no encoding known here.
    package let utf8: Data
    /// Whether the body was read in another encoding than UTF-8. Such a body may be text in
    /// another encoding that only starts as UTF-16 does (`FF FE 41 00` and then ASCII), or under a
    /// charset it is not in: a reader of secrets reads it byte by byte too.
    package var isTranscoded: Bool { encoding != nil }

    private let original: Data
    private let encoding: Encoding?

    private enum Encoding: Sendable {
        /// One byte a character (ISO 8859-1, Windows-1252).
        case bytes(String.Encoding)
        /// UTF-16 or UTF-32 code units, and those that are no character.
        case wide(WideTextEncoding, lone: LoneUnits?)
    }

    /// The code units of a body that are no character, each read as a private-use character
    /// (`base` and on, one for each in order) that writes it back.
    private struct LoneUnits: Sendable {
        var base: UInt32
        var units: [UInt32]

        /// The unit `scalar` stands for, if it stands for one.
        func unit(for scalar: Unicode.Scalar) -> UInt32? {
            scalar.value >= base && scalar.value - base < units.count ? units[Int(scalar.value - base)] : nil
        }
    }

    /// The text of `body` as its `contentTypes` describe it.
    ///
    /// - Parameters:
    ///   - body: the bytes.
    ///   - contentTypes: the `Content-Type` values that describe them.
    package init(_ body: Data, contentTypes: [String]) {
        original = body
        let declared = Self.charset(in: contentTypes)
        if let declared, let wide = Self.reading(declared, of: body), let text = Self.read(body, as: wide) {
            (utf8, encoding) = (text.utf8, text.encoding)
        } else if let marked = Self.byteOrderMark(of: body), let text = Self.read(body, as: marked) {
            (utf8, encoding) = (text.utf8, text.encoding)
        } else if let declared, declared != .utf8, let text = String(data: body, encoding: declared) {
            (utf8, encoding) = (Data(text.utf8), .bytes(declared))
        } else if let text = Self.wideText(of: body, multipart: MultipartBody.isMultipart(contentTypes)) {
            (utf8, encoding) = (text.utf8, text.encoding)
        } else {
            (utf8, encoding) = (body, nil)
        }
    }

    /// `changed`, text this body's ``utf8`` was changed into, in the body's encoding: its byte
    /// order mark kept, and the bytes past its last whole code unit.
    ///
    /// - Parameter changed: UTF-8 text.
    /// - Returns: the text as the body writes it; `changed` itself for a body read as UTF-8.
    package func encoded(_ changed: Data) -> Data {
        switch encoding {
        case nil: return changed
        case .bytes(let encoding):
            return String(decoding: changed, as: UTF8.self).data(using: encoding, allowLossyConversion: true) ?? changed
        case .wide(let wide, let lone):
            var units: [UInt32] = []
            for scalar in String(decoding: changed, as: UTF8.self).unicodeScalars {
                if let unit = lone?.unit(for: scalar) {
                    units.append(unit)
                } else if wide.unitSize == 4 {
                    units.append(scalar.value)
                } else {
                    units += UTF16.encode(scalar)?.map(UInt32.init) ?? []
                }
            }
            var bytes = Data(original.prefix(wide.markSize))
            bytes.reserveCapacity(wide.markSize + units.count * wide.unitSize + wide.unitSize)
            for unit in units {
                for byte in 0..<wide.unitSize {
                    let shift = (wide.isBigEndian ? wide.unitSize - 1 - byte : byte) * 8
                    bytes.append(UInt8(truncatingIfNeeded: unit >> shift))
                }
            }
            return bytes + original.suffix((original.count - wide.markSize) % wide.unitSize)
        }
    }

    /// `changed`, bytes of this body's encoding (`base`) changed byte by byte (a secret replaced
    /// where they read as text in a one-byte encoding), with spaces after the last change so that
    /// the code units after it are where they were: a body read as UTF-16 or UTF-32 still reads so.
    package func aligning(_ changed: Data, from base: Data) -> Data {
        guard case .wide(let wide, _) = encoding else { return changed }
        let pad = ((base.count - changed.count) % wide.unitSize + wide.unitSize) % wide.unitSize
        guard pad != 0 else { return changed }
        // The changes lie between the bytes both share at the start and those at the end.
        let prefix = zip(base, changed).prefix { $0 == $1 }.count
        let suffix = min(zip(base.reversed(), changed.reversed()).prefix { $0 == $1 }.count, min(base.count, changed.count) - prefix)
        let end = changed.count - suffix
        return changed.prefix(end) + Data(repeating: UInt8(ascii: " "), count: pad) + changed.dropFirst(end)
    }

    /// Whether `bytes`, read in another encoding than UTF-8, are that text whatever else they may
    /// be: a zero byte past their first four (a byte order mark and one code unit) is one a code
    /// unit of ASCII or punctuation leaves, where text in a one-byte encoding has none; bytes
    /// without one may be text in another encoding that only starts as UTF-16 does.
    package static func holdsWideText(_ bytes: Data) -> Bool {
        bytes.dropFirst(4).contains(0)
    }

    /// Whether `scalar`, in ``utf8``, stands for a code unit of the body that is no character (a
    /// lone surrogate).
    package func isLoneUnit(_ scalar: Unicode.Scalar) -> Bool {
        guard case .wide(_, let lone?) = encoding else { return false }
        return lone.unit(for: scalar) != nil
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

    /// `body` read as `wide`, each code unit that is no character read as a private-use character
    /// that writes it back: from U+F0000 on, or U+100000 when the text holds characters of the
    /// first private-use plane itself (U+FFFD when it holds both, or more than 65,534 such units);
    /// `nil` when `strict` and it holds such a unit.
    private static func read(_ body: Data, as wide: WideTextEncoding, strict: Bool = false) -> (utf8: Data, encoding: Encoding)? {
        let units = codeUnits(of: body, as: wide)
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(units.count)
        var lone: [(position: Int, unit: UInt32)] = []
        var planesUsed: Set<UInt32> = []
        var index = 0
        while index < units.count {
            let unit = units[index]
            index += 1
            if wide.unitSize == 2, (0xD800..<0xDC00).contains(unit), index < units.count, (0xDC00..<0xE000).contains(units[index]),
                let scalar = Unicode.Scalar(0x10000 + (unit - 0xD800) << 10 + (units[index] - 0xDC00)) {
                planesUsed.insert(scalar.value >> 16)
                scalars.append(scalar)
                index += 1
            } else if let scalar = Unicode.Scalar(unit) {
                if unit >= 0xF0000 { planesUsed.insert(unit >> 16) }
                scalars.append(scalar)
            } else {
                guard !strict else { return nil }
                lone.append((scalars.count, unit))
                scalars.append("\u{FFFD}")
            }
        }
        guard !lone.isEmpty else { return (Data(String(String.UnicodeScalarView(scalars)).utf8), .wide(wide, lone: nil)) }
        // The private-use planes, 15 and 16, hold 65,534 characters each.
        let base: UInt32? = lone.count > 0xFFFE ? nil : !planesUsed.contains(0xF) ? 0xF0000 : !planesUsed.contains(0x10) ? 0x100000 : nil
        if let base {
            for (offset, unit) in lone.enumerated() { scalars[unit.position] = Unicode.Scalar(base + UInt32(offset)) ?? "\u{FFFD}" }
        }
        let text = String(String.UnicodeScalarView(scalars))
        return (Data(text.utf8), .wide(wide, lone: base.map { LoneUnits(base: $0, units: lone.map(\.unit)) }))
    }

    /// The whole code units of `body` after its byte order mark.
    private static func codeUnits(of body: Data, as wide: WideTextEncoding) -> [UInt32] {
        let bytes = [UInt8](body.dropFirst(wide.markSize))
        return stride(from: 0, to: bytes.count - bytes.count % wide.unitSize, by: wide.unitSize).map { start in
            (0..<wide.unitSize).reduce(UInt32(0)) { value, byte in
                value << 8 | UInt32(bytes[start + (wide.isBigEndian ? byte : wide.unitSize - 1 - byte)])
            }
        }
    }

    /// How a body in the `declared` charset is read when the charset is UTF-16 or UTF-32: in the
    /// byte order its byte order mark states (the mark kept), else the one its zero bytes tell over
    /// its first 4 KiB (ASCII is `41 00` in UTF-16LE under `charset=utf-16`, as Windows writes it),
    /// else big-endian (RFC 2781).
    private static func reading(_ declared: String.Encoding, of body: Data) -> WideTextEncoding? {
        let width: Int
        switch declared {
        case .utf16, .utf16BigEndian, .utf16LittleEndian: width = 2
        case .utf32, .utf32BigEndian, .utf32LittleEndian: width = 4
        default: return nil
        }
        let little = (width == 2 ? [0xFF, 0xFE] : [0xFF, 0xFE, 0x00, 0x00]) as [UInt8]
        let big = (width == 2 ? [0xFE, 0xFF] : [0x00, 0x00, 0xFE, 0xFF]) as [UInt8]
        let (littleEndian, bigEndian): (String.Encoding, String.Encoding) = width == 2 ? (.utf16LittleEndian, .utf16BigEndian) : (.utf32LittleEndian, .utf32BigEndian)
        if body.starts(with: little), declared != bigEndian { return WideTextEncoding(unitSize: width, isBigEndian: false, markSize: width) }
        if body.starts(with: big), declared != littleEndian { return WideTextEncoding(unitSize: width, isBigEndian: true, markSize: width) }
        guard declared == .utf16 || declared == .utf32 else { return WideTextEncoding(unitSize: width, isBigEndian: declared == bigEndian, markSize: 0) }
        let zeros = zeroBytes(in: body, width: width)
        return WideTextEncoding(unitSize: width, isBigEndian: zeros.last <= zeros.first, markSize: 0)
    }

    /// How many zero bytes the first 4 KiB of `body` have first in a code unit of `width`, and
    /// how many last: first in big-endian ASCII, last in little-endian.
    private static func zeroBytes(in body: Data, width: Int) -> (first: Int, last: Int, other: Int) {
        var counts = (first: 0, last: 0, other: 0)
        for (offset, byte) in body.prefix(4 << 10).enumerated() where byte == 0 {
            switch offset % width {
            case 0: counts.first += 1
            case width - 1: counts.last += 1
            default: counts.other += 1
            }
        }
        return counts
    }

    /// The UTF-16 or UTF-32 a byte order mark at the start of `body` names.
    private static func byteOrderMark(of body: Data) -> WideTextEncoding? {
        let head = [UInt8](body.prefix(4))
        if head == [0xFF, 0xFE, 0x00, 0x00] { return WideTextEncoding(unitSize: 4, isBigEndian: false, markSize: 4) }
        if head == [0x00, 0x00, 0xFE, 0xFF] { return WideTextEncoding(unitSize: 4, isBigEndian: true, markSize: 4) }
        if head.starts(with: [0xFF, 0xFE]) { return WideTextEncoding(unitSize: 2, isBigEndian: false, markSize: 2) }
        if head.starts(with: [0xFE, 0xFF]) { return WideTextEncoding(unitSize: 2, isBigEndian: true, markSize: 2) }
        return nil
    }

    /// The text of a body with no `charset` when it is in UTF-16 or UTF-32: by its first bytes as
    /// `JSONDecoder` tells them (a byte order mark, UTF-32LE's included, or the zero bytes of
    /// ASCII); else, for a body that is not multipart (whose parts are framed in ASCII and read
    /// each as its own), by its zero bytes: in UTF-32, a zero top byte in every code unit; in
    /// UTF-16, zero bytes in one place in a unit only, and in an eighth of its units or more;
    /// and then only when every code unit reads as a character.
    private static func wideText(of body: Data, multipart: Bool) -> (utf8: Data, encoding: Encoding)? {
        if body.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return read(body, as: WideTextEncoding(unitSize: 4, isBigEndian: false, markSize: 4)) }
        if let found = body.withUnsafeBytes({ JSONText.encoding(of: $0.bindMemory(to: UInt8.self)) }) {
            let isUTF32 = found.encoding == .utf32LittleEndian || found.encoding == .utf32BigEndian
            let isBigEndian = found.encoding == .utf16BigEndian || found.encoding == .utf32BigEndian
            return read(body, as: WideTextEncoding(unitSize: isUTF32 ? 4 : 2, isBigEndian: isBigEndian, markSize: found.orderMark))
        }
        // Told by zero bytes alone, it must read whole.
        guard !multipart, body.count >= 4 else { return nil }
        let head = [UInt8](body.prefix(4 << 10))
        let whole = head.count - head.count % 4
        for isBigEndian in [false, true] {
            let (top, next) = isBigEndian ? (0, 1) : (3, 2)
            if stride(from: 0, to: whole, by: 4).allSatisfy({ head[$0 + top] == 0 && head[$0 + next] <= 0x10 }) {
                return read(body, as: WideTextEncoding(unitSize: 4, isBigEndian: isBigEndian, markSize: 0), strict: true)
            }
        }
        let zeros = zeroBytes(in: body, width: 2)
        let units = min(body.count, 4 << 10) / 2
        guard zeros.first == 0 || zeros.last == 0, max(zeros.first, zeros.last) * 8 >= units, max(zeros.first, zeros.last) >= 2 else { return nil }
        return read(body, as: WideTextEncoding(unitSize: 2, isBigEndian: zeros.first > 0, markSize: 0), strict: true)
    }
}
