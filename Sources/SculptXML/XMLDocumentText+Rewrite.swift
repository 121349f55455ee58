import Foundation

extension XMLDocumentText {
    /// `document` rewritten where XMLCoder or FoundationXML would read it wrongly, with the same
    /// meaning; the document itself when nothing needs it (one pass over its markup, no copy).
    ///
    /// - A CDATA section becomes the escaped text it stands for. XMLCoder keeps text and CDATA as
    ///   separate children of an element and decodes a value from the first, so
    ///   `<v>x<![CDATA[y]]>z</v>` read as `"x"`; as text it joins the text around it (`"xyz"`).
    /// - A processing instruction with no data (`<?target?>`) gets a space (`<?target ?>`, whose
    ///   data is empty). FoundationXML on Linux (Swift 6.3.1) reads a missing data pointer as a C
    ///   string and crashes the process (found by FuzzXML).
    ///
    /// Comments are copied as they are; markup that does not end is left for the parser to report.
    static func rewritten(_ document: Data) -> Data {
        var rewritten = Data()
        var copied = document.startIndex
        var index = document.startIndex
        func replace(_ range: Range<Int>, with replacement: (inout Data) -> Void) {
            if copied == document.startIndex { rewritten.reserveCapacity(document.count + document.count / 8) }
            rewritten.append(document[copied..<range.lowerBound])
            replacement(&rewritten)
            copied = range.upperBound
        }
        while let markup = document[index...].firstIndex(of: UInt8(ascii: "<")) {
            let rest = document[markup...]
            if rest.starts(with: cdataOpen) {
                let content = markup + cdataOpen.count
                guard let close = document[content...].firstRange(of: cdataClose) else { break }
                replace(markup..<close.upperBound) { appendEscaped(document[content..<close.lowerBound], to: &$0) }
                index = close.upperBound
            } else if rest.starts(with: commentOpen) {
                guard let close = document[(markup + commentOpen.count)...].firstRange(of: commentClose) else { break }
                index = close.upperBound
            } else if rest.starts(with: instructionOpen) {
                let content = markup + instructionOpen.count
                guard let close = document[content...].firstRange(of: instructionClose) else { break }
                if !document[content..<close.lowerBound].contains(where: isSpace) {
                    replace(close.lowerBound..<close.lowerBound) { $0.append(UInt8(ascii: " ")) }
                }
                index = close.upperBound
            } else {
                index = markup + 1
            }
        }
        guard copied > document.startIndex else { return document }
        rewritten.append(document[copied...])
        return rewritten
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
