import Foundation

/// UTF-16 or UTF-32 in one byte order: how an XML document that is not ASCII-compatible is
/// written, known by its byte order mark or by how `<?` is written (XML 1.0, appendix F).
package struct WideTextEncoding: Equatable, Sendable {
    /// Bytes in a code unit: 2 or 4.
    package var unitSize: Int
    /// Whether a code unit's most significant byte comes first.
    package var isBigEndian: Bool
    /// Bytes of byte order mark before the text.
    package var markSize: Int

    /// The encoding `data` is written in, when it is UTF-16 or UTF-32.
    package init?(of data: Data) {
        let head = Array(data.prefix(4))
        switch head {
        case [0xFF, 0xFE, 0x00, 0x00]: self.init(unitSize: 4, isBigEndian: false, markSize: 4)
        case [0x00, 0x00, 0xFE, 0xFF]: self.init(unitSize: 4, isBigEndian: true, markSize: 4)
        case [0x3C, 0x00, 0x00, 0x00]: self.init(unitSize: 4, isBigEndian: false, markSize: 0)
        case [0x00, 0x00, 0x00, 0x3C]: self.init(unitSize: 4, isBigEndian: true, markSize: 0)
        default:
            switch head.prefix(2) {
            case [0xFF, 0xFE]: self.init(unitSize: 2, isBigEndian: false, markSize: 2)
            case [0xFE, 0xFF]: self.init(unitSize: 2, isBigEndian: true, markSize: 2)
            case [0x3C, 0x00]: self.init(unitSize: 2, isBigEndian: false, markSize: 0)
            case [0x00, 0x3C]: self.init(unitSize: 2, isBigEndian: true, markSize: 0)
            default: return nil
            }
        }
    }

    /// The encoding with `unitSize`-byte code units in one byte order, after a mark of `markSize` bytes.
    package init(unitSize: Int, isBigEndian: Bool, markSize: Int) {
        self.unitSize = unitSize
        self.isBigEndian = isBigEndian
        self.markSize = markSize
    }

    /// Its name as XML declarations write it: `UTF-16LE`, `UTF-32BE`.
    package var name: String { "UTF-\(unitSize * 8)\(isBigEndian ? "BE" : "LE")" }

    /// The text `data` holds after its byte order mark, every code unit checked.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the offset of the first code unit that
    ///   does not read (a lone surrogate, a value past U+10FFFF), or of bytes at the end too
    ///   few for a code unit: a wrong value is never read from them.
    package func text(of data: Data) throws(DecodingError) -> String {
        let leftOver = (data.count - markSize) % unitSize
        guard leftOver == 0 else {
            throw corrupted("The XML document is not valid \(name): it ends with \(leftOver) byte\(leftOver == 1 ? "" : "s") at offset \(data.count - leftOver), too few for a code unit of \(unitSize).")
        }
        let units = (data.count - markSize) / unitSize
        let decoded: Result<String, DecodingError> = data.withUnsafeBytes { bytes in
            let unit = { (index: Int) -> UInt32 in
                let first = markSize + index * unitSize
                var value: UInt32 = 0
                for byte in 0..<unitSize {
                    value = value << 8 | UInt32(bytes[first + (isBigEndian ? byte : unitSize - 1 - byte)])
                }
                return value
            }
            return unitSize == 2
                ? transcoded((0..<units).lazy.map { UInt16(truncatingIfNeeded: unit($0)) }, as: Unicode.UTF16.self)
                : transcoded((0..<units).lazy.map(unit), as: Unicode.UTF32.self)
        }
        return try decoded.get()
    }

    /// The byte offset in `data` of the character that starts at `offset` in `text`'s UTF-8
    /// (`text` being ``text(of:)``'s result for `data`).
    package func offset(ofUTF8 offset: Int, in text: String) -> Int {
        let before = String(decoding: text.utf8.prefix(offset), as: UTF8.self)
        return markSize + (unitSize == 2 ? before.utf16.count : before.unicodeScalars.count) * unitSize
    }

    private func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: description))
    }

    /// `units` as a string, or the error naming the byte offset of the first that does not read.
    private func transcoded<Encoding: Unicode.Encoding>(_ units: some Sequence<Encoding.CodeUnit>, as encoding: Encoding.Type) -> Result<String, DecodingError> {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(units.underestimatedCount)
        var parser = Encoding.ForwardParser()
        var iterator = units.makeIterator()
        var read = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                read += encoded.count
                Unicode.UTF8.encode(Encoding.decode(encoded)) { utf8.append($0) }
            case .emptyInput:
                return .success(String(decoding: utf8, as: UTF8.self))
            case .error(let length):
                let offset = markSize + read * unitSize
                return .failure(corrupted("The XML document is not valid \(name): \(length) code unit\(length == 1 ? "" : "s") at offset \(offset) do\(length == 1 ? "es" : "") not read as a character (a lone surrogate or a value past U+10FFFF)."))
            }
        }
    }
}
