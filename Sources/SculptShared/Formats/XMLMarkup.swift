import Foundation

/// What an XML document's markup declares, read in one pass over its bytes without parsing it:
/// how deeply its elements nest, whether it has one root element and nothing but markup beside
/// it, whether it has a DTD internal subset (where entities are declared), and whether its text
/// refers to an entity other than XML's own five. Comments, processing instructions, CDATA
/// sections and quoted attribute values are skipped, so a `<` or `>` inside them does not count.
///
/// Used before any parser reads a document: by `XMLModelDecoder` (SculptXML), whose parser
/// recurses once per level and expands entities without bound, and by
/// ``ModelResponseSerializer/maximumNestingDepth`` for XML property lists. Reads UTF-8 (and
/// ASCII-compatible) documents; markup that is not well-formed is left to the parser.
package enum XMLMarkup {
    /// Something in a document that Sculpt refuses before a parser reads it.
    package enum Finding: Equatable, Sendable {
        /// An element opens level `limit + 1` at byte `offset`.
        case tooDeep(offset: Int)
        /// A `<!DOCTYPE` with an internal subset (`[`) starts at byte `offset`.
        case internalSubset(offset: Int)
        /// Text or an element outside the root element (a second root) starts at byte `offset`:
        /// XML allows one root, and FoundationXML's parser on Linux reports success beside it.
        case besideRootElement(offset: Int)
        /// The document has no element at all.
        case noRootElement
        /// A comment, CDATA section, processing instruction, declaration or tag opened at byte
        /// `offset` does not end: libxml2 recovers from each in time that grows with the square of
        /// their number.
        case unclosed(markup: String, offset: Int)
        /// The element opened at byte `offset` has more than ``mostAttributes`` attributes:
        /// FoundationXML's parser takes time that grows faster than their number.
        case tooManyAttributes(offset: Int)
        /// A reference to an entity other than XML's five (`&amp;` `&lt;` `&gt;` `&quot;`
        /// `&apos;`) starts at byte `offset`, in text or an attribute value. With no internal
        /// subset, only an external DTD could declare it, and no parser here reads one:
        /// FoundationXML's drops such a reference from the text when the document names an
        /// external DTD.
        case undeclaredEntity(offset: Int)
    }

    /// The first thing in `data` Sculpt refuses, in document order; `nil` for none.
    package static func firstFinding(in data: Data, maximumDepth: Int) -> Finding? {
        data.withUnsafeBytes { firstFinding(in: $0, maximumDepth: maximumDepth, onlyDepth: false, quotesHideMarkup: true) }
    }

    /// The offset of the element that opens level `limit + 1`, whatever else the document holds;
    /// `nil` when it nests no deeper.
    ///
    /// - Parameter quotesHideMarkup: whether a `>` inside a quoted attribute value is part of the
    ///   value, as XML says and libxml2 reads it; `false` for a property list, which Foundation's
    ///   parser reads to the first `>` however it is quoted.
    package static func firstOffset(exceedingDepth limit: Int, in data: Data, quotesHideMarkup: Bool = true) -> Int? {
        let finding = data.withUnsafeBytes { firstFinding(in: $0, maximumDepth: limit, onlyDepth: true, quotesHideMarkup: quotesHideMarkup) }
        guard case .tooDeep(let offset) = finding else { return nil }
        return offset
    }

    /// ``firstOffset(exceedingDepth:in:quotesHideMarkup:)`` for a document in any encoding Sculpt
    /// reads, the offset in its bytes as sent: UTF-8 and the single-byte encodings as they are
    /// (their markup is ASCII), UTF-16 and UTF-32 read as text; `nil` for text that does not read
    /// (its decoder refuses it).
    package static func firstOffset(exceedingDepth limit: Int, inEncoded data: Data, quotesHideMarkup: Bool = true) -> Int? {
        guard let wide = WideTextEncoding(of: data) else { return firstOffset(exceedingDepth: limit, in: data, quotesHideMarkup: quotesHideMarkup) }
        guard let text = try? wide.text(of: data),
            let offset = firstOffset(exceedingDepth: limit, in: Data(text.utf8), quotesHideMarkup: quotesHideMarkup)
        else { return nil }
        return wide.offset(ofUTF8: offset, in: text)
    }

    /// The first finding in `bytes`; when `onlyDepth`, the first `.tooDeep`, past anything else.
    private static func firstFinding(in bytes: UnsafeRawBufferPointer, maximumDepth: Int, onlyDepth: Bool, quotesHideMarkup: Bool) -> Finding? {
        var depth = 0
        var roots = 0
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while let open = bytes.offset(of: ascii("<"), from: index) {
            if !onlyDepth {
                if depth == 0, let text = firstNonSpace(in: bytes, index..<open) { return .besideRootElement(offset: text) }
                if let entity = firstUndeclaredEntity(in: bytes, index..<open) { return .undeclaredEntity(offset: entity) }
            }
            let start = open + 1
            guard start < bytes.count else { return nil }
            switch bytes[start] {
            case ascii("/"):
                depth = max(0, depth - 1)
                guard let end = bytes.offset(of: ascii(">"), from: start) else { return unclosed("an end tag", open) }
                index = end + 1
            case ascii("?"):
                guard let end = bytes.offset(after: "?>", from: start) else { return unclosed("a processing instruction", open) }
                index = end
            case ascii("!"):
                if bytes.hasPrefix("!--", at: start) {
                    guard let end = bytes.offset(after: "-->", from: start + 3) else { return unclosed("a comment", open) }
                    index = end
                } else if bytes.hasPrefix("![CDATA[", at: start) {
                    guard let end = bytes.offset(after: "]]>", from: start + 8) else { return unclosed("a CDATA section", open) }
                    index = end
                } else {
                    // <!DOCTYPE ...>: an internal subset opens with `[` outside quotes.
                    guard let (end, bracket) = tagEnd(in: bytes, from: start, stoppingAt: ascii("["), quotes: quotesHideMarkup) else { return unclosed("a declaration", open) }
                    if bracket, !onlyDepth, bytes.hasPrefix("!DOCTYPE", at: start) { return .internalSubset(offset: open) }
                    index = end + 1
                }
            default:
                if depth == 0 {
                    roots += 1
                    if roots > 1, !onlyDepth { return .besideRootElement(offset: open) }
                }
                depth += 1
                if depth > maximumDepth { return .tooDeep(offset: open) }
                guard let (end, _) = tagEnd(in: bytes, from: start, stoppingAt: nil, quotes: quotesHideMarkup) else { return unclosed("a tag", open) }
                if !onlyDepth, attributeCount(in: bytes, start..<end) > mostAttributes { return .tooManyAttributes(offset: open) }
                if !onlyDepth, let entity = firstUndeclaredEntity(in: bytes, start..<end) { return .undeclaredEntity(offset: entity) }
                if bytes[end - 1] == ascii("/") { depth -= 1 }
                index = end + 1
            }
        }
        guard !onlyDepth else { return nil }
        if depth == 0, let text = firstNonSpace(in: bytes, index..<bytes.count) { return .besideRootElement(offset: text) }
        if let entity = firstUndeclaredEntity(in: bytes, index..<bytes.count) { return .undeclaredEntity(offset: entity) }
        return roots == 0 ? .noRootElement : nil
    }

    /// The most attributes (namespace declarations included) one element may have.
    package static let mostAttributes = 1_024

    /// How many attributes a start tag's bytes hold: its `=` outside quoted values.
    private static func attributeCount(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int {
        var count = 0
        var quote: UInt8?
        for index in range {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == ascii("\"") || byte == ascii("'") {
                quote = byte
            } else if byte == ascii("=") {
                count += 1
            }
        }
        return count
    }

    /// `markup` opened at `offset` and not ended, when all findings are asked for; only depth is
    /// not affected by it.
    private static func unclosed(_ markup: String, _ offset: Int) -> Finding? {
        .unclosed(markup: markup, offset: offset)
    }

    /// The offset of the first byte in `range` that is not XML white space.
    private static func firstNonSpace(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        range.first { ![ascii(" "), ascii("\t"), ascii("\r"), ascii("\n")].contains(bytes[$0]) }
    }

    /// The offset of the first `&` in `range` that does not begin one of XML's five entity
    /// references or a character reference (`&#...`).
    private static func firstUndeclaredEntity(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound, let ampersand = bytes[index..<range.upperBound].firstIndex(of: ascii("&")) {
            let name = ampersand + 1
            guard name < range.upperBound, bytes[name] == ascii("#")
                || bytes.hasPrefix("amp;", at: name) || bytes.hasPrefix("lt;", at: name) || bytes.hasPrefix("gt;", at: name)
                || bytes.hasPrefix("quot;", at: name) || bytes.hasPrefix("apos;", at: name)
            else { return ampersand }
            index = name
        }
        return nil
    }

    /// The offset of the `>` that closes a tag, skipping quoted values when `quotes`; when `stop`
    /// comes first outside quotes, its offset and `true`.
    private static func tagEnd(in bytes: UnsafeRawBufferPointer, from start: Int, stoppingAt stop: UInt8?, quotes: Bool) -> (Int, Bool)? {
        var quote: UInt8?
        for index in start..<bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if quotes, byte == ascii("\"") || byte == ascii("'") {
                quote = byte
            } else if byte == ascii(">") {
                return (index, false)
            } else if byte == stop {
                return (index, true)
            }
        }
        return nil
    }

    private static func ascii(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }
}

private extension UnsafeRawBufferPointer {
    func hasPrefix(_ text: StaticString, at start: Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard start + length <= count else { return false }
        return (0..<length).allSatisfy { self[start + $0] == text.utf8Start[$0] }
    }

    /// The offset just past the first occurrence of `text` at or after `start`.
    func offset(after text: StaticString, from start: Int) -> Int? {
        let first = text.utf8Start[0]
        var index = start
        while let candidate = offset(of: first, from: index) {
            if hasPrefix(text, at: candidate) { return candidate + text.utf8CodeUnitCount }
            index = candidate + 1
        }
        return nil
    }
}
