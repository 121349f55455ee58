import Foundation
import SculptShared
import Sculpt

/// An XML document made valid UTF-8 before any parser reads it.
///
/// FoundationXML's `XMLParser` on Linux traps (a crash, not an error) when libxml2 hands it an
/// element name that is not valid UTF-8: `<r><titl\u{E5}>` in a document read as UTF-8 ends the
/// process (swift-corelibs-foundation, Swift 6.3.1). A response is the server's
/// to write, so every document is checked first: UTF-8 as it is, when valid; UTF-16 and UTF-32
/// (by byte order mark or by the XML declaration's first bytes) and the declared single-byte
/// encodings Foundation can read (ISO-8859-1, US-ASCII, Windows-1252) transcoded to UTF-8 with the
/// declaration's `encoding` removed; anything else refused with the reason.
enum XMLDocumentText {
    /// `data` as a UTF-8 document a parser can read safely: valid UTF-8, one root element and
    /// nothing but markup beside it, at most `maximumDepth` levels of elements, no DTD internal
    /// subset, no entity but XML's own five, and (on Linux) no larger than FoundationXML's
    /// parser reads; rewritten where XMLCoder or FoundationXML would misread it (see ``rewritten(_:)``).
    ///
    /// - Throws: `DecodingError.dataCorrupted` saying which, and where.
    static func readable(_ data: Data, maximumDepth: Int) throws -> Data {
        // No encoding takes more than four times the bytes of UTF-8: a larger body is refused unread.
        try checkSize(data.count / 4, of: data)
        let document = try utf8(data)
        try checkSize(document.count, of: document)
        // Offsets are the UTF-8 document's: said so when it is not the body as sent.
        let read = document == data ? "" : " of the document read as UTF-8"
        switch XMLMarkup.firstFinding(in: document, maximumDepth: maximumDepth) {
        case nil:
            let rewritten = try rewritten(document)
            // Text written as one section can be a few bytes longer than its references were.
            try checkSize(rewritten.count, of: rewritten, rewrittenFrom: data)
            return rewritten
        case .tooDeep(let offset):
            throw corrupted("The XML document nests elements deeper than \(maximumDepth) levels: level \(maximumDepth + 1) opens at byte \(offset)\(read).")
        case .internalSubset(let offset):
            throw corrupted("The XML document declares a DTD internal subset at byte \(offset)\(read): Sculpt reads no document that declares entities (their expansion is unbounded).")
        case .besideRootElement(let offset):
            throw corrupted("The XML document has text or a second element outside its root element at byte \(offset)\(read): XML allows one root element.")
        case .noRootElement:
            throw corrupted("The XML document has no root element.")
        case .tooManyAttributes(let offset):
            throw corrupted("The XML document's element at byte \(offset)\(read) has more than \(XMLMarkup.mostAttributes) attributes: FoundationXML's parser takes time that grows faster than their number.")
        case .unclosed(let markup, let offset):
            throw corrupted("The XML document has \(markup) that does not end, opened at byte \(offset)\(read).")
        case .undeclaredEntity(let offset):
            throw corrupted("The XML document refers to an entity that is not declared at byte \(offset)\(read): Sculpt reads no DTD, so only XML's own (&amp; &lt; &gt; &quot; &apos;) and character references have a value.")
        }
    }

    /// `data` as a UTF-8 document.
    ///
    /// - Throws: `DecodingError.dataCorrupted` naming the first invalid byte and its offset, an
    ///   encoding that does not read, or an encoding that is not supported.
    static func utf8(_ data: Data) throws -> Data {
        if let wide = WideTextEncoding(of: data) {
            return Data(withoutEncodingDeclaration(try wide.text(of: data)).utf8)
        }
        let declared = XMLDeclaredEncoding.name(in: data).map(ASCII.lowercased)
        switch declared {
        case nil, "utf-8", "utf8":
            if let offset = firstInvalidUTF8Offset(in: data) {
                throw corrupted("The XML document is not valid UTF-8: byte 0x\(String(data[data.startIndex + offset], radix: 16, uppercase: true)) at offset \(offset).")
            }
            return data
        case let name?:
            guard let encoding = XMLDeclaredEncoding.singleByte[name] else {
                throw corrupted("The XML document's encoding \(printable(name)) is not one Sculpt reads (UTF-8; UTF-16 and UTF-32 by their byte order mark or first bytes; ISO-8859-1, US-ASCII, Windows-1252).")
            }
            guard let text = String(data: data, encoding: encoding) else {
                throw corrupted("The XML document is not valid \(name).")
            }
            return Data(withoutEncodingDeclaration(text).utf8)
        }
    }

    /// Refuses a document of `size` bytes of UTF-8 where FoundationXML's parser (on Linux) reads
    /// fewer; elsewhere, nothing.
    private static func checkSize(_ size: Int, of document: Data, rewrittenFrom sent: Data? = nil) throws {
        #if canImport(FoundationXML)
        guard size > XMLModelDecoder.maximumDocumentSize else { return }
        let written = sent.map { " once its text is written in one piece (\($0.count) as sent)" } ?? ""
        throw corrupted("The XML document is \(document.count) bytes\(written); FoundationXML's parser reads at most \(XMLModelDecoder.maximumDocumentSize) bytes of UTF-8 (libxml2's limit).")
        #endif
    }

    /// `text` with its XML declaration's `encoding` removed: the bytes are UTF-8 now.
    private static func withoutEncodingDeclaration(_ text: String) -> String {
        let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
        guard body.hasPrefix("<?xml"), let end = body.range(of: "?>") else { return body }
        let declaration = String(body[..<end.lowerBound])
        guard let encoding = XMLDeclaredEncoding.pseudoAttribute(in: declaration) else { return body }
        return declaration.replacingCharacters(in: encoding.range, with: "") + body[end.lowerBound...]
    }

    /// The offset of the first byte that is not part of valid UTF-8, or `nil`.
    private static func firstInvalidUTF8Offset(in data: Data) -> Int? {
        data.withUnsafeBytes { bytes in
            // Most documents are ASCII: one pass finds no byte over 0x7F.
            guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
            var parser = Unicode.UTF8.ForwardParser()
            var iterator = bytes.makeIterator()
            var offset = 0
            while true {
                switch parser.parseScalar(from: &iterator) {
                case .valid(let scalar): offset += scalar.count
                case .emptyInput: return nil
                case .error: return offset
                }
            }
        }
    }

    private static func corrupted(_ description: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: description))
    }

    /// A declared name, quoted and cut to 64 characters: the document is the server's to write.
    private static func printable(_ name: String) -> String {
        let cut = name.unicodeScalars.prefix(64).map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "?" }.joined()
        return "'\(cut)'" + (name.unicodeScalars.count > 64 ? "…" : "")
    }
}
