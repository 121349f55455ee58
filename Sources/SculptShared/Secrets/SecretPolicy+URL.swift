import Foundation
package import HTTPTypes

/// URLs, parameter lists and header values, redacted as text: one pass over the bytes, no
/// `URLComponents` (which gives up on some URLs Foundation accepts, and would then let them through
/// whole).
extension SecretPolicy {
    /// `url` in its absolute form, redacted (see ``Secrets``). Never the original when it has a
    /// base: a base's query can survive only in `URL.description`, which this drops.
    ///
    /// ```swift
    /// SecretPolicy.default.redacting(URL(string: "users/x", relativeTo: URL(string: "https://u:pw@h/v3/"))!)
    /// // https://REDACTED:REDACTED@h/v3/users/x
    /// ```
    package func redacting(_ url: URL) -> URL {
        let text = url.absoluteString
        let redacted = redacting(urlText: text)
        if redacted == text, url.baseURL == nil { return url }
        if let shown = URL(string: redacted) { return shown }
        // The marker is plain letters, so this is not expected; if it happens, drop every part that
        // can hold a secret rather than keep one.
        let plain = redacted.prefix { $0 != "?" && $0 != "#" }
        return URL(string: String(plain)).map { URL(string: redacting(urlText: $0.absoluteString)) ?? $0 } ?? URL(filePath: "/")
    }

    /// URL text (absolute or a reference like `/final?access_token=x`) with its user name,
    /// password and secret query and fragment parameters replaced by ``Secrets/marker``.
    ///
    /// ```swift
    /// SecretPolicy.default.redacting(urlText: "/cb#access_token=abc&state=1")   // /cb#access_token=REDACTED&state=1
    /// ```
    package func redacting(urlText text: String) -> String {
        redacting(urlText: text, depth: 0)
    }

    /// URL text redacted as ``redacting(urlText:)`` redacts it, with the values of its secret parts
    /// hidden wherever else it holds them too (`?token=abc123&state=abc123`, a path segment that
    /// repeats one): what a text for a person shows of a URL.
    ///
    /// ```swift
    /// SecretPolicy.default.shown(urlText: "/cb?access_token=abc123&state=abc123")   // /cb?access_token=REDACTED&state=REDACTED
    /// ```
    package func shown(urlText text: String) -> String {
        let redacted = redacting(urlText: text)
        let values = secretValues(inURLText: text)
        return values.isEmpty ? redacted : Self.redacting(values: values, in: redacted)
    }

    /// ``redacting(urlText:)`` at a nesting `depth` (values decoded to get here).
    private func redacting(urlText text: String, depth: Int) -> String {
        let bytes = Array(text.utf8)
        let authorityStart = Self.authorityStart(bytes)
        let pathStart = authorityStart.map { start in
            bytes[start...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
                ?? bytes.count
        } ?? 0
        let fragmentStart = bytes[pathStart...].firstIndex(of: UInt8(ascii: "#"))
        let queryStart = bytes[pathStart..<(fragmentStart ?? bytes.count)].firstIndex(of: UInt8(ascii: "?"))

        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        if let authorityStart {
            output += bytes[..<authorityStart]
            output += redactingUserInfo(bytes[authorityStart..<pathStart])
        }
        output += bytes[(authorityStart == nil ? 0 : pathStart)..<(queryStart ?? fragmentStart ?? bytes.count)]
        let query = queryStart.map { Self.text(bytes[($0 + 1)..<(fragmentStart ?? bytes.count)]) }
        let fragment = fragmentStart.map { Self.text(bytes[($0 + 1)...]) }
        let besideOAuth = hasOAuthCompanion(Self.names(in: query ?? "") + Self.names(in: fragment ?? ""))
        if let query {
            output.append(UInt8(ascii: "?"))
            output += redacting(parameters: query, besideOAuth: besideOAuth, depth: depth, inText: false).utf8
        }
        if let fragment {
            output.append(UInt8(ascii: "#"))
            output += redacting(parameters: fragment, besideOAuth: besideOAuth, depth: depth, inText: false).utf8
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A parameter list (a query, a fragment, `a=1;b=2`) with the value of each secret parameter
    /// replaced by ``Secrets/marker``. `&`, `;` and `?` separate parameters.
    ///
    /// ```swift
    /// SecretPolicy.default.redacting(parameters: "a=1;ACCESS_TOKEN=x&access_token[]=y")
    /// // a=1;ACCESS_TOKEN=REDACTED&access_token[]=REDACTED
    /// ```
    package func redacting(parameters text: some StringProtocol, besideOAuth: Bool? = nil) -> String {
        redacting(parameters: text, besideOAuth: besideOAuth, depth: 0, inText: false)
    }

    /// ``redacting(parameters:besideOAuth:)`` for a text body (plain text, HTML, a form): a
    /// secret value ends at white space, `<`, `>` or a quote, as it does in prose and markup (a
    /// quoted value at its closing quote), and goes on past a `&`, `;` or `?` that no `name=`
    /// follows (`password=ab;cd` is one value), so that neither the text after it nor a part of
    /// it is lost.
    package func redacting(parametersInText text: some StringProtocol) -> String {
        redacting(parameters: text, besideOAuth: nil, depth: 0, inText: true)
    }

    /// ``redacting(parameters:besideOAuth:)`` at a nesting `depth`, in a text body or not.
    private func redacting(parameters text: some StringProtocol, besideOAuth: Bool?, depth: Int, inText: Bool) -> String {
        let bytes = Array(text.utf8)
        let oauth = besideOAuth ?? hasOAuthCompanion(Self.names(in: text))
        var output: [UInt8] = []
        var changed = false
        var start = 0
        // In a text, a secret value that ran to a `&`, `;` or `?` goes on into the word after it
        // when that word holds no `=`.
        var continuesValue = false
        // Where the item being read ends: a text's line is read on in steps, its end found once.
        var itemEnd = -1
        // Bytes, not Characters: a combining mark after `=` or `&` must not hide it.
        while start <= bytes.count {
            let end = start < itemEnd ? itemEnd : bytes[start...].firstIndex(where: Self.isSeparator) ?? bytes.count
            itemEnd = end
            let item = bytes[start..<end]
            var continued = false
            let word = item.firstIndex(where: Self.endsTextValue) ?? end
            let equals = item.firstIndex(of: UInt8(ascii: "="))
            // In a text, a name is the word before its `=` (`user=bob token=x`).
            let name = equals.map { equals in inText ? Self.lastWord(before: equals, in: item) : item.startIndex..<equals }
            if continuesValue, start > 0, [UInt8(ascii: "&"), UInt8(ascii: ";"), UInt8(ascii: "?")].contains(bytes[start - 1]),
                word > start, !item[..<word].contains(UInt8(ascii: "="))
            {
                // Part of the value up to where prose ends it: the separator before it goes with it.
                output.removeLast()
                output += item[word...]
                changed = true
                continued = word == end
            } else if let equals, let name, equals + 1 < end, isSecret(parameter: Self.text(item[name]), besideOAuth: oauth) {
                // White space after the `=` (`token = x` in a text) is kept.
                var value = item[(equals + 1)...].firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? end
                var valueEnd = inText ? item[value...].firstIndex(where: Self.endsTextValue) ?? end : end
                // A quoted value (`password="a b"`) runs to its closing quote, the quotes kept.
                if inText, value < end, bytes[value] == UInt8(ascii: "\"") || bytes[value] == UInt8(ascii: "'") {
                    valueEnd = item[(value + 1)...].firstIndex(of: bytes[value]) ?? end
                    value += 1
                } else if inText {
                    valueEnd = Self.endBeforeClosingBrackets(of: bytes[value..<valueEnd])
                }
                output += item[..<value]
                output += Secrets.marker.utf8
                changed = true
                if valueEnd < end {
                    // Prose ended the value: the rest of the line is read on from there.
                    start = valueEnd
                    continuesValue = false
                    continue
                }
                continued = inText
            } else if inText, let equals, let valueEnd = item[(equals + 1)...].firstIndex(where: Self.endsTextValue) {
                // An ordinary value that prose ends (`user=bob token=x`): the rest of the line is
                // read on from its end.
                let value = item[(equals + 1)..<valueEnd]
                let nested = depth < Self.maximumNesting ? redacting(nestedValue: value, depth: depth, inText: inText) : nil
                output += item[...equals]
                if let nested {
                    output += nested.utf8
                    changed = true
                } else {
                    output += value
                }
                start = valueEnd
                continuesValue = false
                continue
            } else if depth < Self.maximumNesting, let equals,
                let nested = redacting(nestedValue: item[(equals + 1)...], depth: depth, inText: inText)
            {
                // A URL or parameter list carried percent-encoded in a value: `next=%2Fcb%3Ftoken%3Dx`.
                output += item[...equals]
                output += nested.utf8
                changed = true
            } else if depth < Self.maximumNesting, equals == nil,
                let nested = redacting(encodedValue: item, depth: depth)
            {
                // A parameter whose `=` is percent-encoded (`access_token%3Dx`): no server reads it
                // as a token, but its text is one.
                output += nested.utf8
                changed = true
            } else {
                output += item
            }
            continuesValue = continued
            guard end < bytes.count else { break }
            output.append(bytes[end])
            start = end + 1
        }
        return changed ? String(decoding: output, as: UTF8.self) : String(text)
    }

    /// The word before `equals` in `item`, white space between them left out: from the byte after
    /// the last one that ends a value in a text (`token` in `a token = x`, `(password` in
    /// `(password=x`).
    private static func lastWord(before equals: Int, in item: ArraySlice<UInt8>) -> Range<Int> {
        var end = equals
        while end > item.startIndex, item[end - 1] == UInt8(ascii: " ") || item[end - 1] == UInt8(ascii: "\t") { end -= 1 }
        let start = item[item.startIndex..<end].lastIndex(where: endsTextValue).map { $0 + 1 } ?? item.startIndex
        return start..<end
    }

    /// What ends a secret value in a text: white space, `<`, `>` and quotes.
    private static func endsTextValue(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0B, 0x0C, UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"): true
        default: false
        }
    }

    /// Where a value in a text ends when the brackets it ends with close what it did not open
    /// (`(password=abc)`): before them, so that the text keeps them.
    private static func endBeforeClosingBrackets(of value: ArraySlice<UInt8>) -> Int {
        let pairs: [UInt8: UInt8] = [UInt8(ascii: ")"): UInt8(ascii: "("), UInt8(ascii: "]"): UInt8(ascii: "["), UInt8(ascii: "}"): UInt8(ascii: "{")]
        guard let last = value.last, pairs[last] != nil else { return value.endIndex }
        // Each bracket counted once: how many of each the value opens, and closes.
        var counts: [UInt8: Int] = [:]
        for byte in value where "()[]{}".utf8.contains(byte) { counts[byte, default: 0] += 1 }
        var end = value.endIndex
        while end > value.startIndex, let opening = pairs[value[end - 1]], counts[opening, default: 0] < counts[value[end - 1], default: 0] {
            counts[value[end - 1], default: 0] -= 1
            end -= 1
        }
        return end
    }

    /// How many times a value is decoded to look for parameters inside it.
    private static let maximumNesting = 3

    /// A value that holds a URL with user information (`next=https://u:p@h/`), parameters itself
    /// (`state=token=x`, as a decoded query item shows it) or percent-encoded ones, redacted;
    /// `nil` when it holds no secret.
    private func redacting(nestedValue value: ArraySlice<UInt8>, depth: Int, inText: Bool) -> String? {
        if value.contains(UInt8(ascii: "@")) {
            let text = Self.text(value)
            let redacted = redacting(urlText: text, depth: depth + 1)
            if redacted != text { return redacted }
        }
        if value.contains(UInt8(ascii: "=")) {
            let text = Self.text(value)
            let redacted = redacting(parameters: text, besideOAuth: nil, depth: depth + 1, inText: inText)
            if redacted != text { return redacted }
        }
        return redacting(encodedValue: value, depth: depth)
    }

    /// A percent-encoded value that, decoded, holds parameters (an encoded `=`) or user
    /// information (an encoded `@`), redacted and encoded again as many times as it was decoded
    /// (everything but letters, digits and `-._~`); `nil` when it holds no secret.
    private func redacting(encodedValue value: ArraySlice<UInt8>, depth: Int) -> String? {
        guard value.count <= 64 << 10, Self.hasEncoded(value, UInt8(ascii: "3"), UInt8(ascii: "d"))
            || Self.hasEncoded(value, UInt8(ascii: "4"), UInt8(ascii: "0"))
        else { return nil }
        var decoded = Self.text(value)
        var decodings = 0
        // `%253D` is an `=` encoded twice: decode until an `=` or `@` shows, within the nesting bound.
        repeat {
            guard let once = decoded.removingPercentEncoding, once != decoded else { return nil }
            decoded = once
            decodings += 1
        } while !decoded.utf8.contains(where: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "@") }) && depth + decodings <= Self.maximumNesting
        let isURL = decoded.contains("?") || decoded.contains("#") || decoded.contains("://") || decoded.contains("@")
        let nesting = depth + decodings
        var redacted = isURL ? redacting(urlText: decoded, depth: nesting) : redacting(parameters: decoded, besideOAuth: nil, depth: nesting, inText: false)
        guard redacted != decoded else { return nil }
        for _ in 0..<decodings {
            redacted = redacted.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? Secrets.marker
        }
        return redacted
    }

    /// Whether `bytes` hold a byte encoded as `%` and the hex digits `high` `low` (`low` a digit or
    /// a lowercase letter, matched in either case): `%3D`, or `%253D` and so on for one encoded
    /// again.
    private static func hasEncoded(_ bytes: ArraySlice<UInt8>, _ high: UInt8, _ low: UInt8) -> Bool {
        var index = bytes.startIndex
        while let percent = bytes[index...].firstIndex(of: UInt8(ascii: "%")) {
            var next = percent + 1
            while next + 1 < bytes.endIndex, bytes[next] == UInt8(ascii: "2"), bytes[next + 1] == UInt8(ascii: "5") { next += 2 }
            if next + 1 < bytes.endIndex, bytes[next] == high, bytes[next + 1] | 0x20 == low { return true }
            index = percent + 1
        }
        return false
    }

    /// RFC 3986's unreserved characters: what a re-encoded value leaves as it is.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// `fields` with every secret header's value replaced by ``Secrets/marker`` and the URLs in
    /// ``Secrets/urlHeaders`` redacted.
    ///
    /// ```swift
    /// SecretPolicy.default.redacting([.authorization: "Bearer x", .location: "/b?token=y"])
    /// // Authorization: REDACTED, Location: /b?token=REDACTED
    /// ```
    package func redacting(_ fields: HTTPFields) -> HTTPFields {
        HTTPFields(fields.map { field in
            let value = redacting(value: field.value, of: field.name)
            return value == field.value ? field : HTTPField(name: field.name, value: value)
        })
    }

    /// One header's value, redacted as its name says.
    package func redacting(value: String, of name: HTTPField.Name) -> String {
        if isSecret(header: name) { return Secrets.marker }
        // A credential after its scheme under any other name (`X-Debug: Bearer …`); a challenge
        // names a scheme with no credential after it (`Basic realm=…`).
        let value = Self.challengeHeaders.contains(name) ? value : redactingSchemeCredentials(in: value)
        guard redactsURLs, Self.urlHeaderNames.contains(name) else { return value }
        return name.canonicalName == "link" ? redacting(links: value) : redacting(urlText: value)
    }

    /// The headers that name an authentication scheme to use, not a credential.
    private static let challengeHeaders: Set<HTTPField.Name> = [.wwwAuthenticate, .proxyAuthenticate]

    /// A `Link` value: each URL between `<` and `>` redacted (the whole value, when it has no `<`).
    private func redacting(links value: String) -> String {
        let bytes = Array(value.utf8)
        guard bytes.contains(UInt8(ascii: "<")) else { return redacting(urlText: value) }
        var output: [UInt8] = []
        var rest = 0
        while let open = bytes[rest...].firstIndex(of: UInt8(ascii: "<")) {
            let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count
            output += bytes[rest...open]
            output += redacting(urlText: Self.text(bytes[(open + 1)..<close])).utf8
            rest = close
            guard rest < bytes.count else { break }
        }
        output += bytes[rest...]
        return String(decoding: output, as: UTF8.self)
    }

    private static let urlHeaderNames = Set(Secrets.urlHeaders)

    /// What ends a parameter: `&`, `;` and `?`, and a line break (a text body's line).
    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }

    /// The names (as written) of a parameter list's items.
    package static func names(in list: some StringProtocol) -> [String] {
        Array(list.utf8).split(whereSeparator: isSeparator).map { text(ArraySlice($0.prefix { $0 != UInt8(ascii: "=") })) }
    }

    /// The user information in an authority (`user:password@host:port`), user and password
    /// replaced.
    private func redactingUserInfo(_ authority: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard redactsURLs, let at = authority.lastIndex(of: UInt8(ascii: "@")) else { return authority }
        let userInfo = authority[authority.startIndex..<at]
        let colon = userInfo.firstIndex(of: UInt8(ascii: ":"))
        var output = ArraySlice<UInt8>()
        let user = userInfo[userInfo.startIndex..<(colon ?? at)]
        output += user.isEmpty ? [] : Array(Secrets.marker.utf8)
        if let colon {
            output.append(UInt8(ascii: ":"))
            output += colon + 1 < at ? Array(Secrets.marker.utf8) : []
        }
        return output + authority[at...]
    }

    /// Where the authority (`user:password@host:port`) starts, as a browser's URL parser finds it
    /// (WHATWG): after `scheme:` and any run of `/` or `\\` (`https:\\\\u:p@h`, and `https:u:p@h`
    /// for the schemes that always have a host); after a leading run of two or more `/` or `\\`
    /// (a scheme-relative reference); none for a path or a query.
    private static func authorityStart(_ bytes: [UInt8]) -> Int? {
        let isSlash = { (byte: UInt8) in byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") }
        if let colon = schemeEnd(bytes) {
            let start = bytes[(colon + 1)...].firstIndex { !isSlash($0) } ?? bytes.count
            let scheme = ASCII.lowercased(bytes[..<colon])
            return start > colon + 1 || ["http", "https", "ws", "wss", "ftp", "file"].contains(scheme) ? start : nil
        }
        let start = bytes.firstIndex { !isSlash($0) } ?? bytes.count
        if start >= 2 { return start }
        // Not a URL a parser takes (`ht tp://u:p@h`, a HAR entry's broken URL), but written as one:
        // `://` before any `/`, `?` or `#` starts an authority all the same.
        if let separator = bytes.firstIndex(where: { isSlash($0) || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }),
            separator > 0, bytes[separator - 1] == UInt8(ascii: ":"), bytes[separator...].starts(with: "//".utf8)
        {
            return bytes[separator...].firstIndex { !isSlash($0) } ?? bytes.count
        }
        return nil
    }

    /// Where a scheme (`https`) ends: the index of its `:`, when the text starts with one.
    private static func schemeEnd(_ bytes: [UInt8]) -> Int? {
        guard let first = bytes.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20) else { return nil }
        for (index, byte) in bytes.enumerated().dropFirst() {
            if byte == UInt8(ascii: ":") { return index }
            let letter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
            let digit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
            guard letter || digit || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { return nil }
        }
        return nil
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
