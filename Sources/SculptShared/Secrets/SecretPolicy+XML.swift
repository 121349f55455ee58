import Foundation

/// Secrets in XML text: the content of an element and the value of an attribute whose name, without
/// its namespace prefix, is one a form parameter or a JSON member would be redacted under
/// (`<access_token>`, `<wsse:Password>`, `client_secret="..."`).
extension SecretPolicy {
    /// Whether a body is XML as far as secrets go: `<` after white space (and a byte order mark),
    /// under an XML or property-list content type (`*/xml`, `*/*+xml`, `*/x-plist`, `*/plist`) or
    /// none. (HTML is text, as a form is read, whose tags are read as XML's too.)
    package static func isXML(_ bytes: some Collection<UInt8>, mediaTypes: [String]) -> Bool {
        guard bytes.first == UInt8(ascii: "<") else { return false }
        return mediaTypes.isEmpty || mediaTypes.contains { $0.hasSuffix("/xml") || $0.hasSuffix("+xml") || $0.hasSuffix("plist") }
    }

    /// How a description reads `body`: as ``kind(of:contentTypes:)`` says, except that text
    /// starting with a tag (an HTML page) has its tags read as XML's too.
    package static func descriptionKind(of body: some Collection<UInt8>, contentTypes: [String]) -> BodyKind {
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
    package func redacting(xml body: Data) -> Data {
        let bytes = Array(body)
        let redacted = redactingParameters(inXML: redactingElementsAndAttributes(in: bytes))
        return redacted == bytes ? body : Data(redacted)
    }

    /// `bytes` (XML, or an HTML page) with every secret element's content and secret attribute's
    /// value replaced by ``Secrets/marker``: a secret `<input>`'s `value` and a CSRF `<meta>`'s
    /// `content` among them.
    package func redactingElementsAndAttributes(in bytes: [UInt8]) -> [UInt8] {
        var redacted = bytes
        for range in secretXMLValueRanges(in: bytes).reversed() {
            redacted.replaceSubrange(range, with: Secrets.marker.utf8)
        }
        return redacted
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

    /// The ranges of the values XML text holds under secret names, in order: every run of text
    /// and CDATA content inside a secret element (its children's included: `<password><value>`),
    /// an attribute's quoted value, and in a property list the value after a `<key>` naming a
    /// secret. One pass, no recursion: a document of any depth or size costs its length (what
    /// closes a comment, section or instruction is searched for once).
    package func secretXMLValueRanges(in bytes: [UInt8]) -> [Range<Int>] {
        bytes.withUnsafeBytes { raw in secretXMLValueRanges(in: raw) }
    }

    private func secretXMLValueRanges(in bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        let policy = formPolicy
        var closes = CloseFinder(bytes)
        var ranges: [Range<Int>] = []
        let count = bytes.count
        var depth = 0
        // The depth outside the outermost secret element open, while one is.
        var secretDepth: Int?
        // A property list's `<key>` being read, and whether the value after the last one is secret.
        var keyText: Range<Int>?
        var nextIsSecret = false
        var index = 0
        func text(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            if secretDepth.map({ depth > $0 }) ?? false, bytes[range].contains(where: { !Self.isSpace($0) }) { ranges.append(range) }
            if keyText != nil { keyText = range }
        }
        while let open = bytes.offset(of: UInt8(ascii: "<"), from: index) {
            text(index..<open)
            index = open + 1
            if bytes.has(Self.cdataStart, at: open) {
                let start = open + Self.cdataStart.count
                let close = closes.first(Self.cdataEnd, from: start) ?? count
                text(start..<close)
                index = min(count, close + Self.cdataEnd.count)
                continue
            }
            guard index < count else { break }
            switch bytes[index] {
            case UInt8(ascii: "!"), UInt8(ascii: "?"):
                // A comment, instruction or declaration: to its end.
                let pattern = bytes.has(Self.commentStart, at: open) ? Self.commentEnd : bytes[index] == UInt8(ascii: "?") ? Self.instructionEnd : Self.tagEnd
                index = closes.first(pattern, from: index).map { $0 + pattern.count } ?? count
                continue
            case UInt8(ascii: "/"):
                depth = max(0, depth - 1)
                if secretDepth == depth { secretDepth = nil }
                if let key = keyText {
                    let named = Self.resolvingReferences(in: String(decoding: bytes[key], as: UTF8.self))
                    nextIsSecret = isSecret(bodyField: named) || isOwnParameter(named)
                    keyText = nil
                }
                index = closes.first(Self.tagEnd, from: index).map { $0 + 1 } ?? count
                continue
            default:
                guard Self.isNameStart(bytes[index]) else { continue }
            }
            let name = index..<Self.nameEnd(bytes, from: index)
            index = name.upperBound
            var selfClosing = false
            // Every attribute of a secret element is secret (`<token v="..."/>`); in HTML, a
            // `value` or `content` is when the element's `name` is (`<input name="csrf_token"
            // value="...">`, `<meta name="csrf-token" content="...">`), in any order.
            let secretElement = policy.isSecretXMLName(bytes[name])
            var namesSecret = false
            var namedValues: [Range<Int>] = []
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
                guard index < count else { continue }
                let value: Range<Int>
                let quoted = bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
                if quoted {
                    value = (index + 1)..<(bytes.offset(of: bytes[index], from: index + 1) ?? count)
                } else {
                    // HTML's unquoted value (`value=abc`): to white space or the tag's end.
                    var end = index
                    while end < count, !Self.isSpace(bytes[end]), bytes[end] != UInt8(ascii: ">") { end += 1 }
                    value = index..<end
                }
                if !value.isEmpty {
                    let local = Self.localName(bytes[attribute])
                    if secretElement || policy.isSecretXMLName(bytes[attribute]) {
                        ranges.append(value)
                    } else if Self.namesAnother(local) {
                        // A form's field (`user[password]`, `pass&#119;ord`), named as a form's parameter is.
                        let named = Self.resolvingReferences(in: String(decoding: bytes[value], as: UTF8.self))
                        namesSecret = namesSecret || isSecret(bodyField: named) || formPolicy.isSecret(parameter: named, besideOAuth: false)
                    } else if Self.holdsNamedValue(local) {
                        namedValues.append(value)
                    }
                }
                index = quoted ? value.upperBound + 1 : max(value.upperBound, index + 1)
                selfClosing = false
            }
            if namesSecret { ranges += namedValues }
            index = min(count, index + 1)
            let local = Self.localName(bytes[name])
            let secret = policy.isSecretXMLName(bytes[name]) || nextIsSecret
            if !local.elementsEqual("key".utf8) { nextIsSecret = false }
            guard !selfClosing else { continue }
            if secret, secretDepth == nil { secretDepth = depth }
            if local.elementsEqual("key".utf8), secretDepth == nil { keyText = index..<index }
            depth += 1
        }
        text(index..<count)
        // A secret written as an entity the document declares (`<password>&e;</password>`):
        // the declaration's value is the secret.
        let declared = Self.declaredValues(referencedIn: ranges, of: bytes)
        guard !declared.isEmpty else { return ranges }
        // In order, none inside another (a declaration written in a secret element's CDATA).
        var merged: [Range<Int>] = []
        for range in (ranges + declared).sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound < last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    /// The values of the internal entities (`<!ENTITY e "value">`) that `ranges` of `bytes`
    /// refer to (`&e;`), and of those their values refer to, however deep.
    private static func declaredValues(referencedIn ranges: [Range<Int>], of bytes: UnsafeRawBufferPointer) -> [Range<Int>] {
        var pending = ranges.flatMap { references(in: $0, of: bytes) }
        guard !pending.isEmpty else { return [] }
        // Every declaration, by name.
        var declared: [[UInt8]: [Range<Int>]] = [:]
        let declaration = Array("<!ENTITY".utf8)
        var index = 0
        while let found = bytes.offset(of: declaration, from: index) {
            var nameStart = skippingSpace(bytes, from: found + declaration.count)
            // A parameter entity (`<!ENTITY % p "value">`), referred to as `%p;`, is kept as `%p`.
            let isParameter = nameStart < bytes.count && bytes[nameStart] == UInt8(ascii: "%")
            if isParameter { nameStart = skippingSpace(bytes, from: nameStart + 1) }
            let name = nameStart..<nameEnd(bytes, from: nameStart)
            index = skippingSpace(bytes, from: name.upperBound)
            guard !name.isEmpty, index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { continue }
            let value = (index + 1)..<(bytes.offset(of: bytes[index], from: index + 1) ?? bytes.count)
            if !value.isEmpty { declared[(isParameter ? [UInt8(ascii: "%")] : []) + Array(bytes[name]), default: []].append(value) }
            // A value may declare entities itself (`<!ENTITY % p "<!ENTITY e 'secret'>">`).
            index = value.lowerBound
        }
        var values: [Range<Int>] = []
        var seen: Set<[UInt8]> = []
        while let name = pending.popLast() {
            guard seen.insert(name).inserted, let found = declared[name] else { continue }
            values += found
            for value in found {
                pending += references(in: value, of: bytes)
                // Written with a character reference (`&#38;f;` is `&f;` once the entity is read).
                if bytes[value].contains(UInt8(ascii: "#")) {
                    let resolved = Array(resolvingReferences(in: String(decoding: bytes[value], as: UTF8.self)).utf8)
                    pending += resolved.withUnsafeBytes { references(in: 0..<resolved.count, of: $0) }
                }
            }
        }
        return values
    }

    /// The names of the entities `range` of `bytes` refers to: `e` for `&e;`, `%p` for a parameter
    /// entity's `%p;`.
    private static func references(in range: Range<Int>, of bytes: UnsafeRawBufferPointer) -> [[UInt8]] {
        var names: [[UInt8]] = []
        var index = range.lowerBound
        while let sign = (index..<range.upperBound).first(where: { bytes[$0] == UInt8(ascii: "&") || bytes[$0] == UInt8(ascii: "%") }) {
            let name = (sign + 1)..<nameEnd(bytes, from: sign + 1)
            if !name.isEmpty, name.upperBound < range.upperBound, bytes[name.upperBound] == UInt8(ascii: ";") {
                names.append((bytes[sign] == UInt8(ascii: "%") ? [UInt8(ascii: "%")] : []) + Array(bytes[name]))
            }
            index = max(name.upperBound, sign + 1)
        }
        return names
    }

    /// `text` with XML's five entity references and its character references replaced by what
    /// they stand for; a reference that does not read stays as written.
    package static func resolvingReferences(in text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var output = ""
        var rest = text[...]
        while let ampersand = rest.firstIndex(of: "&") {
            output += rest[..<ampersand]
            let reference = rest[ampersand...].dropFirst()
            guard let semicolon = reference.prefix(12).firstIndex(of: ";") else {
                output += "&"
                rest = reference
                continue
            }
            let name = reference[..<semicolon]
            let named: [Substring: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
            if let value = named[name] {
                output += value
            } else if name.hasPrefix("#"), let code = name.hasPrefix("#x") ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name.dropFirst(), radix: 10),
                let scalar = Unicode.Scalar(code) {
                output.unicodeScalars.append(scalar)
            } else {
                output += "&" + name + ";"
            }
            rest = reference[reference.index(after: semicolon)...]
        }
        return output + rest
    }

    /// A name without its namespace prefix.
    private static func localName(_ name: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        name.lastIndex(of: UInt8(ascii: ":")).map { name[($0 + 1)...] } ?? name
    }

    /// Whether an element or attribute name, without its namespace prefix, names a secret: by the
    /// body fields' names, as a JSON member's would (`key`, `session` and `signature` name secrets
    /// in a query, and an S3 listing's `<Key>` or a property list's `<key>` in a body), and by the
    /// parameter names given beyond the defaults.
    private func isSecretXMLName(_ name: Slice<UnsafeRawBufferPointer>) -> Bool {
        let local = Self.localName(name)
        guard !local.isEmpty else { return false }
        let text = String(decoding: local, as: UTF8.self)
        return isSecret(bodyField: text) || isOwnParameter(text)
    }

    /// Whether an attribute names the value beside it: HTML's `name`, `property` (Open Graph) and
    /// `itemprop`, in any case (`NAME`).
    private static func namesAnother(_ attribute: Slice<UnsafeRawBufferPointer>) -> Bool {
        ["name", "property", "itemprop"].contains { attribute.lazy.map { ASCII.lowercased($0) }.elementsEqual($0.utf8) }
    }

    /// Whether an attribute holds the value its element's `name` names: `value` (an input),
    /// `content` (a meta tag), in any case.
    private static func holdsNamedValue(_ attribute: Slice<UnsafeRawBufferPointer>) -> Bool {
        ["value", "content"].contains { attribute.lazy.map { ASCII.lowercased($0) }.elementsEqual($0.utf8) }
    }

    private static let cdataStart = Array("<![CDATA[".utf8)
    private static let cdataEnd = Array("]]>".utf8)
    private static let commentStart = Array("<!--".utf8)
    private static let commentEnd = Array("-->".utf8)
    private static let instructionEnd = Array("?>".utf8)
    private static let tagEnd = Array(">".utf8)

    private static func isNameStart(_ byte: UInt8) -> Bool {
        byte >= 0x80 || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
            || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    /// The end of an XML name starting at `start`: letters, digits, `-`, `.`, `_`, `:` and any
    /// non-ASCII byte.
    private static func nameEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            guard isNameStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { break }
            index += 1
        }
        return index
    }

    private static func skippingSpace(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
        var index = start
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        return index
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
