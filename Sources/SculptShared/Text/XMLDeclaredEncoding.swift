import Foundation

/// The encoding an XML document's declaration names (`<?xml version="1.0" encoding="ISO-8859-1"?>`),
/// read as libxml2 reads it: what the XML decoder transcodes from, and what a description reads
/// the document in, so that both see the same text.
package enum XMLDeclaredEncoding {
    /// The single-byte encodings Sculpt reads, by their declared names (lowercased).
    package static let singleByte: [String: String.Encoding] = [
        "iso-8859-1": .isoLatin1, "iso8859-1": .isoLatin1, "latin1": .isoLatin1, "latin-1": .isoLatin1,
        "us-ascii": .ascii, "ascii": .ascii, "windows-1252": .windowsCP1252, "cp1252": .windowsCP1252,
    ]

    /// The `encoding` of an XML declaration at the start of an ASCII-compatible document (after
    /// any UTF-8 byte order mark), read to the declaration's end however long it is; `nil` when
    /// there is none.
    ///
    /// ```swift
    /// XMLDeclaredEncoding.name(in: Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><r/>"#.utf8))  // "ISO-8859-1"
    /// ```
    package static func name(in data: Data) -> String? {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard bytes.starts(with: Array("<?xml".utf8)), let end = bytes.firstRange(of: Array("?>".utf8)) else { return nil }
        return pseudoAttribute(in: String(decoding: bytes[..<end.lowerBound], as: UTF8.self))?.value
    }

    /// `data` as UTF-8 when its declaration names one of the ``singleByte`` encodings other than
    /// ASCII and its bytes read in it; `nil` otherwise (the document is read as it is).
    package static func transcoded(_ data: Data) -> Data? {
        guard let name = name(in: data).map(ASCII.lowercased), let encoding = singleByte[name], encoding != .ascii,
            let text = String(data: data, encoding: encoding)
        else { return nil }
        return Data(text.utf8)
    }

    /// The declaration's `encoding="..."` pseudo-attribute: its whole range and its value.
    package static func pseudoAttribute(in declaration: String) -> (range: Range<String.Index>, value: String)? {
        guard let name = declaration.range(of: "encoding") else { return nil }
        var index = name.upperBound
        let skipSpaces = { while index < declaration.endIndex, declaration[index].isWhitespace { index = declaration.index(after: index) } }
        skipSpaces()
        guard index < declaration.endIndex, declaration[index] == "=" else { return nil }
        index = declaration.index(after: index)
        skipSpaces()
        guard index < declaration.endIndex, let quote = declaration[index].unicodeScalars.first, quote == "\"" || quote == "'" else { return nil }
        let valueStart = declaration.index(after: index)
        guard let close = declaration[valueStart...].firstIndex(of: Character(quote)) else { return nil }
        return (name.lowerBound..<declaration.index(after: close), String(declaration[valueStart..<close]))
    }
}
