public import Foundation
import SculptShared
import HTTPTypes
import Sculpt

/// Values in a recorded file (a fixture, a cassette, a HAR archive) that look like live secrets
/// that redaction missed: what `sculpt check` reports, for a test that guards a fixture folder.
///
/// ```swift
/// for file in fixtureFiles {
///     #expect(SecretScan.findings(inJSON: try Data(contentsOf: file)).isEmpty, "\(file.lastPathComponent)")
/// }
/// ```
///
/// What is found: a credential of a known shape anywhere (a provider's token, a JWT, a private
/// key), a password in a URL; a value still present under a name `Redaction` always replaces (`Authorization`,
/// `access_token`, `X-Vault-Token`); a random-looking value under a name that says it is secret
/// (`api_secret`, `X-Session`), as a JSON member, a header or a URL or form parameter; and any long
/// run of letters and digits random enough to be a key. Hex, UUIDs, identifiers, placeholders and
/// the redaction marker are not flagged by randomness alone. Bodies are read as a client would
/// read them: base64 decoded, gzip decompressed, forms and queries percent-decoded.
///
/// Every step is linear in what it reads: a file of repeated token prefixes costs what a file of
/// ordinary text of the same size does.
public enum SecretScan {
    /// A value that looks like a secret, never holding it whole.
    public struct Finding: Sendable, Equatable {
        /// Where it is: `interactions[0].response.headers[3]`.
        public var path: String
        /// What it looks like: `a GitHub token`.
        public var kind: String
        /// A known shape's prefix and the length, never a character of the secret itself:
        /// `ghp_… (40 characters)`; `REDACTED (11 characters)` for a value of no known shape.
        public var shown: String
        /// Text to find in the file for its line (the value, or the start of the encoded body
        /// that holds it): never shown.
        package var needle: String
    }

    /// The findings in a JSON document (a fixture, a cassette or a HAR archive): its string
    /// values in document order, then any credential of a known shape in the file's text that
    /// they missed (one in a member's name, in a repeated member, or in a file that is not JSON
    /// at all).
    ///
    /// ```swift
    /// let findings = SecretScan.findings(inJSON: try Data(contentsOf: file))
    /// findings.map { "\($0.path): \($0.kind): \($0.shown)" }   // ["response.body.token: a GitHub token: ghp_… (40 characters)"]
    /// ```
    ///
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - redaction: the names the recorder redacts, beside Sculpt's own (``Redaction/init(headers:queryParameters:bodyFields:)``):
    ///     a value under one of them that is not redacted is a finding.
    /// - Returns: what looks like a live secret, each where it is found.
    public static func findings(inJSON data: Data, redaction: Redaction = Redaction()) -> [Finding] {
        let policy = redaction.policy
        var findings: [Finding] = []
        // Sculpt's own reader: members in document order, repeats kept, any number read, and
        // a few bytes of memory per byte of text.
        if let root = try? OrderedJSON(parsing: data) {
            var path = Path()
            walk(root, name: nil, path: &path, into: &findings, policy)
        }
        let found = Set(findings.map(\.needle))
        findings += shapes(in: Array(data), path: "(the file's text)").filter { !found.contains($0.needle) }
        return hidingValues(in: findings).map { finding in
            // What it says it is, as every text Sculpt shows: a kind may quote the file (a coding).
            var finding = finding
            finding.kind = ShownText.line(finding.kind, limit: 1_024, policy: policy)
            finding.shown = ShownText.line(finding.shown, limit: 256, policy: policy)
            return finding
        }
    }

    /// `findings` with each value found hidden where a path names it (a member keyed by a token
    /// the file holds elsewhere): a path is shown, a value never.
    private static func hidingValues(in findings: [Finding]) -> [Finding] {
        // A value, and its words that may be written alone (`Token abc…`, a cookie's values).
        let values = Set(findings.lazy.flatMap { SecretPolicy.withParts($0.needle) }.filter { $0.utf8.count >= SecretPolicy.shortestSecretValue })
        guard !values.isEmpty else { return findings }
        // A value that reads as more than one step of a path is looked for in the whole path.
        let steps = values.filter { $0.contains(".") || $0.contains("[") }
        // In any spelling: a path may name it in another case or with other escapes.
        let index = SecretIndex(values)
        return findings.map { finding in
            var finding = finding
            finding.path = finding.path.split(separator: ".", omittingEmptySubsequences: false).map { step in
                // `name[2][0]`: the name before its indices.
                let name = step.prefix { $0 != "[" }
                return index.hiding(in: name) + step.dropFirst(name.count)
            }.joined(separator: ".")
            let inPath = steps.filter(finding.path.contains)
            if !inPath.isEmpty { finding.path = SecretPolicy.redacting(values: Array(inPath), in: finding.path) }
            return finding
        }
    }

    /// A name that names a value, judged once where it is read (a member's name, however many
    /// values an array under it holds, costs one reading): by the rules for where it stands (a
    /// JSON member, a header, a URL or form parameter, or any: a HAR cookie, a pair in no known
    /// list).
    private struct Name {
        enum Place { case member, header, parameter, any }

        let text: String
        /// `Redaction` always replaces what is under it (``Secrets``): the rules the recorder
        /// and HAR import apply there.
        let isAlwaysRedacted: Bool
        /// It says its value is secret (`api_secret`, `X-Session`).
        let suggestsSecret: Bool
        /// It names an identifier (`id`, `node_id`, `requestIds`).
        let namesIdentifier: Bool

        init(_ place: Place, _ text: String, _ policy: SecretPolicy) {
            self.text = text
            func isSecretHeader() -> Bool { HTTPField.Name(text).map(policy.isSecret(header:)) == true }
            switch place {
            case .member: isAlwaysRedacted = policy.isSecret(bodyField: text)
            case .header: isAlwaysRedacted = isSecretHeader()
            case .parameter: isAlwaysRedacted = policy.isSecret(parameter: text, besideOAuth: false)
            case .any: isAlwaysRedacted = policy.isSecret(parameter: text, besideOAuth: false) || isSecretHeader()
            }
            suggestsSecret = Secrets.nameSuggestsSecret(text)
            let folded = ASCII.lowercased(text).filter { $0.isLetter || $0.isNumber }
            // A multipart body's boundary is random by design, and no secret.
            namesIdentifier = folded.hasSuffix("id") || folded.hasSuffix("ids") || folded == "boundary"
        }
    }

    /// Where a value is in the document, written out only for a finding:
    /// `interactions[0].response.headers[3]`.
    private struct Path {
        private var parts: [String] = []

        /// The last member name on the path (`headers` in `log.entries[0].request.headers[2]`).
        var lastMember: Substring {
            parts.last { !$0.hasPrefix("[") }.map { $0.drop { $0 == "." } } ?? ""
        }

        mutating func push(member: String) { parts.append(parts.isEmpty ? member : "." + member) }
        mutating func push(index: Int) { parts.append("[\(index)]") }
        mutating func pop() { parts.removeLast() }

        var text: String { parts.isEmpty ? "(top level)" : parts.joined() }
    }

    private static func walk(_ value: OrderedJSON, name: Name?, path: inout Path, into findings: inout [Finding], _ policy: SecretPolicy) {
        switch value {
        case .string(let text):
            add(self.findings(in: text, name: name, policy), at: path, to: &findings)
        case .array(let elements):
            // A header as fixtures write it: `["X-Api-Key", "value"]` names its value.
            if elements.count == 2, case .string(let field) = elements[0], case .string(let text) = elements[1] {
                path.push(index: 1)
                add(self.findings(in: text, name: Name(.header, field, policy), policy), at: path, to: &findings)
                path.pop()
                return
            }
            for (index, element) in elements.enumerated() {
                path.push(index: index)
                walk(element, name: name, path: &path, into: &findings, policy)
                path.pop()
            }
        case .object(let members):
            // HAR headers, cookies and parameters: `{"name": "Cookie", "value": "..."}`, named by
            // the list they are in.
            let pairName = value["name"]?.string.map { pair -> Name in
                switch path.lastMember {
                case "headers": return Name(.header, pair, policy)
                case "queryString", "params": return Name(.parameter, pair, policy)
                default: return Name(.any, pair, policy)
                }
            }
            // A base64 body: a fixture's (`bodyEncoding`) or a HAR entry's (`content.encoding`); a
            // body written as text otherwise.
            let base64Member = value["bodyEncoding"]?.string == "base64" ? "body" : value["encoding"]?.string == "base64" ? "text" : nil
            // The fields beside a body (a fixture's `headers`, a HAR content's `mimeType`): how it
            // is stored, and a multipart body's boundary.
            let fields = Self.fields(of: value)
            let boundary = MultipartBody.boundary(in: fields[values: .contentType])
            for member in members {
                let key = member.key
                lazy var memberName = Name(.member, key, policy)
                // A member's name is shown in reports: through the gate.
                path.push(member: ShownText.line(key, limit: 128))
                defer { path.pop() }
                // A body written as text or base64 (not as JSON): read as a client reads it.
                let isBase64 = key == base64Member
                if key == "body" || key == "text", let text = member.value.string,
                    let bytes = isBase64 ? Data(base64Encoded: text, options: .ignoreUnknownCharacters) : Data(text.utf8) {
                    // Found in the decoded body, read as JSON when it is JSON.
                    let (body, utf8, byteByByte, failure) = decodedBody(bytes, fields: fields)
                    var found: [Finding] = []
                    for (text, bytes) in [(body, utf8)] + (byteByByte.map { [($0, Data($0.utf8))] } ?? []) {
                        if let document = try? OrderedJSON(parsing: Data(text.utf8)), { if case .object = document { true } else { document.array != nil } }() {
                            walk(document, name: nil, path: &path, into: &found, policy)
                        } else {
                            // A multipart body's parts are read from its bytes, each in its own encoding;
                            // body field names name a form's parameters, as redaction reads them.
                            add(self.findings(in: text, name: nil, policy.formPolicy, boundary: boundary, bytes: [UInt8](bytes)), at: path, to: &found)
                        }
                    }
                    // A base64 body's findings point at the file's line that holds the body as encoded.
                    findings += hidingValues(in: found).map { isBase64 ? Finding(path: $0.path, kind: $0.kind, shown: $0.shown, needle: String(text.prefix(64))) : $0 }
                    // What could not be read may hold a secret: the file is not called clean.
                    if let failure {
                        findings.append(Finding(path: path.text, kind: "a compressed body that cannot be read whole (\(failure))", shown: "not checked past \(body.utf8.count) bytes", needle: String(text.prefix(64))))
                    }
                } else {
                    walk(member.value, name: key == "value" ? pairName ?? memberName : memberName, path: &path, into: &findings, policy)
                }
            }
        case .number(let text):
            // Redaction replaces a number under a secret name too: one still there is a finding.
            guard let name, name.isAlwaysRedacted else { return }
            add(self.findings(in: text, name: name, policy), at: path, to: &findings)
        case .null, .bool:
            return
        }
    }

    /// The fields that describe the body an object holds: its `headers` (`[name, value]` pairs,
    /// as fixtures write them), or its `mimeType` as a `Content-Type` (a HAR content).
    private static func fields(of object: OrderedJSON) -> HTTPFields {
        var fields = HTTPFields()
        if let type = object["mimeType"]?.string { fields.append(HTTPField(name: .contentType, value: type)) }
        for pair in object["headers"]?.array ?? [] {
            guard let items = pair.array, items.count == 2, let name = items[0].string.flatMap({ HTTPField.Name($0) }),
                let value = items[1].string else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }

    /// `found` placed at `path`: a path is written out only for a value that has findings.
    private static func add(_ found: [Finding], at path: Path, to findings: inout [Finding]) {
        guard !found.isEmpty else { return }
        let text = path.text
        findings += found.map { Finding(path: text, kind: $0.kind, shown: $0.shown, needle: $0.needle) }
    }

    /// A base64 body's text as a client reads it: decompressed when it is gzip (up to
    /// `Gzip.maximumSize`), with why a compressed one could not be read whole (what was read of
    /// it is checked still); and, for a body read as UTF-16 or UTF-32 by its first bytes, the same
    /// body read byte by byte, as it may be text that only starts so (`FF FE 41 00` and then ASCII).
    private static func decodedBody(_ bytes: Data, fields: HTTPFields) -> (text: String, utf8: Data, byteByByte: String?, failure: String?) {
        // As every reader of recordings reads a stored body (``RecordedBody``): decompressed, in
        // UTF-8; by the fields that describe it when there are any.
        do {
            let (body, described) = fields[.contentEncoding] != nil || BodyText.charset(in: fields[values: .contentType]) != nil
                ? try RecordedBody.decoded(bytes, fields: fields) : (try RecordedBody.decompressed(ofStored: bytes), fields)
            let read = BodyText(body, contentTypes: described[values: .contentType])
            let text = String(decoding: read.utf8, as: UTF8.self)
            let byteByByte = read.isTranscoded ? byteReading(of: body) : nil
            // A coding no reader undoes (`br`) over bytes that are not text: what they hold is unknown.
            if let coding = described[.contentEncoding], !RecordedBody.isText(body) {
                return (text, read.utf8, byteByByte, "Content-Encoding \(PrintableText.value(coding, limit: 64)) is not read")
            }
            return (text, read.utf8, byteByByte, nil)
        } catch {
            // Named by the coding it was stored under (`deflate: the stream is corrupt`).
            let coding = fields[.contentEncoding] ?? (Gzip.isCompressed(bytes) ? "gzip" : "deflate")
            return (String(decoding: error.partial, as: UTF8.self), error.partial, nil, "\(coding): \(error.reason)")
        }
    }

    /// A body read in another encoding as redaction reads it too, byte by byte (text in another
    /// encoding that only starts as UTF-16 does, or under a charset it is not in), its byte order
    /// mark left out; `nil` for one that is the wide text it was read as.
    private static func byteReading(of body: Data) -> String? {
        guard !BodyText.holdsWideText(body) else { return nil }
        let marks: [[UInt8]] = [[0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF]]
        let mark = marks.first { body.starts(with: $0) }?.count ?? 0
        return String(data: body.dropFirst(mark), encoding: .isoLatin1)
    }

    /// The credentials of a known shape in `bytes`, each once, placeholders left out.
    private static func shapes(in bytes: [UInt8], path: String) -> [Finding] {
        CredentialShape.find(in: bytes).compactMap { found in
            let text = String(decoding: bytes[found.range], as: UTF8.self)
            let prefix = found.prefixLength > 0 ? found.prefixLength : 4
            // `ghp_000...0` in an example is not a token.
            guard !isPlaceholder(text.utf8.dropFirst(prefix)) else { return nil }
            // A private key spans lines: its first line locates the file's line.
            let needle = String(text.prefix { $0 != "\n" && $0 != "\r" && $0 != "\\" })
            return Finding(path: path, kind: found.kind, shown: shown(text, prefixLength: min(found.range.count, prefix)), needle: needle)
        }
    }

    /// The findings in one string value that `name` (a member, header or parameter name) names:
    /// read as it is and, when it holds percent-encodings or `+`, as a form or query decodes it;
    /// and each named part of it when it is a multipart body (by `boundary`, or the one its first
    /// line names), read from `bytes` when the value is text read from them.
    private static func findings(in text: String, name: Name?, _ policy: SecretPolicy, boundary: String? = nil, depth: Int = 0, bytes: [UInt8]? = nil) -> [Finding] {
        let multipart = depth < 4 ? multipartParts(of: bytes ?? Array(text.utf8), boundary: boundary) : (parts: [], delimiter: nil)
        let parts = multipart.parts.flatMap { part -> [Finding] in
            // A multipart part is read part by part in turn.
            if let type = part.contentType, MultipartBody.isMultipart([type]) {
                return findings(in: String(decoding: part.content, as: UTF8.self), name: Name(.parameter, part.name, policy), policy, boundary: MultipartBody.boundary(in: [type]), depth: depth + 1, bytes: [UInt8](part.content))
            }
            let read = BodyText(part.content, contentTypes: [part.contentType ?? "text/plain"])
            // Read byte by byte too when it was read in another encoding.
            let readings = [String(decoding: read.utf8, as: UTF8.self)] + (read.isTranscoded ? [byteReading(of: part.content)].compactMap { $0 } : [])
            return readings.enumerated().flatMap { reading, content -> [Finding] in
                // A JSON part is read as JSON: its members are named.
                if let document = try? OrderedJSON(parsing: Data(content.utf8)), { if case .object = document { true } else { document.array != nil } }() {
                    var path = Path()
                    var found: [Finding] = []
                    walk(document, name: nil, path: &path, into: &found, policy)
                    return found.map { Finding(path: "", kind: $0.kind, shown: $0.shown, needle: $0.needle) }
                }
                // A name tells what the part's text is; read byte by byte, only what it holds.
                return valueFindings(in: content, name: reading == 0 ? Name(.parameter, part.name, policy) : nil, policy)
            }
        }
        return valueFindings(in: text, name: name, policy, delimiter: multipart.delimiter) + parts
    }

    /// ``findings(in:name:_:boundary:)`` of the text as one value; a multipart body's
    /// `delimiter` (`--` and its boundary), random by design, is no finding.
    private static func valueFindings(in text: String, name: Name?, _ policy: SecretPolicy, delimiter: String? = nil) -> [Finding] {
        // Too short to hold a credential's shape (20 bytes or more) or a random key (16): looked at
        // only when its name says redaction replaces it, or it holds `name=value` pairs.
        if text.utf8.count < 16, !text.utf8.contains(UInt8(ascii: "=")), !(name?.isAlwaysRedacted ?? false) { return [] }
        let path = ""
        var findings = shapes(in: Array(text.utf8), path: path)
        let decoded = formDecoded(text)
        if let decoded {
            let found = Set(findings.map(\.needle))
            findings += shapes(in: Array(decoded.utf8), path: path).filter { !found.contains($0.needle) }
        }
        if let password = urlPassword(in: decoded ?? text), !holdsMarker(password), !isPlaceholder(password.utf8) {
            findings.append(Finding(path: path, kind: "a password in a URL", shown: hidden(String(password)), needle: String(password)))
        }
        // XML or an HTML page: what redaction replaces under a secret element or attribute (a
        // secret `<input>`'s value, a CSRF `<meta>`'s content).
        if text.utf8.contains(UInt8(ascii: "<")) {
            let bytes = Array(text.utf8)
            for range in policy.secretXMLValueRanges(in: bytes) {
                let value = String(decoding: bytes[range], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                guard !value.isEmpty, !holdsMarker(Substring(value)), !isPlaceholder(value.utf8) else { continue }
                findings.append(Finding(path: path, kind: "an unredacted value under a secret element or attribute", shown: hidden(value), needle: value))
            }
        }
        // A credential after `Bearer` or `Basic`, as redaction replaces it in any text.
        let bytes = Array(text.utf8)
        for range in policy.schemeCredentialRanges(in: bytes) {
            let credential = String(decoding: bytes[range], as: UTF8.self)
            guard !holdsMarker(Substring(credential)), !isPlaceholder(credential.utf8), !findings.contains(where: { $0.needle == credential }) else { continue }
            findings.append(Finding(path: path, kind: "a credential after its scheme (Bearer, Basic)", shown: hidden(credential), needle: credential))
        }
        // And what names tell, each value once: a credential under a secret name is one finding.
        let found = Set(findings.map(\.needle))
        return findings + namedFindings(in: text, name: name, path: path, policy, delimiter: delimiter).filter { !found.contains($0.needle) }
    }

    /// `text` with `+` read as a space and percent-encodings decoded, as a form or query is
    /// read; `nil` when it holds neither.
    private static func formDecoded(_ text: String) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) || text.utf8.contains(UInt8(ascii: "+")) else { return nil }
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// A value under a secret name, or each `name=value` parameter in the text (a URL's query, a
    /// form, a cookie list), under its own name or the value's.
    private static func namedFindings(in text: String, name: Name?, path: String, _ policy: SecretPolicy, delimiter: String? = nil) -> [Finding] {
        var findings: [Finding] = []
        var named: [(name: Name?, value: Substring)] = []
        let separators = Array("&;?# \t\r\n".utf8), nameBytes = Array("_-.[]%".utf8)
        // A query carried encoded inside a value (`q=a%3D1%26password%3D…`) is read as pairs too,
        // decoded up to three times: the pairs that decoding brings out, under names not read yet.
        var texts = [text]
        while texts.count < 4, let last = texts.last, last.utf8.contains(UInt8(ascii: "%")), let decoded = last.removingPercentEncoding, decoded != last {
            texts.append(decoded)
        }
        var names: Set<String> = []
        for text in texts {
            var namesHere: Set<String> = []
            for part in text.utf8.split(whereSeparator: separators.contains).map(Substring.init) {
                // `name=value` with a name a parameter has: base64's `=` padding makes no pair.
                guard let equals = part.utf8.firstIndex(of: UInt8(ascii: "=")), equals != part.startIndex,
                    part.utf8.distance(from: part.startIndex, to: equals) <= 64,
                    part.utf8[..<equals].allSatisfy({ CredentialShape.isAlphanumeric($0) || nameBytes.contains($0) }),
                    part.utf8[part.utf8.index(after: equals)...].contains(where: { $0 != UInt8(ascii: "=") })
                else { continue }
                let partName = String(part[..<equals])
                namesHere.insert(partName)
                guard !names.contains(partName) else { continue }
                named.append((Name(.parameter, partName.removingPercentEncoding ?? partName, policy), part[part.utf8.index(after: equals)...]))
            }
            names.formUnion(namesHere)
        }
        // The whole text too: a pair in it does not hide a key elsewhere in it.
        named.append((name, Substring(text)))
        let outerIsSecret = name?.suggestsSecret ?? false
        // What is no secret by design, whatever it looks like: a multipart delimiter, and the values
        // of pairs named as identifiers or boundaries, wherever else the text holds them.
        var seen: Set<Substring> = []
        if let delimiter { seen.formUnion([Substring(delimiter), Substring(delimiter + "--"), delimiter.dropFirst(2)]) }
        for (partName, value) in named where partName?.namesIdentifier == true && partName?.suggestsSecret == false { seen.formUnion(runs(in: value)) }
        for (partName, value) in named {
            // A name redaction always replaces, with its value still there: redaction was skipped.
            if let partName, partName.isAlwaysRedacted, !value.isEmpty, !holdsMarker(value),
                !isPlaceholder((value.split(separator: " ").last ?? value).utf8), !hasTypePrefix(value)
            {
                findings.append(Finding(path: path, kind: "an unredacted \"\(PrintableText.value(partName.text, limit: 64))\"", shown: hidden(String(value)), needle: String(value)))
                continue
            }
            let secretName = outerIsSecret || partName?.suggestsSecret ?? false
            for run in runs(in: value) where !holdsMarker(run) && !seen.contains(run) {
                guard secretName ? looksRandom(run, atLeast: 16) : looksRandom(run, atLeast: 32, strictly: true) && !isIdentifier(run, named: partName ?? name)
                else { continue }
                seen.insert(run)
                let called = (outerIsSecret ? name : partName).map { "\"\(PrintableText.value($0.text, limit: 64))\"" } ?? ""
                let kind = secretName ? "a random value named \(called)" : "a long random value"
                findings.append(Finding(path: path, kind: kind, shown: hidden(String(run)), needle: String(run)))
            }
        }
        return findings
    }

    /// The named parts of `bytes` when they are a multipart body, each part's content as a reader
    /// decodes it (base64 undone), and its delimiter: by `boundary`, or without one when its first
    /// line is `--` and a boundary, as a body without a preamble starts.
    private static func multipartParts(of bytes: [UInt8], boundary: String?) -> (parts: [(name: String, contentType: String?, content: Data)], delimiter: String?) {
        guard let body = MultipartBody(bytes, boundary: boundary) else { return ([], nil) }
        return (body.parts.map { ($0.name ?? "", $0.contentType, $0.decoded(in: bytes)) }, "--" + body.boundary)
    }

    /// The password of the first URL in `text` that has one (`https://user:password@host/`).
    private static func urlPassword(in text: String) -> Substring? {
        let utf8 = text.utf8
        guard let colon = utf8.indices.first(where: { utf8[$0] == UInt8(ascii: ":") && utf8[$0...].starts(with: schemeSeparator) }) else { return nil }
        let ends = Array("/?# \"".utf8)
        let authority = Substring(utf8[utf8.index(colon, offsetBy: 3)...].prefix { !ends.contains($0) })
        guard let at = authority.utf8.lastIndex(of: UInt8(ascii: "@")), let colon = authority.utf8[..<at].firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let password = authority[authority.utf8.index(after: colon)..<at]
        return password.isEmpty ? nil : password
    }

    private static let schemeSeparator = Array("://".utf8)
    private static let markerBytes = Array(Redaction.marker.utf8)

    /// Whether `text` holds the redaction marker.
    private static func holdsMarker(_ text: Substring) -> Bool {
        contains(markerBytes, in: text.utf8)
    }

    /// Whether `pattern` occurs in `bytes`.
    private static func contains(_ pattern: [UInt8], in bytes: Substring.UTF8View) -> Bool {
        guard let first = pattern.first, bytes.count >= pattern.count else { return false }
        var index = bytes.startIndex
        let last = bytes.index(bytes.endIndex, offsetBy: -pattern.count)
        while index <= last {
            if bytes[index] == first, bytes[index...].starts(with: pattern) { return true }
            index = bytes.index(after: index)
        }
        return false
    }

    /// Whether `value` is a stand-in rather than a credential: two different bytes or fewer
    /// (`0000000000000000000000000000000000000001`, `xxxxxxxx`), as test fixtures write them.
    private static func isPlaceholder(_ value: some Sequence<UInt8>) -> Bool {
        var first: UInt8?
        var second: UInt8?
        for byte in value where byte != first && byte != second {
            guard first == nil || second == nil else { return false }
            if first == nil { first = byte } else { second = byte }
        }
        return true
    }

    /// Whether a random-looking value with no secret name is an identifier instead: named as
    /// one (`id`, `node_id`, `requestId`), written as one (a type prefix, `cus_`, `pi_`), or
    /// base64 of plain text (GitHub's node IDs, `MDQ6VXNlcjE=` for `04:User1`).
    private static func isIdentifier(_ run: Substring, named name: Name?) -> Bool {
        if name?.namesIdentifier == true || hasTypePrefix(run) { return true }
        let padded = run + String(repeating: "=", count: (4 - run.utf8.count % 4) % 4)
        guard let decoded = Data(base64Encoded: String(padded)), decoded.count >= 8 else { return false }
        return decoded.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// Whether `value` is an object's identifier with its type in front, as Stripe writes them
    /// (`cus_NffrFeUf...`, `iauth_1MzF...`): 2 to 12 lowercase letters and `_`. (A live key's
    /// shape, `sk_live_`, is checked before this.)
    private static func hasTypePrefix(_ value: Substring) -> Bool {
        let bytes = value.utf8
        guard let underscore = bytes.firstIndex(of: UInt8(ascii: "_")) else { return false }
        return (2...12).contains(bytes.distance(from: bytes.startIndex, to: underscore))
            && bytes[..<underscore].allSatisfy { (0x61...0x7A).contains($0) }
    }

    /// The runs of characters a key is written with (letters, digits, `_-+/.~`) in `text`, of 16
    /// or more (the shortest a key is taken to be), without URLs and paths (a run with `://` or
    /// starting with `/`).
    private static func runs(in text: Substring) -> [Substring] {
        var runs: [Substring] = []
        let utf8 = text.utf8
        var start: Substring.UTF8View.Index?
        var length = 0
        func end(at index: Substring.UTF8View.Index) {
            if let start, length >= 16, utf8[start] != UInt8(ascii: "/") {
                let run = Substring(utf8[start..<index])
                if !contains(schemeSeparator, in: run.utf8) { runs.append(run) }
            }
            start = nil
            length = 0
        }
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let byte = utf8[index]
            if CredentialShape.isAlphanumeric(byte) || isKeyPunctuation(byte) {
                if start == nil { start = index }
                length += 1
            } else {
                end(at: index)
            }
            index = utf8.index(after: index)
        }
        end(at: utf8.endIndex)
        return runs
    }

    /// `_-+/.~`, the punctuation keys are written with.
    private static func isKeyPunctuation(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "~"): true
        default: false
        }
    }

    /// Whether `run` (ASCII) is random enough to be a key: at least `atLeast` characters, letters
    /// and digits both, and close to as many bits a character as its length allows. `strictly` (no
    /// name says it is secret) also asks for both cases of letters, leaves hex and UUIDs alone and
    /// stops at 256 characters (longer are data, not keys).
    private static func looksRandom(_ run: Substring, atLeast minimum: Int, strictly: Bool = false) -> Bool {
        let padding = UInt8(ascii: "=")
        let bytes = run.utf8
        guard let first = bytes.firstIndex(where: { $0 != padding }), let last = bytes.lastIndex(where: { $0 != padding }) else { return false }
        let core = bytes[first...last]
        guard core.count >= minimum, !strictly || core.count <= 256 else { return false }
        var counts = [Int](repeating: 0, count: 256)
        var hasUpper = false, hasLower = false, hasDigit = false, allHex = true
        for byte in core {
            counts[Int(byte)] += 1
            hasUpper = hasUpper || (0x41...0x5A).contains(byte)
            hasLower = hasLower || (0x61...0x7A).contains(byte)
            hasDigit = hasDigit || (0x30...0x39).contains(byte)
            allHex = allHex && ((0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) || byte == UInt8(ascii: "-"))
        }
        guard hasDigit, hasUpper || hasLower, !strictly || (hasUpper && hasLower) else { return false }
        // SHAs, digests, UUIDs; under a secret name, hex is a key like any other (`DD-API-KEY`).
        if strictly, allHex { return false }
        let size = Double(core.count)
        let bits = counts.reduce(0.0) { total, count in
            guard count > 0 else { return total }
            let share = Double(count) / size
            return total - share * log2(share)
        }
        // The most a run this long can have is log2 of its length (each character once): a
        // random key comes near it, words and ids built from a few parts do not.
        return bits >= (strictly ? 0.85 : 0.7) * log2(min(size, 64))
    }

    /// A credential's first `prefixLength` characters (its shape's prefix, such as `ghp_`), an
    /// ellipsis, and the length: never the whole value.
    private static func shown(_ value: String, prefixLength: Int) -> String {
        "\(value.prefix(min(prefixLength, value.count / 4)))… (\(value.count) characters)"
    }

    /// A value of no known shape: the marker and the length, none of its characters.
    private static func hidden(_ value: String) -> String {
        "\(Secrets.marker) (\(value.count) characters)"
    }
}
