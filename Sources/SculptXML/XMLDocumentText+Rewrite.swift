import Foundation
import SculptShared
import Sculpt

extension XMLDocumentText {
    /// `document` rewritten where XMLCoder or FoundationXML would read it wrongly or slowly, with
    /// the same meaning; the document itself when nothing needs it (no copy).
    ///
    /// - An element's text that would reach XMLCoder in pieces (it holds a reference, a CDATA
    ///   section or a carriage return) becomes one CDATA section of the text it stands for (see ``XMLElementText``). XMLCoder copies the
    ///   whole text at each piece, and keeps text and CDATA as separate values of which it reads
    ///   the first (`<v>x<![CDATA[y]]>z</v>` would read as `"x"`) and drops white space between
    ///   two references (`&#38; &#38;` would read as `"&&"`). As one section, it reads whole.
    /// - Every `<?name?>` (a processing instruction with no data) outside CDATA sections gets a
    ///   space, `<?name ?>`, whose data is empty. FoundationXML on Linux (Swift 6.3.1) reads the
    ///   missing data as a C string and crashes the process. Every occurrence
    ///   is changed, not only those this pass would read as instructions: libxml2 resumes after an
    ///   error (a declaration that does not end) and reads an instruction wherever it resumes.
    ///
    /// Markup that does not end is left for the parser to report.
    ///
    /// - Throws: `DecodingError.dataCorrupted` for text that would cost XMLCoder more than
    ///   ``XMLElementText/maximumPieceWork`` to join.
    static func rewritten(_ document: Data) throws -> Data {
        let document = document.startIndex == 0 ? document : Data(document)
        return withDataInEveryInstruction(try withTextInOnePiece(document))
    }

    private static func withTextInOnePiece(_ document: Data) throws -> Data {
        try document.withUnsafeBytes { bytes in
            var rewrite = ByteRewrite(document)
            var depth = 0
            var index = 0
            // Where the text since the last tag begins.
            var textStart = 0
            while let open = bytes.offset(of: UInt8(ascii: "<"), from: index) {
                // Sections, comments and instructions are part of the text around them.
                if let close = [(cdataOpen, cdataClose), (commentOpen, commentClose), (instructionOpen, instructionClose)]
                    .first(where: { bytes.has($0.0, at: open) }).map({ $0.1 }) {
                    guard let end = bytes.offset(of: close, from: open + 2) else { break }
                    index = end + close.count
                    continue
                }
                if depth > 0, textStart < open {
                    try rewriteText(bytes, textStart..<open, into: &rewrite)
                }
                guard let end = tagEnd(in: bytes, from: open + 1) else { break }
                switch bytes[open + 1] {
                case UInt8(ascii: "/"): depth = max(0, depth - 1)
                case UInt8(ascii: "!"): break
                default: if bytes[end - 1] != UInt8(ascii: "/") { depth += 1 }
                }
                index = end + 1
                textStart = index
            }
            return rewrite.result
        }
    }

    /// Replaces the text in `range` with one section when the parser would hand it over in pieces.
    private static func rewriteText(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>, into rewrite: inout ByteRewrite) throws {
        guard XMLElementText.isInPieces(bytes, range) else { return }
        let text = XMLElementText(bytes, range)
        if text.exceedsPieceWork {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: """
                The XML document's text at byte \(range.lowerBound) (\(range.count) bytes) would reach XMLCoder in \(text.pieces) pieces, \
                and XMLCoder copies the whole text for each: Sculpt reads no text whose pieces times bytes pass \(XMLElementText.maximumPieceWork). \
                Text reads in one piece unless it holds a comment or processing instruction, or holds ]]> many times.
                """))
        }
        guard let section = text.section else { return }
        rewrite.replace(range) { $0.append(contentsOf: section) }
    }

    /// The offset of the `>` that closes the tag whose name starts at `start`, skipping quoted values.
    private static func tagEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var quote: UInt8?
        for index in start..<bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
        }
        return nil
    }

    private static func withDataInEveryInstruction(_ document: Data) -> Data {
        document.withUnsafeBytes { bytes in
            var rewrite = ByteRewrite(document)
            var closes = CloseFinder(bytes)
            var index = 0
            // Where the comment or instruction being passed through ends: inside one, `<![CDATA[`
            // opens no section, but an instruction without data still gets its space.
            var markupEnd = 0
            while let open = bytes.offset(of: UInt8(ascii: "<"), from: index) {
                index = open + 1
                if open >= markupEnd, bytes.has(cdataOpen, at: open) {
                    // A CDATA section's content is text, whatever it looks like; one that does
                    // not end is not a section.
                    if let close = closes.first(cdataClose, from: open + cdataOpen.count) { index = close + cdataClose.count }
                } else if open >= markupEnd, bytes.has(commentOpen, at: open) {
                    markupEnd = closes.first(commentClose, from: open + commentOpen.count).map { $0 + commentClose.count } ?? markupEnd
                } else if bytes.has(instructionOpen, at: open) {
                    if open >= markupEnd {
                        markupEnd = closes.first(instructionClose, from: open + instructionOpen.count).map { $0 + instructionClose.count } ?? markupEnd
                    }
                    let nameStart = open + instructionOpen.count
                    var nameEnd = nameStart
                    while nameEnd < bytes.count, !isSpace(bytes[nameEnd]), ![UInt8(ascii: "?"), UInt8(ascii: "<"), UInt8(ascii: ">")].contains(bytes[nameEnd]) {
                        nameEnd += 1
                    }
                    if nameEnd > nameStart, bytes.has(instructionClose, at: nameEnd) {
                        rewrite.replace(nameEnd..<nameEnd) { $0.append(UInt8(ascii: " ")) }
                    }
                    index = max(nameStart, nameEnd)
                }
            }
            return rewrite.result
        }
    }

    private static let cdataOpen = Array("<![CDATA[".utf8)
    private static let cdataClose = Array("]]>".utf8)
    private static let commentOpen = Array("<!--".utf8)
    private static let commentClose = Array("-->".utf8)
    private static let instructionOpen = Array("<?".utf8)
    private static let instructionClose = Array("?>".utf8)

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
