import Foundation

extension XMLDocumentText {
    /// `document` rewritten where XMLCoder or FoundationXML would read it wrongly, with the same
    /// meaning; the document itself when nothing needs it (no copy).
    ///
    /// - A CDATA section becomes the escaped text it stands for. XMLCoder keeps text and CDATA as
    ///   separate children of an element and decodes a value from the first, so
    ///   `<v>x<![CDATA[y]]>z</v>` read as `"x"`; as text it joins the text around it (`"xyz"`).
    ///   Comments are copied as they are.
    /// - Every `<?name?>` (a processing instruction with no data) gets a space, `<?name ?>`, whose
    ///   data is empty. FoundationXML on Linux (Swift 6.3.1) reads the missing data as a C string
    ///   and crashes the process (found by FuzzXML). Every occurrence in the bytes is changed, not
    ///   only those this pass would read as instructions: libxml2 resumes after an error (a
    ///   declaration that does not end) and reads an instruction wherever it resumes.
    ///
    /// Markup that does not end is left for the parser to report.
    static func rewritten(_ document: Data) -> Data {
        withDataInEveryInstruction(withCDATAAsText(document))
    }

    private static func withCDATAAsText(_ document: Data) -> Data {
        guard document.firstRange(of: cdataOpen) != nil else { return document }
        var rewrite = ByteRewrite(document)
        var index = document.startIndex
        while let markup = document[index...].firstIndex(of: UInt8(ascii: "<")) {
            let rest = document[markup...]
            if rest.starts(with: cdataOpen) {
                let content = markup + cdataOpen.count
                guard let close = document[content...].firstRange(of: cdataClose) else { break }
                rewrite.replace(markup..<close.upperBound) { appendEscaped(document[content..<close.lowerBound], to: &$0) }
                index = close.upperBound
            } else if rest.starts(with: commentOpen) {
                guard let close = document[(markup + commentOpen.count)...].firstRange(of: commentClose) else { break }
                index = close.upperBound
            } else {
                index = markup + 1
            }
        }
        return rewrite.result
    }

    private static func withDataInEveryInstruction(_ document: Data) -> Data {
        var rewrite = ByteRewrite(document)
        var index = document.startIndex
        while let open = document[index...].firstRange(of: instructionOpen) {
            let name = document[open.upperBound...].prefix { !isSpace($0) && $0 != UInt8(ascii: "?") }
            if !name.isEmpty, document[name.endIndex...].starts(with: instructionClose) {
                rewrite.replace(name.endIndex..<name.endIndex) { $0.append(UInt8(ascii: " ")) }
            }
            index = open.upperBound
        }
        return rewrite.result
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

    private static func appendEscaped(_ bytes: Data, to text: inout Data) {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "&"): text.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): text.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): text.append(contentsOf: "&gt;".utf8)
            default: text.append(byte)
            }
        }
    }
}

/// A copy of some bytes with ranges replaced, made only when the first range is.
private struct ByteRewrite {
    private let original: Data
    private var rewritten = Data()
    private var copied: Int
    private var changed = false

    init(_ original: Data) {
        self.original = original
        copied = original.startIndex
    }

    /// Replaces `range` (after every range replaced so far) with what `replacement` appends.
    mutating func replace(_ range: Range<Int>, with replacement: (inout Data) -> Void) {
        if !changed { rewritten.reserveCapacity(original.count + original.count / 8) }
        changed = true
        rewritten.append(original[copied..<range.lowerBound])
        replacement(&rewritten)
        copied = range.upperBound
    }

    /// The bytes with every replacement made; the original when there was none.
    var result: Data {
        guard changed else { return original }
        return rewritten + original[copied...]
    }
}
