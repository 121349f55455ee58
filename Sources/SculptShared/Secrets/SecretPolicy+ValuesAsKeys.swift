import Foundation

extension SecretPolicy {
    /// Those of `quoted` (texts a report quotes from a body: the keys of a coding path, a tag)
    /// that `body` holds as secret values: a key a model made of a value it read
    /// (`"ref": "hunter2"`, then a lookup of `hunter2`), a tag that is a secret member's value
    /// elsewhere (a string, escaped or not, or a number), or a secret parameter's value in a
    /// query or form written in a string. JSON text is read once, whatever its size, at the cost
    /// of a look at each value; other text is read as a description reads it for secrets, and
    /// when it holds more secret values than are collected, every one of `quoted` is returned.
    ///
    /// ```swift
    /// SecretPolicy.default.secretValues(among: ["hunter2x", "number"], in: Data(#"{"password":"hunter2x"}"#.utf8), contentTypes: [])
    /// // ["hunter2x"]
    /// ```
    package func secretValues(among quoted: Set<String>, in body: Data, contentTypes: [String]) -> [String] {
        let candidates = quoted.filter { $0.utf8.count >= Self.shortestSecretValue }
        guard !candidates.isEmpty else { return [] }
        guard Self.descriptionKind(of: body.prefix(64 << 10), contentTypes: contentTypes) == .json else {
            let scan = secretValues(in: body, contentTypes: contentTypes, scanning: body.count)
            guard scan.isWhole else { return candidates.sorted() }
            let held = Set(scan.values)
            return candidates.filter(held.contains).sorted()
        }
        return body.withUnsafeBytes { raw in
            // Most candidates are written nowhere a value could be them: the walk is for those
            // that are.
            let escaped = raw.offset(of: QuotedSecretFinder.unicodeEscape, from: 0) != nil || raw.offset(of: UInt8(ascii: "%"), from: 0) != nil
            let written = escaped ? candidates : candidates.filter { QuotedSecretFinder.mayHold($0, in: raw) }
            guard !written.isEmpty else { return [] }
            var finder = QuotedSecretFinder(bytes: raw.bindMemory(to: UInt8.self), policy: self, candidates: written)
            return finder.run().sorted()
        }
    }
}

/// Walks JSON text once, without recursion, and notes which candidates it holds as secret values:
/// a value is compared with the candidates only when its length is one of theirs, and its member's
/// name (and its containers') is judged only when it is one.
private struct QuotedSecretFinder {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The same bytes, searched with `memchr`.
    let raw: UnsafeRawBufferPointer
    let policy: SecretPolicy
    let candidates: Set<[UInt8]>
    /// The candidates, to look for inside strings.
    let needles: [[UInt8]]
    /// Whether a candidate has a character JSON text may write only with an escape (`\"`,
    /// `\n`) or with one (`\/`): a string with escapes may hold it unseen.
    let escapesCandidates: Bool
    let lengths: Set<Int>
    /// For each open container, the name of the member it is the value of (`nil`: an element, or
    /// the top level).
    var containers: [Range<Int>?] = []
    var found: Set<String> = []

    init(bytes: UnsafeBufferPointer<UInt8>, policy: SecretPolicy, candidates: Set<String>) {
        self.bytes = bytes
        raw = UnsafeRawBufferPointer(bytes)
        self.policy = policy
        needles = candidates.map { Array($0.utf8) }
        escapesCandidates = needles.joined().contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "/") || $0 < 0x20 }
        self.candidates = Set(needles)
        lengths = Set(candidates.map(\.utf8.count))
    }

    /// Where the string whose content starts at `start` ends: its closing quote (one after an
    /// even run of backslashes), or the end of the text.
    private func closingQuote(after start: Int) -> Int {
        var from = start
        while let quote = raw.offset(of: UInt8(ascii: "\""), from: from) {
            var backslashes = 0
            while quote - backslashes - 1 >= start, bytes[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
            if backslashes % 2 == 0 { return quote }
            from = quote + 1
        }
        return bytes.count
    }

    mutating func run() -> Set<String> {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // The name of the member whose value comes next.
        var name: Range<Int>?
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let content = index + 1
                let end = closingQuote(after: content)
                let string = content..<end
                let escaped = raw.offset(of: UInt8(ascii: "\\"), in: string) != nil
                index = end + 1
                var next = index
                while next < bytes.count, JSONBytes.isWhitespace(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: ":") {
                    name = string
                    index = next + 1
                    continue
                }
                look(at: string, escaped: escaped, name: name)
                name = nil
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                containers.append(name)
                name = nil
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = containers.popLast()
                name = nil
                index += 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                let start = index
                while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
                if isCandidate(bytes[start..<index]), isSecret(under: name) { found.insert(String(decoding: bytes[start..<index], as: UTF8.self)) }
                name = nil
            default:
                index += 1
            }
        }
        return found
    }

    /// Notes the string at `range` (its content, as written) when it is a candidate under a
    /// secret name, or holds a secret parameter whose value is one.
    private mutating func look(at range: Range<Int>, escaped: Bool, name: Range<Int>?) {
        // A string may be a candidate (of its length), or hold one as a parameter's value or a
        // credential after its scheme (written in it, or percent-encoded): any other is passed
        // over without a copy.
        let written = UnsafeRawBufferPointer(rebasing: raw[range])
        let mayBe = escaped ? lengths.contains { $0 <= range.count && $0 * 6 >= range.count } : lengths.contains(range.count)
        let mayHold = written.offset(of: UInt8(ascii: "%"), from: 0) != nil || written.offset(of: UInt8(ascii: "+"), from: 0) != nil
            || needles.contains { written.offset(of: $0, from: 0) != nil }
            || escaped && (escapesCandidates || written.offset(of: Self.unicodeEscape, from: 0) != nil)
        guard mayBe || mayHold else { return }
        let content: [UInt8]
        if escaped {
            guard let decoded = JSONEscape.decodedContent(bytes, in: range) else { return }
            content = decoded
        } else {
            content = Array(written)
        }
        if isCandidate(content[...]), isSecret(under: name) { found.insert(String(decoding: content, as: UTF8.self)) }
        guard mayHold else { return }
        // A word of a secret value (a credential after its scheme, a cookie's value).
        let parts = SecretPolicy.secretParts(of: content).filter { isCandidate($0) }
        if !parts.isEmpty, isSecret(under: name) {
            for part in parts { found.insert(String(decoding: part, as: UTF8.self)) }
        }
        // A query or a form written in the string, and a credential after `Bearer` or `Basic`:
        // their secret values, as written and percent-decoded.
        for value in policy.embeddedParameterValueRanges(in: content) {
            for form in SecretPolicy.parameterValues(String(decoding: content[value], as: UTF8.self)) where isCandidate(Array(form.utf8)[...]) {
                found.insert(form)
            }
        }
    }

    private func isCandidate(_ value: some Collection<UInt8>) -> Bool {
        lengths.contains(value.count) && candidates.contains(Array(value))
    }

    /// Whether a value of the member `name` is secret: its name or a container's it is in is.
    private func isSecret(under name: Range<Int>?) -> Bool {
        ([name] + containers.reversed()).contains { $0.map(isSecretName) == true }
    }

    private func isSecretName(_ range: Range<Int>) -> Bool {
        guard range.count <= 256, let name = JSONEscape.decodedContent(bytes, in: range) else { return false }
        return policy.isSecret(bodyField: String(decoding: name, as: UTF8.self))
    }

    /// Whether JSON text `raw`, which has no `\uXXXX` or percent-escape, may hold `candidate` as
    /// a value the walk looks at: written whole as a string (not a member's name), a number, a
    /// parameter's value (after `=`), a word after white space, `+`, `;` or `,` (a part of a
    /// secret value) or a credential after `Bearer` or `Basic`; or, for one with
    /// a `/`, a space or a quote, written with an escape that could hide it (`\/`, `+`, `\"`).
    /// Costs a search of the text for the candidate.
    static func mayHold(_ candidate: String, in raw: UnsafeRawBufferPointer) -> Bool {
        let needle = Array(candidate.utf8)
        if needle.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: " ") }) {
            return true
        }
        let isNumber = needle.allSatisfy(isNumberByte)
        var from = 0
        while let found = raw.offset(of: needle, from: from) {
            from = found + 1
            let before = found > 0 ? raw[found - 1] : nil
            let end = found + needle.count
            let after = end < raw.count ? raw[end] : nil
            switch before {
            case UInt8(ascii: "\""):
                guard after == UInt8(ascii: "\"") else { continue }
                var next = end + 1
                while next < raw.count, JSONBytes.isWhitespace(raw[next]) { next += 1 }
                if next >= raw.count || raw[next] != UInt8(ascii: ":") { return true }
            case UInt8(ascii: "="):
                if after.map(isWordByte) != true { return true }
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0xA0, UInt8(ascii: ";"), UInt8(ascii: ","), UInt8(ascii: "+"):
                // A word of a value (after a space, or a `+` a form writes for one): a number, a
                // secret value's part, a credential after its scheme.
                if after.map(isWordByte) != true { return true }
                if followsScheme(found, in: raw) { return true }
            case UInt8(ascii: "t") where found >= 2 && raw[found - 2] == UInt8(ascii: "\\"):
                // After a tab written as JSON writes one.
                if followsScheme(found, in: raw) { return true }
            default:
                if isNumber, before.map(isWordByte) != true, after.map(isWordByte) != true { return true }
            }
        }
        return false
    }

    /// Whether `Bearer` or `Basic` and white space (spaces, tabs, as written or escaped, and
    /// no-break spaces) come before `position`.
    private static func followsScheme(_ position: Int, in raw: UnsafeRawBufferPointer) -> Bool {
        var start = position
        while start > 0 {
            if [UInt8(ascii: " "), UInt8(ascii: "\t"), 0xA0, 0xC2].contains(raw[start - 1]) {
                start -= 1
            } else if start > 1, raw[start - 1] == UInt8(ascii: "t"), raw[start - 2] == UInt8(ascii: "\\") {
                start -= 2
            } else {
                break
            }
        }
        let word = String(decoding: raw[max(0, start - 6)..<start], as: UTF8.self).lowercased()
        return word.hasSuffix("bearer") || word.hasSuffix("basic")
    }

    /// A byte that continues a word, a number or a parameter's value.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "+"), 0x80...0xFF: true
        default: false
        }
    }

    /// What starts a `\uXXXX` escape, which may write an `=` or hide a candidate.
    static let unicodeEscape: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "u")]

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
        default: false
        }
    }
}

extension SecretPolicy {
    /// Those of `keys` (a coding path's) that the first `limit` bytes of `body` do not name as
    /// members: `"key":` in JSON text, the key's bytes anywhere in other text. When a body is
    /// not wholly read for secrets, a key a model made of a value it read may be a secret value
    /// past what was read; a key the body names as a member is one a model read, and is shown.
    ///
    /// ```swift
    /// SecretPolicy.keys(["login", "hunter2x"], notNamedIn: Data(#"{"login":"a"}"#.utf8), contentTypes: [], scanning: 4 << 20)
    /// // ["hunter2x"]
    /// ```
    package static func keys(_ keys: Set<String>, notNamedIn body: Data, contentTypes: [String], scanning limit: Int) -> [String] {
        let scanned = body.prefix(limit)
        let isJSON = descriptionKind(of: scanned, contentTypes: contentTypes) == .json
        return scanned.withUnsafeBytes { raw in
            keys.filter { key in
                guard key.utf8.count >= shortestSecretValue else { return false }
                guard isJSON else { return raw.offset(of: Array(key.utf8), from: 0) == nil }
                var quoted = ""
                JSONEscape.appendQuoted(key, to: &quoted)
                // Searched for as the key and its closing quote: the key's first byte is rarer than a quote.
                let needle = Array(quoted.utf8.dropFirst())
                var offset = 1
                while let found = raw.offset(of: needle, from: offset) {
                    offset = found + needle.count
                    guard raw[found - 1] == UInt8(ascii: "\"") else { continue }
                    var after = offset
                    while after < raw.count, JSONBytes.isWhitespace(raw[after]) { after += 1 }
                    if after < raw.count, raw[after] == UInt8(ascii: ":") { return false }
                }
                return true
            }.sorted()
        }
    }
}
