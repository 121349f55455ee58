import Foundation

extension SecretPolicy {
    /// Those of `keys` that `body` (JSON text) holds as string values under secret names: a key a
    /// model made of a value it read (`"ref": "hunter2"`, then a lookup of `hunter2`), which a text
    /// that shows coding paths must hide. Costs a search of the body for each key (at most
    /// `limit` of them, four bytes or longer), not a scan of every member: what an observer's
    /// events pay only when a response lost something.
    ///
    /// ```swift
    /// SecretPolicy.default.secretValues(among: ["hunter2x", "number"], in: Data(#"{"password":"hunter2x"}"#.utf8))   // ["hunter2x"]
    /// ```
    package func secretValues(among keys: some Sequence<String>, in body: Data, limit: Int = 64) -> [String] {
        var secrets: [String] = []
        body.withUnsafeBytes { raw in
            for key in keys.lazy.filter({ $0.utf8.count >= Self.shortestSecretValue && $0.utf8.count <= 256 }).prefix(limit) {
                var quoted = ""
                JSONEscape.appendQuoted(key, to: &quoted)
                // Found by the key and its closing quote: the first byte of the key is rarer
                // than the quote before it.
                let needle = Array(quoted.utf8.dropFirst())
                var offset = 1
                while let found = raw.offset(of: needle, from: offset) {
                    offset = found + needle.count
                    guard raw[found - 1] == UInt8(ascii: "\""), isValueUnderSecretName(raw, quotedAt: found - 1, length: needle.count + 1) else { continue }
                    secrets.append(key)
                    break
                }
            }
        }
        return secrets
    }

    /// Whether the string at `start` (`length` bytes, quotes included) of JSON text is a value
    /// (no `:` after it) of a member whose name is secret (`"password": "…"` before it).
    private func isValueUnderSecretName(_ bytes: UnsafeRawBufferPointer, quotedAt start: Int, length: Int) -> Bool {
        var after = start + length
        while after < bytes.count, JSONBytes.isWhitespace(bytes[after]) { after += 1 }
        guard after >= bytes.count || bytes[after] != UInt8(ascii: ":") else { return false }
        var before = start - 1
        while before >= 0, JSONBytes.isWhitespace(bytes[before]) { before -= 1 }
        guard before > 0, bytes[before] == UInt8(ascii: ":") else { return false }
        before -= 1
        while before >= 0, JSONBytes.isWhitespace(bytes[before]) { before -= 1 }
        guard before > 0, bytes[before] == UInt8(ascii: "\"") else { return false }
        // The name, back to its opening quote (a name is not read past 256 bytes).
        let nameEnd = before
        var nameStart = before - 1
        while nameStart >= 0, nameEnd - nameStart <= 257, bytes[nameStart] != UInt8(ascii: "\"") || (nameStart > 0 && bytes[nameStart - 1] == UInt8(ascii: "\\")) {
            nameStart -= 1
        }
        guard nameStart >= 0, bytes[nameStart] == UInt8(ascii: "\"") else { return false }
        return isSecret(bodyField: String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(nameStart + 1)..<nameEnd]), as: UTF8.self))
    }
}
