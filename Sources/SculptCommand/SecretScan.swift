import Foundation
import Sculpt
import SculptTesting

/// Values in a fixture file that look like live secrets that redaction missed: a known
/// credential shape anywhere (``SecretShape``), a JWT, a private key, a password in a URL; a value
/// still present under a name `Redaction` always replaces (`Authorization`, `access_token`); a
/// random-looking value under a name that says it is secret (`api_secret`, `X-Session`), as a
/// JSON member, a header or a URL or form parameter; and any long run of letters and digits
/// random enough to be a key. Hex, UUIDs, identifiers, placeholders and the redaction marker are
/// not flagged by randomness alone.
enum SecretScan {
    /// A value that looks like a secret.
    struct Finding: Equatable {
        /// Where it is: `interactions[0].response.headers[3]`.
        var path: String
        /// What it looks like: `a GitHub token`.
        var kind: String
        /// Its start and length, never the whole value: `ghp_… (40 characters)`.
        var shown: String
        /// Text to find in the file for its line.
        var needle: String
    }

    /// The findings in a JSON document's string values, in document order, then any credential
    /// of a known shape in the file's text that they missed: one in a member's name, in a
    /// repeated member `JSONSerialization` drops, or in a file it cannot read at all (a number
    /// out of `Double`'s range), where the loader may still read it.
    static func findings(inJSON data: Data) -> [Finding] {
        var findings: [Finding] = []
        if let root = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
            walk(root, name: nil, path: "", into: &findings)
        }
        let found = Set(findings.map(\.needle))
        let text = String(decoding: data, as: UTF8.self)
        findings += shapes(in: Array(text.utf8), path: "(the file's text)").filter { !found.contains($0.needle) }
        return findings
    }

    private static func walk(_ value: Any, name: String?, path: String, into findings: inout [Finding]) {
        switch value {
        case let text as String:
            findings += self.findings(in: text, name: name, path: path.isEmpty ? "(top level)" : path)
        case let array as [Any]:
            // A header as fixtures and HAR write it: `["X-Api-Key", "value"]` names its value.
            if array.count == 2, let field = array[0] as? String, let text = array[1] as? String {
                findings += self.findings(in: text, name: field, path: "\(path)[1]")
                return
            }
            for (index, element) in array.enumerated() { walk(element, name: name, path: "\(path)[\(index)]", into: &findings) }
        case let object as [String: Any]:
            // HAR headers, cookies and parameters: `{"name": "Cookie", "value": "..."}`.
            let pairName = object["name"] as? String
            // A base64 body: a fixture's (`bodyEncoding`) or a HAR entry's (`content.encoding`).
            let base64Member = object["bodyEncoding"] as? String == "base64" ? "body" : object["encoding"] as? String == "base64" ? "text" : nil
            for key in object.keys.sorted() {
                guard let member = object[key] else { continue }
                // A member's name is shown in reports: a credential there is shown by its shape.
                let shownKey = shapes(in: Array(key.utf8), path: "").isEmpty ? PrintableText.value(key, limit: 128) : "(a name that looks like a credential)"
                let memberPath = path.isEmpty ? shownKey : "\(path).\(shownKey)"
                if key == base64Member, let text = member as? String, let bytes = Data(base64Encoded: text, options: .ignoreUnknownCharacters) {
                    findings += self.findings(in: String(decoding: bytes, as: UTF8.self), name: nil, path: memberPath).map {
                        Finding(path: $0.path, kind: $0.kind, shown: $0.shown, needle: String(text.prefix(64)))
                    }
                } else {
                    walk(member, name: key == "value" ? pairName ?? key : key, path: memberPath, into: &findings)
                }
            }
        default:
            return
        }
    }

    /// The credentials of a known shape in `bytes`, each once.
    private static func shapes(in bytes: [UInt8], path: String) -> [Finding] {
        var findings: [Finding] = []
        var covered = 0  // bytes before this are part of a finding already
        for start in bytes.indices where start >= covered {
            guard let (kind, length) = shape(in: bytes, at: start) else { continue }
            covered = start + length
            let found = String(decoding: bytes[start..<covered], as: UTF8.self)
            let prefix = kind == "a JWT" ? 3 : prefixLength(of: found)
            // `ghp_000...0` in an example is not a token.
            guard !isPlaceholder(found.dropFirst(prefix)) else { continue }
            findings.append(Finding(path: path, kind: kind, shown: shown(found, prefixLength: min(length, prefix)), needle: found))
        }
        return findings
    }

    /// The findings in one string value that `name` (a member, header or parameter name) names.
    static func findings(in text: String, name: String?, path: String) -> [Finding] {
        var findings = shapes(in: Array(text.utf8), path: path)
        if let password = urlPassword(in: text), !password.contains(Redaction.marker), !isPlaceholder(password) {
            findings.append(Finding(path: path, kind: "a password in a URL", shown: shown(String(password), prefixLength: 0), needle: String(password)))
        }
        guard findings.isEmpty else { return findings }
        // A value under a secret name, or each `name=value` parameter in the text (a URL's
        // query, a form, a cookie list), under its own name or the value's.
        var named: [(name: String?, value: Substring)] = []
        for part in text.split(whereSeparator: { "&;?# \t\r\n".contains($0) }) {
            // `name=value` with a name a parameter has: base64's `=` padding makes no pair.
            guard let equals = part.firstIndex(of: "="), equals != part.startIndex, part.distance(from: part.startIndex, to: equals) <= 64,
                part[..<equals].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_-.[]%".contains($0)) }),
                part[part.index(after: equals)...].contains(where: { $0 != "=" })
            else { continue }
            let partName = String(part[..<equals])
            named.append((partName.removingPercentEncoding ?? partName, part[part.index(after: equals)...]))
        }
        // The whole text too: a pair in it does not hide a key elsewhere in it.
        named.append((name, Substring(text)))
        let outerIsSecret = name.map(SecretNames.isSecret) ?? false
        var seen: Set<Substring> = []
        for (partName, value) in named {
            // A name redaction always replaces, with its value still there: redaction was skipped.
            if let partName, Self.alwaysRedacted.contains(partName.lowercased()), !value.isEmpty, !value.contains(Redaction.marker),
                !Self.isPlaceholder(value.split(separator: " ").last ?? value), !Self.hasTypePrefix(value)
            {
                findings.append(Finding(path: path, kind: "an unredacted \"\(PrintableText.value(partName, limit: 64))\"", shown: shown(String(value), prefixLength: 4), needle: String(value)))
                continue
            }
            let secretName = outerIsSecret || partName.map(SecretNames.isSecret) ?? false
            for run in runs(in: value) where !run.contains(Redaction.marker) && !seen.contains(run) {
                guard secretName ? looksRandom(run, atLeast: 16) : looksRandom(run, atLeast: 32, strictly: true) && !isIdentifier(run, named: partName ?? name)
                else { continue }
                seen.insert(run)
                let called = (outerIsSecret ? name : partName).map { "\"\(PrintableText.value($0, limit: 64))\"" } ?? ""
                let kind = secretName ? "a random value named \(called)" : "a long random value"
                findings.append(Finding(path: path, kind: kind, shown: shown(String(run), prefixLength: 4), needle: String(run)))
            }
        }
        return findings
    }

    /// The password of the first URL in `text` that has one (`https://user:password@host/`).
    private static func urlPassword(in text: String) -> Substring? {
        guard let scheme = text.range(of: "://") else { return nil }
        let authority = text[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != " " && $0 != "\"" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        let password = authority[authority.index(after: colon)..<at]
        return password.isEmpty ? nil : password
    }

    /// Whether `value` is a stand-in rather than a credential: two different characters or fewer
    /// (`0000000000000000000000000000000000000001`, `xxxxxxxx`), as test fixtures write them.
    static func isPlaceholder(_ value: Substring) -> Bool {
        var seen: Set<Character> = []
        for character in value {
            seen.insert(character)
            if seen.count > 2 { return false }
        }
        return true
    }

    /// The names (lowercased) whose values ``Redaction`` always replaces: headers, parameters and
    /// JSON members.
    private static let alwaysRedacted = Set(Secrets.bodyFields)

    /// Whether a random-looking value with no secret name is an identifier instead: named as
    /// one (`id`, `node_id`, `requestId`), written as one (a type prefix, `cus_`, `pi_`), or
    /// base64 of plain text (GitHub's node IDs, `MDQ6VXNlcjE=` for `04:User1`).
    private static func isIdentifier(_ run: Substring, named name: String?) -> Bool {
        if let name {
            let folded = name.lowercased().filter { $0.isLetter || $0.isNumber }
            if folded == "id" || folded.hasSuffix("id") || folded.hasSuffix("ids") { return true }
        }
        if hasTypePrefix(run) { return true }
        let padded = run + String(repeating: "=", count: (4 - run.count % 4) % 4)
        guard let decoded = Data(base64Encoded: String(padded)), decoded.count >= 8 else { return false }
        return decoded.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// Whether `value` is an object's identifier with its type in front, as Stripe writes them
    /// (`cus_NffrFeUf...`, `iauth_1MzF...`): 2 to 12 lowercase letters and `_`. (A live key's
    /// shape, `sk_live_`, is checked before this.)
    private static func hasTypePrefix(_ value: Substring) -> Bool {
        guard let underscore = value.firstIndex(of: "_") else { return false }
        return (2...12).contains(value.distance(from: value.startIndex, to: underscore))
            && value[..<underscore].allSatisfy { $0.isASCII && $0.isLowercase }
    }

    /// A known shape, a JWT or a private key starting at `start`: what it is and its length.
    private static func shape(in bytes: [UInt8], at start: Int) -> (String, Int)? {
        for shape in SecretShape.known {
            if let length = shape.match(in: bytes, at: start) { return (shape.name, length) }
        }
        if let length = jwt(in: bytes, at: start) { return ("a JWT", length) }
        let begin = Array("-----BEGIN ".utf8)
        if bytes[start...].starts(with: begin), let end = bytes[start...].firstRange(of: Array("-----".utf8), after: begin.count),
            ["PRIVATE KEY", "PRIVATE KEY BLOCK"].contains(where: String(decoding: bytes[start..<end], as: UTF8.self).hasSuffix)
        {
            return ("a private key", min(bytes.count - start, end + 5 - start))
        }
        return nil
    }

    /// A JWT at `start`: `eyJ` base64url, a dot, `eyJ` base64url, a dot, base64url (the
    /// signature), each part at least 10 characters.
    private static func jwt(in bytes: [UInt8], at start: Int) -> Int? {
        var index = start
        for part in 0..<3 {
            let partStart = index
            if part < 2, !bytes[index...].starts(with: Array("eyJ".utf8)) { return nil }
            while index < bytes.count, SecretShape.isTokenByte(bytes[index]) { index += 1 }
            guard index - partStart >= 10 else { return nil }
            if part < 2 {
                guard index < bytes.count, bytes[index] == UInt8(ascii: ".") else { return nil }
                index += 1
            }
        }
        return index - start
    }

    /// The runs of characters a key is written with (letters, digits, `_-+/.~`) in `text`,
    /// without URLs and paths (a run with `://` or starting with `/`).
    private static func runs(in text: Substring) -> [Substring] {
        text.split { !($0.isASCII && ($0.isLetter || $0.isNumber || "_-+/.~".contains($0))) }
            .filter { !$0.contains("://") && !$0.hasPrefix("/") }
    }

    /// Whether `run` is random enough to be a key: at least `atLeast` characters, letters and
    /// digits both, and close to as many bits a character as its length allows. `strictly` (no
    /// name says it is secret) also asks for both cases of letters, leaves hex and UUIDs alone and
    /// stops at 256 characters (longer are data, not keys).
    static func looksRandom(_ run: Substring, atLeast minimum: Int, strictly: Bool = false) -> Bool {
        let core = run.drop { $0 == "=" }.reversed().drop { $0 == "=" }.reversed()
        guard core.count >= minimum, !strictly || core.count <= 256 else { return false }
        let hasUpper = core.contains { $0.isUppercase }
        let hasLower = core.contains { $0.isLowercase }
        let hasDigit = core.contains { $0.isNumber }
        guard hasDigit, hasUpper || hasLower, !strictly || (hasUpper && hasLower) else { return false }
        // SHAs, digests, UUIDs; under a secret name, hex is a key like any other (`DD-API-KEY`).
        if strictly, core.allSatisfy({ $0.isHexDigit || $0 == "-" }) { return false }
        var counts: [Character: Int] = [:]
        for character in core { counts[character, default: 0] += 1 }
        let size = Double(core.count)
        let bits = counts.values.reduce(0.0) { total, count in
            let share = Double(count) / size
            return total - share * log2(share)
        }
        // The most a run this long can have is log2 of its length (each character once): a
        // random key comes near it, words and ids built from a few parts do not.
        return bits >= (strictly ? 0.85 : 0.7) * log2(min(size, 64))
    }

    /// The first `prefixLength` characters, an ellipsis, and the length: never the whole value.
    private static func shown(_ value: String, prefixLength: Int) -> String {
        "\(value.prefix(min(prefixLength, value.count / 4)))… (\(value.count) characters)"
    }

    /// How much of a known shape's match is its fixed prefix.
    private static func prefixLength(of found: String) -> Int {
        SecretShape.known.first { found.hasPrefix($0.prefix) }?.prefix.count ?? 4
    }
}

extension ArraySlice where Element == UInt8 {
    /// The index where `pattern` next starts, looking from `offset` bytes in.
    fileprivate func firstRange(of pattern: [UInt8], after offset: Int) -> Int? {
        var index = startIndex + offset
        while index + pattern.count <= endIndex {
            if self[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
