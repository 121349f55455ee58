/// The one gate every text Sculpt gives a person or a log passes through: error descriptions and
/// diagnoses, explanations, decoding events, replay misses, test-trait issues, reports, diffs and
/// every line the `sculpt` command prints.
///
/// ```swift
/// ShownText.line("GET /users/ghp_… -> 404\u{1B}[2J", limit: 1_024)   // GET /users/REDACTED -> 404\u{1B}[2J
/// ```
///
/// A line passes in three steps, whatever built it:
/// 1. **Redacted** with the one vocabulary (``SecretPolicy``, the rules SculptTesting's
///    `Redaction` states): every credential of a known shape (``CredentialShape``), also written
///    with escapes or cut short; the values the caller knows are secret (`hiding`, such as what a
///    body holds under `password`); the value after a secret name and `=` or `:` in quotes
///    (`token=…`, `"api_key": "…"`), after `Bearer` and `Basic`; and a URL's user name and
///    password.
/// 2. **Escaped**: control, bidirectional and invisible characters written as escapes
///    (``PrintableText``), so the only line breaks are the ones the text is made of.
/// 3. **Cut** at a budget of UTF-8 bytes with the size of the whole stated (`… (1,048,576
///    bytes)`); the cut is made after redaction, on a window that never ends inside a word, so
///    no secret is shown in part.
///
/// Each step reads a bounded window of the text: a line costs time in proportion to its budget,
/// whatever it was built from.
package enum ShownText {
    /// `raw` as one line: redacted, escaped, cut at `limit` UTF-8 bytes.
    ///
    /// ```swift
    /// ShownText.line("token=abc123\nX-Injected: 1", limit: 256)   // token=REDACTED\nX-Injected: 1
    /// ```
    /// - Parameters:
    ///   - raw: the text, from anywhere.
    ///   - limit: the most bytes the line has.
    ///   - values: values known to be secret where the text came from (replaced wherever they
    ///     appear, whole or cut short).
    ///   - policy: the names that are secret; the defaults unless a recording redacted more.
    package static func line(_ raw: some StringProtocol, limit: Int, hiding values: [String] = [], policy: SecretPolicy = .default) -> String {
        let size = raw.utf8.count
        let window = size > limit ? Self.window(raw, limit: limit) : String(raw)
        let isCut = window.utf8.count < size
        let redacted = Self.redacting(window, hiding: values, policy: policy)
        let escaped = PrintableText.value(redacted, limit: .max)
        guard isCut || escaped.utf8.count > limit else { return escaped }
        let suffix = "… (\(ClippedText.count(size)) bytes)"
        // A known value cut short at the end (`abc1…`) is replaced too.
        return SecretPolicy.redacting(values: values, in: ClippedText.prefix(escaped, bytes: max(0, limit - suffix.utf8.count)) + suffix)
    }

    /// `raw`'s lines, each shown as ``line(_:limit:hiding:policy:)`` shows one and joined by line
    /// feeds, as many as fit in `limit` bytes with `last` after them; the rest counted on a line
    /// of their own (`… and 9,990 more lines`). Reads only the lines it shows.
    ///
    /// With `keepingLineBreaks`, an entry is a text that passed the gate already (an error's
    /// description): its own line breaks are kept, each of its lines passes again, and it counts
    /// as one entry.
    ///
    /// ```swift
    /// ShownText.lines(changes.lazy.map(\.line), lineLimit: 4_096, limit: 65_536, last: "3 changes")
    /// ```
    /// - Parameters:
    ///   - lines: the lines, each one line whatever it holds.
    ///   - lineLimit: the most bytes one line has.
    ///   - limit: the most bytes of the whole.
    ///   - last: a closing line, shown whatever the count (a summary); `nil` for none.
    ///   - keepingLineBreaks: whether each entry's line breaks are its own lines.
    ///   - values: values known to be secret.
    ///   - policy: the names that are secret.
    package static func lines(
        _ lines: some Collection<String>, lineLimit: Int, limit: Int, last: String? = nil, keepingLineBreaks: Bool = false,
        hiding values: [String] = [], policy: SecretPolicy = .default
    ) -> String {
        let closing = last.map { line($0, limit: lineLimit, hiding: values, policy: policy) }
        var text = ""
        var shown = 0
        let total = lines.count
        for raw in lines {
            let piece = keepingLineBreaks
                ? raw.split(separator: "\n", omittingEmptySubsequences: false).map { line($0, limit: lineLimit, hiding: values, policy: policy) }.joined(separator: "\n")
                : line(raw, limit: lineLimit, hiding: values, policy: policy)
            let rest = total - shown - 1
            let room = (rest > 0 ? "… and \(ClippedText.count(rest)) more lines\n".utf8.count : 0) + (closing?.utf8.count ?? 0)
            guard text.utf8.count + piece.utf8.count + 1 + room <= limit else { break }
            text += piece + "\n"
            shown += 1
        }
        let rest = total - shown
        if rest > 0 { text += "… and \(ClippedText.count(rest)) more line\(rest == 1 ? "" : "s")\n" }
        guard let closing else { return String(text.dropLast(text.hasSuffix("\n") ? 1 : 0)) }
        return text + closing
    }

    /// `text` with every secret the vocabulary can find in free text replaced by
    /// ``Secrets/marker``: credentials by their shapes first (whole, before a known value that
    /// holds part of one is replaced), then `values` (longest first), then secrets by their names.
    private static func redacting(_ text: String, hiding values: [String], policy: SecretPolicy) -> String {
        policy.redactingNames(inShownText: SecretPolicy.redacting(values: values, in: SecretPolicy.redactingCredentials(inShownText: text)))
    }

    /// The start of `raw` that a line of `limit` bytes can show, read on to the end of the word it
    /// stops in (at most 1 KiB further): a credential that crosses the budget is then whole, and
    /// redacted whole, before the line is cut.
    private static func window(_ raw: some StringProtocol, limit: Int) -> String {
        let utf8 = raw.utf8
        var end = utf8.index(utf8.startIndex, offsetBy: limit, limitedBy: utf8.endIndex) ?? utf8.endIndex
        let furthest = utf8.index(end, offsetBy: 1_024, limitedBy: utf8.endIndex) ?? utf8.endIndex
        // A scalar's continuation bytes continue it: the window never ends inside one.
        while end < furthest, continuesWord(utf8[end]) { end = utf8.index(after: end) }
        return String(decoding: utf8[utf8.startIndex..<end], as: UTF8.self)
    }

    /// Whether `byte` can be part of a credential or a `name=value` pair: letters, digits, and
    /// what tokens, JWTs, base64 and the escapes a credential may be written with (`%67`,
    /// `\u0041`, `&#65;`) are made of.
    private static func continuesWord(_ byte: UInt8) -> Bool {
        CredentialShape.isTokenByte(byte) || byte >= 0x80 || "._=%+/:@~\\&#;".utf8.contains(byte)
    }
}
