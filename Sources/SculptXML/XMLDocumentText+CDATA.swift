import Foundation

extension XMLDocumentText {
    /// `document` with each CDATA section written as the escaped text it stands for.
    ///
    /// XMLCoder keeps text and CDATA as separate children of an element and decodes a value from
    /// the first, so `<v>x<![CDATA[y]]>z</v>` read as `"x"`. As escaped text, a CDATA section joins
    /// the text around it (`"xyz"`), and a section alone reads as before. Comments and processing
    /// instructions are copied as they are; a document without `<![CDATA[` is returned unchanged.
    static func withCDATAAsText(_ document: Data) -> Data {
        let open = Array("<![CDATA[".utf8)
        guard document.firstRange(of: open) != nil else { return document }
        var text = Data()
        text.reserveCapacity(document.count + document.count / 8)
        var index = document.startIndex
        while let markup = document[index...].firstIndex(of: UInt8(ascii: "<")) {
            text.append(document[index..<markup])
            let rest = document[markup...]
            let skipped: (closing: [UInt8], escaped: Bool)? =
                rest.starts(with: open) ? (Array("]]>".utf8), true)
                : rest.starts(with: Array("<!--".utf8)) ? (Array("-->".utf8), false)
                : rest.starts(with: Array("<?".utf8)) ? (Array("?>".utf8), false)
                : nil
            guard let skipped else {
                text.append(UInt8(ascii: "<"))
                index = markup + 1
                continue
            }
            let contentStart = skipped.escaped ? markup + open.count : markup
            guard let close = document[contentStart...].firstRange(of: skipped.closing) else {
                // Unterminated: left for the parser to report.
                text.append(document[markup...])
                return text
            }
            if skipped.escaped {
                appendEscaped(document[contentStart..<close.lowerBound], to: &text)
            } else {
                text.append(document[markup..<close.upperBound])
            }
            index = close.upperBound
        }
        text.append(document[index...])
        return text
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
