import Foundation

extension XMLDocumentText {
    /// `document` rewritten where XMLCoder or FoundationXML would read it wrongly, with the same
    /// meaning; the document itself when nothing needs it (no copy).
    ///
    /// - A CDATA section beside text becomes the escaped text it stands for. XMLCoder keeps text
    ///   and CDATA as separate children of an element and decodes a value from the first, so
    ///   `<v>x<![CDATA[y]]>z</v>` read as `"x"`; as text it joins the text around it (`"xyz"`).
    ///   Sections with only white space around them (an RSS `<description>`) stay as they are:
    ///   XMLCoder reads them whole, and escaped text costs it a callback for each entity (the RSS
    ///   benchmark took twice as long). Comments are copied as they are.
    /// - Every `<?name?>` (a processing instruction with no data) outside CDATA sections gets a
    ///   space, `<?name ?>`, whose data is empty. FoundationXML on Linux (Swift 6.3.1) reads the
    ///   missing data as a C string and crashes the process. Every occurrence
    ///   is changed, not only those this pass would read as instructions: libxml2 resumes after an
    ///   error (a declaration that does not end) and reads an instruction wherever it resumes.
    ///
    /// Markup that does not end is left for the parser to report.
    static func rewritten(_ document: Data) -> Data {
        let document = document.startIndex == 0 ? document : Data(document)
        return withDataInEveryInstruction(withCDATAAsText(document))
    }

    private static func withCDATAAsText(_ document: Data) -> Data {
        document.withUnsafeBytes { bytes in
            guard bytes.offset(of: cdataOpen, from: 0) != nil else { return document }
            var rewrite = ByteRewrite(document)
            var index = 0
            // Where the text since the last markup other than CDATA begins.
            var textStart = 0
            while let markup = bytes.offset(of: UInt8(ascii: "<"), from: index) {
                if bytes.has(cdataOpen, at: markup) {
                    guard let run = cdataRun(in: bytes, from: textStart, firstSection: markup) else { break }
                    if run.isMixed {
                        for section in run.sections {
                            rewrite.replace(section) { appendEscaped(bytes[(section.lowerBound + cdataOpen.count)..<(section.upperBound - cdataClose.count)], to: &$0) }
                        }
                    }
                    index = run.end
                    textStart = index
                } else if bytes.has(commentOpen, at: markup) {
                    guard let close = bytes.offset(of: commentClose, from: markup + commentOpen.count) else { break }
                    index = close + commentClose.count
                    textStart = index
                } else {
                    // Text starts after the first `>`, which ends this markup or comes before its
                    // end (a `>` in a quoted value): never after the text, so a section beside
                    // text is always seen as such.
                    index = markup + 1
                    textStart = (bytes.offset(of: UInt8(ascii: ">"), from: index) ?? bytes.count) + 1
                }
            }
            return rewrite.result
        }
    }

    /// CDATA sections with only white space between them, from the text before the first to the
    /// next other markup; `nil` when one does not end.
    private struct CDATARun {
        var sections: [Range<Int>] = []
        /// Whether the text before or after the sections is more than white space, or there is any
        /// text between them (which is the value's too: `a]]> <![CDATA[b` is `a b`).
        var isMixed = false
        /// Where the markup after the run (or the document's end) begins.
        var end = 0
    }

    private static func cdataRun(in bytes: UnsafeRawBufferPointer, from textStart: Int, firstSection: Int) -> CDATARun? {
        var run = CDATARun()
        // A section inside markup that does not end (`<a <![CDATA[>]]>`) has no text before it.
        run.isMixed = bytes[min(textStart, firstSection)..<firstSection].contains { !isSpace($0) }
        var section = firstSection
        while true {
            guard let close = bytes.offset(of: cdataClose, from: section + cdataOpen.count) else { return nil }
            let sectionEnd = close + cdataClose.count
            run.sections.append(section..<sectionEnd)
            let next = bytes.offset(of: UInt8(ascii: "<"), from: sectionEnd) ?? bytes.count
            guard bytes.has(cdataOpen, at: next) else {
                run.isMixed = run.isMixed || bytes[sectionEnd..<next].contains { !isSpace($0) }
                run.end = next
                return run
            }
            run.isMixed = run.isMixed || next > sectionEnd
            section = next
        }
    }

    private static func withDataInEveryInstruction(_ document: Data) -> Data {
        document.withUnsafeBytes { bytes in
            var rewrite = ByteRewrite(document)
            var index = 0
            while let open = bytes.offset(of: UInt8(ascii: "<"), from: index) {
                if bytes.has(cdataOpen, at: open) {
                    // A CDATA section's content is text, whatever it looks like; one that does
                    // not end is not a section.
                    index = bytes.offset(of: cdataClose, from: open + cdataOpen.count).map { $0 + cdataClose.count } ?? open + 1
                    continue
                }
                guard bytes.has(instructionOpen, at: open) else {
                    index = open + 1
                    continue
                }
                var nameEnd = open + instructionOpen.count
                while nameEnd < bytes.count, !isSpace(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: "?") { nameEnd += 1 }
                if nameEnd > open + instructionOpen.count, bytes.has(instructionClose, at: nameEnd) {
                    rewrite.replace(nameEnd..<nameEnd) { $0.append(UInt8(ascii: " ")) }
                }
                index = open + instructionOpen.count
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

    private static func appendEscaped(_ bytes: Slice<UnsafeRawBufferPointer>, to text: inout Data) {
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

private extension UnsafeRawBufferPointer {
    /// The offset of the first `byte` at or after `start`.
    func offset(of byte: UInt8, from start: Int) -> Int? {
        guard start < count, let base = baseAddress, let found = memchr(base + start, Int32(byte), count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }

    /// The offset of the first `pattern` at or after `start`.
    func offset(of pattern: [UInt8], from start: Int) -> Int? {
        var index = start
        while let candidate = offset(of: pattern[0], from: index) {
            if has(pattern, at: candidate) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    /// Whether `pattern` is at `offset`.
    func has(_ pattern: [UInt8], at offset: Int) -> Bool {
        guard offset + pattern.count <= count, let base = baseAddress else { return false }
        return pattern.withUnsafeBytes { pattern in
            guard let start = pattern.baseAddress else { return true }
            return memcmp(base + offset, start, pattern.count) == 0
        }
    }
}
