import Foundation

/// Secrets in XML text: the content of an element and the value of an attribute whose name, without
/// its namespace prefix, is one a form parameter or a JSON member would be redacted under
/// (`<access_token>`, `<wsse:Password>`, `client_secret="..."`).
extension SecretPolicy {
    /// Whether a body is XML as far as secrets go: `<` after white space (and a byte order mark),
    /// under an XML content type (`*/xml`, `*/*+xml`) or none. (HTML stays text, as a form is
    /// read, for recordings; descriptions read its tags too.)
    static func isXML(_ bytes: some Collection<UInt8>, mediaTypes: [String]) -> Bool {
        guard bytes.first == UInt8(ascii: "<") else { return false }
        return mediaTypes.isEmpty || mediaTypes.contains { $0.hasSuffix("/xml") || $0.hasSuffix("+xml") }
    }

    /// How a description reads `body`: as ``kind(of:contentTypes:)`` says, except that text
    /// starting with a tag (an HTML page) has its tags read as XML's too.
    static func descriptionKind(of body: some Collection<UInt8>, contentTypes: [String]) -> BodyKind {
        let kind = kind(of: body, contentTypes: contentTypes)
        return kind == .form && body.prefix(64 << 10).first(where: { !isSpace($0) }) == UInt8(ascii: "<") ? .xml : kind
    }

    /// `body` (XML) with every secret element's content and secret attribute's value replaced by
    /// ``Secrets/marker``; `body` itself when it holds none.
    ///
    /// ```swift
    /// SecretPolicy.default.redacting(xml: Data("<r><access_token>abc123</access_token></r>".utf8))
    /// // <r><access_token>REDACTED</access_token></r>
    /// ```
    func redacting(xml body: Data) -> Data {
        let bytes = Array(body)
        var redacted = bytes
        for range in secretXMLValueRanges(in: bytes).reversed() {
            redacted.replaceSubrange(range, with: Secrets.marker.utf8)
        }
        redacted = redactingParameters(inXML: redacted)
        return redacted == bytes ? body : Data(redacted)
    }

    /// `bytes` with the secret parameters inside each text node and quoted attribute value
    /// (`<link>https://h/cb?access_token=...&amp;x=1</link>`) redacted as a query's are; tags
    /// themselves are never touched, so the document stays well-formed.
    private func redactingParameters(inXML bytes: [UInt8]) -> [UInt8] {
        let policy = formPolicy
        var output: [UInt8] = []
        var index = 0
        var inTag = false
        var quote: UInt8?
        var segmentStart = 0
        func flush(upTo end: Int, isText: Bool = false) {
            let segment = bytes[segmentStart..<end]
            // Text may hold JSON (a payload in an element, in CDATA): its quoted members too.
            let hasMembers = isText && (segment.contains(UInt8(ascii: "\"")) || segment.contains(UInt8(ascii: "'")))
            guard segment.contains(UInt8(ascii: "=")) || hasMembers else {
                output.append(contentsOf: segment)
                return
            }
            let text = String(decoding: segment, as: UTF8.self)
            var redacted = policy.redacting(parameters: text)
            if hasMembers { redacted = redacting(embeddedMembers: redacted) }
            output.append(contentsOf: redacted == text ? Array(segment) : Array(redacted.utf8))
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch (inTag, quote) {
            case (false, _) where byte == UInt8(ascii: "<") && bytes[index...].starts(with: Self.cdataStart):
                // A CDATA section is text, up to its end.
                flush(upTo: index, isText: true)
                let start = index + Self.cdataStart.count
                let end = bytes[start...].firstRange(of: Self.cdataEnd)?.lowerBound ?? bytes.count
                output.append(contentsOf: bytes[index..<start])
                segmentStart = start
                flush(upTo: end, isText: true)
                segmentStart = end
                index = end
                continue
            case (false, _) where byte == UInt8(ascii: "<"):
                flush(upTo: index, isText: true)
                inTag = true
                segmentStart = index
            case (true, nil) where byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'"):
                output.append(contentsOf: bytes[segmentStart...index])
                quote = byte
                segmentStart = index + 1
            case (true, let open?) where byte == open:
                flush(upTo: index)
                quote = nil
                segmentStart = index
            case (true, nil) where byte == UInt8(ascii: ">"):
                output.append(contentsOf: bytes[segmentStart...index])
                inTag = false
                segmentStart = index + 1
            default:
                break
            }
            index += 1
        }
        if inTag && quote == nil { output.append(contentsOf: bytes[segmentStart...]) } else { flush(upTo: bytes.count, isText: !inTag) }
        return output
    }

    /// The ranges of the values XML text holds under secret names, in order: an element's text or
    /// CDATA content up to its first child, and an attribute's quoted value. One pass, no
    /// recursion: a tag is read up to its `>`, so a document of any depth or size costs its length.
    func secretXMLValueRanges(in bytes: [UInt8]) -> [Range<Int>] {
        let policy = formPolicy
        var ranges: [Range<Int>] = []
        var index = 0
        let count = bytes.count
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            index = open + 1
            guard index < count, Self.isNameStart(bytes[index]) else { continue }  // </, <!, <?
            let name = index..<Self.nameEnd(bytes, from: index)
            index = name.upperBound
            var selfClosing = false
            while index < count, bytes[index] != UInt8(ascii: ">") {
                guard Self.isNameStart(bytes[index]) else {
                    selfClosing = bytes[index] == UInt8(ascii: "/")
                    index += 1
                    continue
                }
                let attribute = index..<Self.nameEnd(bytes, from: index)
                index = Self.skippingSpace(bytes, from: attribute.upperBound)
                guard index < count, bytes[index] == UInt8(ascii: "=") else { continue }
                index = Self.skippingSpace(bytes, from: index + 1)
                guard index < count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { continue }
                let quote = bytes[index]
                let value = index + 1..<(bytes[(index + 1)...].firstIndex(of: quote) ?? count)
                if !value.isEmpty, policy.isSecretXMLName(bytes[attribute]) { ranges.append(value) }
                index = value.upperBound + 1
                selfClosing = false
            }
            guard index < count else { break }
            index += 1
            guard !selfClosing, policy.isSecretXMLName(bytes[name]) else { continue }
            let content: Range<Int>
            if bytes[index...].starts(with: Self.cdataStart) {
                let start = index + Self.cdataStart.count
                content = start..<(bytes[start...].firstRange(of: Self.cdataEnd)?.lowerBound ?? count)
            } else {
                content = index..<(bytes[index...].firstIndex(of: UInt8(ascii: "<")) ?? count)
            }
            if bytes[content].contains(where: { !Self.isSpace($0) }) { ranges.append(content) }
            index = content.upperBound
        }
        return ranges
    }

    /// Whether an element or attribute name, without its namespace prefix, names a secret: by the
    /// body fields' names, as a JSON member's would (`key`, `session` and `signature` name secrets
    /// in a query, and an S3 listing's `<Key>` or a property list's `<key>` in a body).
    private func isSecretXMLName(_ name: ArraySlice<UInt8>) -> Bool {
        let local = name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
        return !local.isEmpty && isSecret(bodyField: String(decoding: local, as: UTF8.self))
    }

    private static let cdataStart = Array("<![CDATA[".utf8)
    private static let cdataEnd = Array("]]>".utf8)

    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// The end of an XML name starting at `start`: letters, digits, `-`, `.`, `_`, `:` and any
    /// non-ASCII byte.
    private static func nameEnd(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            guard isNameStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { break }
            index += 1
        }
        return index
    }

    private static func skippingSpace(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
