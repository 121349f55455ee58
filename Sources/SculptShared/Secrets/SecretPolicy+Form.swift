import Foundation

/// Bodies in `application/x-www-form-urlencoded` (`grant_type=refresh_token&refresh_token=r1`):
/// an OAuth token request, or GitHub's token response to a client that did not ask for JSON.
/// Their parameters are redacted as a query's are, by the query parameter and body field names.
extension SecretPolicy {
    /// How a body's secrets are found.
    package enum BodyKind: Sendable {
        /// JSON text: secret members' values.
        case json
        /// Form-encoded parameters: secret parameters' values.
        case form
        /// XML: secret elements' content and secret attributes' values.
        case xml
        /// None of these (an image, a protocol buffer): left as it is.
        case opaque
    }

    /// How `body` is read for secrets, whatever its `Content-Type` values claim where the claim
    /// would keep a secret: JSON text (`{` or `[` after white space) is read as JSON under any
    /// type; other bodies as text (form parameters, and quoted members as JSONP writes them) when
    /// a type names a form, when no type is given, or when the type is `text/*`, YAML, claims JSON
    /// or JavaScript (a JSON type on a body that is not JSON text) or is multipart (a body whose
    /// parts could not be read); XML (`<` first) under an XML type or none.
    ///
    /// ```swift
    /// SecretPolicy.kind(of: Data("refresh_token=r1".utf8), contentTypes: [])   // .form
    /// ```
    package static func kind(of body: some Collection<UInt8>, contentTypes: [String]) -> BodyKind {
        var bytes = body.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3).drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) } }
        if let first = bytes.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return .json }
        let media = contentTypes.flatMap { value in
            value.split(separator: ",").map { ASCII.lowercased($0.prefix { $0 != ";" }).trimmingCharacters(in: .whitespaces) }
        }
        if isXML(bytes, mediaTypes: media) { return .xml }
        // A multipart body read here has no part a reader finds: it is read as text.
        let textLike = media.isEmpty || media.contains { type in
            type == "application/x-www-form-urlencoded" || type.hasPrefix("text/") || type.hasSuffix("json") || type.hasSuffix("javascript")
                || type.hasSuffix("yaml") || type.hasPrefix("multipart/")
        }
        return textLike ? .form : .opaque
    }

    /// `body` with its secrets replaced, read as ``kind(of:contentTypes:)`` says.
    ///
    /// ```swift
    /// SecretPolicy.default.redacting(body: body, contentTypes: fields[values: .contentType])
    /// ```
    package func redacting(body: Data, contentTypes: [String]) -> Data {
        redacting(body: body, contentTypes: contentTypes, depth: 0)
    }

    /// ``redacting(body:contentTypes:)`` inside `depth` multipart bodies: four deep at most, a
    /// part nested deeper being redacted as text. A body in another encoding than UTF-8 (UTF-16
    /// JSON, a `charset=iso-8859-1` form) is redacted as its text (``BodyText``) and kept in its
    /// encoding.
    private func redacting(body: Data, contentTypes: [String], depth: Int) -> Data {
        if depth < 4, MultipartBody.isMultipart(contentTypes), let redacted = redacting(multipart: body, boundary: MultipartBody.boundary(in: contentTypes), depth: depth) {
            return redactsURLs ? Self.redactingCredentialShapes(in: redacted) : redacted
        }
        let text = BodyText(body, contentTypes: contentTypes)
        let kind = Self.kind(of: text.utf8, contentTypes: contentTypes)
        guard text.isTranscoded else { return redacting(text: body, as: kind) }
        let redacted = redacting(text: text.utf8, as: kind)
        let encoded = redacted == text.utf8 ? body : text.encoded(redacted)
        // Its first bytes or its charset may have called it UTF-16 or UTF-32 when it is text in
        // another encoding (`FF FE 41 00` and then ASCII, ASCII under `charset=utf-16`): read byte
        // by byte too, unless a zero byte past its first four makes it the wide text it was read
        // as (a byte change there would shift every code unit after it).
        guard kind != .opaque, !BodyText.holdsWideText(encoded) else { return encoded }
        return text.aligning(redacting(bytes: encoded), from: encoded)
    }

    /// UTF-8 text with the values of its secret names replaced, read as `kind`, and credentials
    /// of a known shape under a name no rule marks (`"note": "ghp_…"`).
    private func redacting(text body: Data, as kind: BodyKind) -> Data {
        let named = redacting(body: body, as: kind)
        return kind == .opaque || !redactsURLs ? named : Self.redactingCredentialShapes(in: named)
    }

    /// A `multipart/*` body with the content of each part a secret name names replaced by
    /// ``Secrets/marker`` (a login form's `password` field), and every other part redacted as a
    /// body of its own content type (`text/plain` when it states none); `nil` when it has no part.
    private func redacting(multipart body: Data, boundary: String?, depth: Int) -> Data? {
        let bytes = Array(body)
        guard let multipart = MultipartBody(bytes, boundary: boundary) else { return nil }
        var output = Data()
        output.reserveCapacity(bytes.count)
        var position = 0
        // The preamble before the first delimiter, which no reader of parts reads, is text.
        let delimiter = Array("--\(multipart.boundary)".utf8)
        if let first = multipart.parts.first?.content.lowerBound,
            let start = (0..<first).first(where: { bytes[$0...].starts(with: delimiter) }), start > 0 {
            output.append(redacting(form: Data(bytes[..<start])))
            position = start
        }
        for part in multipart.parts {
            output.append(contentsOf: bytes[position..<part.content.lowerBound])
            let content = part.decoded(in: bytes)
            let contentTypes = [part.contentType ?? "text/plain"]
            let redacted: Data
            if let name = part.name, !part.content.isEmpty, formPolicy.isSecret(parameter: name, besideOAuth: false) {
                // In the part's own encoding (its byte order mark kept).
                redacted = BodyText(content, contentTypes: contentTypes).encoded(Data(Secrets.marker.utf8))
            } else {
                redacted = redacting(body: content, contentTypes: contentTypes, depth: depth + 1)
            }
            // A part written in base64 is written so again, when something in it was redacted.
            if redacted == content {
                output.append(contentsOf: bytes[part.content])
            } else {
                output.append(part.isBase64 ? Data(redacted.base64EncodedString().utf8) : redacted)
            }
            position = part.content.upperBound
        }
        output.append(contentsOf: bytes[position...])
        return output
    }

    /// The values a `multipart/*` body's parts hold under secret names, and the secret values
    /// each other part holds as a body of its own content type.
    package func secretValues(inMultipart body: Data, boundary: String?, scanning limit: Int, depth: Int = 0) -> [String] {
        let bytes = Array(body.prefix(limit))
        guard depth < 4, let multipart = MultipartBody(bytes, boundary: boundary) else { return [] }
        var values: [String] = []
        for part in multipart.parts {
            let content = part.decoded(in: bytes)
            let contentTypes = [part.contentType ?? "text/plain"]
            // As it is written, and as its text (a part in UTF-16, by its charset or first bytes).
            let text = BodyText(content, contentTypes: contentTypes).utf8
            if let name = part.name, content.count >= Self.shortestSecretValue, formPolicy.isSecret(parameter: name, besideOAuth: false) {
                values.append(String(decoding: content, as: UTF8.self))
                if text != content { values.append(String(decoding: text, as: UTF8.self)) }
                if part.isBase64 { values.append(String(decoding: bytes[part.content], as: UTF8.self)) }
            } else if MultipartBody.isMultipart(contentTypes) {
                values += secretValues(inMultipart: content, boundary: MultipartBody.boundary(in: contentTypes), scanning: limit, depth: depth + 1)
            } else {
                values += secretValues(in: text, contentTypes: contentTypes, scanning: limit).values
            }
        }
        return values
    }

    /// `body` with the values of its secret names replaced, read as `kind`.
    private func redacting(body: Data, as kind: BodyKind) -> Data {
        switch kind {
        case .json:
            // JSON text, or what starts like it: `{'access_token': ...}` is read too.
            let redacted = redacting(json: body)
            guard redacted.contains(UInt8(ascii: "'")) else { return redacted }
            let text = String(decoding: redacted, as: UTF8.self)
            let quoted = redacting(embeddedMembers: text, singleQuotedOnly: true)
            return quoted == text ? redacted : Data(quoted.utf8)
        case .form:
            // Text that starts with a tag (an HTML page): its tags are read as XML's too (a secret
            // `<input>`'s value, a CSRF `<meta>`'s content), as descriptions read them.
            guard body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") else { return redacting(form: body) }
            let tagged = redactingElementsAndAttributes(in: Array(body))
            return redacting(form: tagged.elementsEqual(body) ? body : Data(tagged))
        case .xml:
            // Elements and attributes, then the credential after `Bearer` or `Basic` in any text.
            let redacted = redacting(xml: body)
            guard let text = String(data: redacted, encoding: .utf8) else { return redacted }
            let schemed = redactingSchemeCredentials(in: text)
            return schemed == text ? redacted : Data(schemed.utf8)
        case .opaque: return body
        }
    }

    /// The start of `body` as text for a description, secrets replaced as
    /// ``redacting(body:contentTypes:)`` replaces them, and how many bytes were left out. A body
    /// that is not JSON text is shown as text with its form parameters and quoted members
    /// redacted whatever its type: a description only shows it.
    package func excerpt(of body: Data, contentTypes: [String], bytes: Int) -> (text: String, remaining: Int) {
        switch Self.descriptionKind(of: body.prefix(bytes + (64 << 10)), contentTypes: contentTypes) {
        case .json:
            let (text, remaining) = excerpt(of: body, bytes: bytes)
            return (redacting(embeddedMembers: text, singleQuotedOnly: true), remaining)
        case .xml:
            // Tags first, then as text: a token in a URL inside an element (`?access_token=`) is a
            // parameter.
            let scanned = body.prefix(bytes + (64 << 10))
            let (text, remaining) = excerpt(ofForm: redacting(xml: scanned), bytes: bytes)
            return (text, remaining + body.count - scanned.count)
        case .opaque where body.starts(with: Array("bplist".utf8)):
            // Its strings are its bytes, and which of them are secret only a decoder can say.
            return ("(a binary property list, not shown: its strings may be secrets)", 0)
        case .form, .opaque:
            guard MultipartBody.isMultipart(contentTypes) else { return excerpt(ofForm: body, bytes: bytes) }
            // Part by part first, each as its own text (a part in UTF-16 among them).
            let scanned = body.prefix(bytes + (64 << 10))
            let (text, remaining) = excerpt(ofForm: redacting(body: scanned, contentTypes: contentTypes), bytes: bytes)
            return (text, remaining + body.count - scanned.count)
        }
    }

    /// `body` with the value of every parameter named in ``parameters`` or ``bodyFields``
    /// replaced by ``Secrets/marker``; `body` itself when it holds none.
    ///
    /// ```swift
    /// SecretPolicy.default.redacting(form: Data("refresh_token=r1&scope=repo".utf8))   // refresh_token=REDACTED&scope=repo
    /// ```
    package func redacting(form body: Data) -> Data {
        guard !body.isEmpty else { return body }
        guard let text = String(data: body, encoding: .utf8) else {
            // Bytes that are not UTF-8 are kept as they are: read one character a byte (ISO 8859-1).
            guard let bytes = String(data: body, encoding: .isoLatin1) else { return body }
            let redacted = redacting(text: bytes)
            return redacted == bytes ? body : redacted.data(using: .isoLatin1) ?? body
        }
        let redacted = redacting(text: text)
        return redacted == text ? body : Data(redacted.utf8)
    }

    /// `body` read as text one byte a character, whatever encoding it is said to be in: its
    /// secret parameters and credentials of known shapes replaced, every other byte kept. For a
    /// body whose first bytes alone made it UTF-16 or UTF-32 (`FF FE`), which may be text in
    /// another encoding that only starts so.
    package func redacting(bytes body: Data) -> Data {
        let named = redacting(form: body)
        return redactsURLs ? Self.redactingCredentialShapes(in: named) : named
    }

    /// Text (a form, a plain or HTML body) with its secrets replaced: secret parameters' values,
    /// quoted secret members' values (JSON or JSONP written in it), the credential after `Bearer`
    /// or `Basic`, and the user name and password of every URL in it (`https://user:password@host/`).
    package func redacting(text: String) -> String {
        redactingSchemeCredentials(in: redacting(embeddedMembers: formPolicy.redacting(parametersInText: redactingUserInfo(in: text))))
    }

    /// `text` with the user name and password of each URL written in it (after `://`, before an
    /// `@` in the authority) replaced by ``Secrets/marker``.
    func redactingUserInfo(in text: String) -> String {
        guard redactsURLs, text.contains("://") else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var rest = 0
        var index = 0
        let separator = Array("://".utf8)
        while index + separator.count <= bytes.count {
            guard bytes[index] == separator[0], bytes[index..<(index + separator.count)].elementsEqual(separator) else {
                index += 1
                continue
            }
            let start = index + separator.count
            // The authority: up to a path, query, fragment, space or quote.
            let end = bytes[start...].firstIndex { [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), 0x20, 0x09, 0x0A, 0x0D].contains($0) } ?? bytes.count
            if let at = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) {
                let hasPassword = bytes[start..<at].contains(UInt8(ascii: ":"))
                output += bytes[rest..<start]
                output += Array((hasPassword ? "\(Secrets.marker):\(Secrets.marker)" : Secrets.marker).utf8)
                rest = at
            }
            index = end
        }
        guard rest > 0 else { return text }
        output += bytes[rest...]
        return String(decoding: output, as: UTF8.self)
    }

    /// The start of a form body as text for a description, at most `bytes` bytes of it, secret
    /// values replaced, and how many bytes were left out. Reads at most `bytes` plus 64 KB.
    package func excerpt(ofForm body: Data, bytes: Int) -> (text: String, remaining: Int) {
        let scanned = body.prefix(bytes + (64 << 10))
        let redacted = redacting(text: String(decoding: scanned, as: UTF8.self))
        let (text, remaining) = ClippedText.prefix(ofBytes: Array(redacted.utf8), bytes: bytes)
        return (text, remaining + body.count - scanned.count)
    }

    /// This policy with body field names counting as parameter names.
    package var formPolicy: SecretPolicy {
        var policy = self
        policy.parameters.formUnion(bodyFields)
        return policy
    }
}
