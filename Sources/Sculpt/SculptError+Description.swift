import Foundation
import SculptShared

extension SculptError {
    /// How many bytes of the body a description shows.
    static let bodyExcerptLimit = 512

    /// The most a description holds, in UTF-8 bytes, whatever the response.
    static let descriptionLimit = 4_096

    /// The most one value (a discriminator, a type name, a content type, a key) shows.
    static let valueLimit = 256

    /// The most a list (candidates, registered values, keys) or another error's text shows.
    static let listLimit = 1_024
    /// The most lines of ``diagnosis`` a description prints.
    static let diagnosisLimit = 12

    /// How many bytes of the body are read for the values its secret members hold. Past them, or
    /// past 1,024 such values, what the report would quote from the body's values is withheld.
    static let secretScanLimit = 4 << 20

    /// A report in lines: what happened, to which request, what was expected and what arrived, and
    /// the start of the body, at most 4,096 bytes in all. Long values are cut with their size
    /// stated (`… (1,048,576 bytes)`), long lists with a count (`and 99,990 more`); the URL and
    /// the body excerpt show no secret (by the rules SculptTesting's `Redaction` states), and the
    /// secret values the URL and the body hold are replaced wherever the report quotes them (an
    /// error model's own description, a decoding error that names a value, a matcher's error that
    /// quotes the URL), whole or cut. A property of a described model whose name is a secret's
    /// (`token`, `accessToken`) is shown as `REDACTED`. Secret values are looked for in the
    /// body's first 4 MiB, so that describing a body of any size costs what a 4 MiB one does; a
    /// body larger than that, or with more than 1,024 secret values, has the values the report
    /// would quote from it withheld (an error model, a decoding error's text, a type field's
    /// value), each with the reason: a value looked for nowhere could be a secret. A body in
    /// UTF-16 or UTF-32 is read, and shown, as text. The error itself keeps every value whole.
    public var description: String {
        let contentTypes = response.headerFields[values: .contentType]
        let (text, readable, scan) = Self.secrets(in: body, of: response)
        var secrets = scan.values
        let withheld: Withheld? =
            if body.starts(with: Array("bplist".utf8)) { .binaryPropertyList }
            else if body.count > Self.secretScanLimit { .pastScan(bodySize: body.count) }
            else { scan.isWhole ? nil : .tooManySecrets }
        if withheld != nil {
            // A coding path's key may be a value a model read, and a secret one past what was
            // read for secrets: a key of a type that takes any name (a dictionary's, a model's
            // own dynamic keys) is hidden unless the body names a member so.
            let open = Self.codingKeys(self).filter { $0.intValue == nil && Self.takesAnyName($0) }.map(\.stringValue)
            secrets += SecretPolicy.keys(Set(open), notNamedIn: readable, contentTypes: contentTypes, scanning: Self.secretScanLimit)
        }
        // A body that reads as UTF-16 or UTF-32 by its first bytes but does not decode is not
        // read for secrets: its bytes are not shown.
        let excerpt = text == nil ? "Body (\(body.count) bytes): UTF-16 or UTF-32 that does not read, not shown."
            : ShownText.line(Self.bodyExcerpt(of: readable, size: body.count, encoding: text?.transcodedFrom?.encoding, contentTypes, withholding: withheld),
                limit: Self.bodyExcerptLimit * 7, hiding: secrets)
        let room = Self.descriptionLimit - excerpt.utf8.count - 1
        // Each line through the gate: the only line breaks are the report's own, what a server
        // sent cannot pose as another log line, and the body's and URL's secrets are nowhere.
        let lines = report(withholding: withheld).map { ShownText.line($0, limit: Self.descriptionLimit, hiding: secrets) }
        return ClippedText.value(lines.joined(separator: "\n"), limit: room) + "\n" + excerpt
    }

    /// The secret values `body`, `response`'s URL and its secret headers hold, for a text about
    /// them to hide; with the
    /// body as text (`nil`: UTF-16 or UTF-32 that does not decode) and as it is read for secrets.
    /// The body is read as its decoder reads it: in UTF-16 or UTF-32 transcoded, and an XML
    /// document in the single-byte encoding it declares transcoded, so that a secret past ASCII is
    /// looked for as it will be decoded; in its first ``secretScanLimit`` bytes.
    static func secrets(in body: Data, of response: ResponseContext) -> (text: JSONText?, readable: Data, scan: (values: [String], isWhole: Bool)) {
        let policy = SecretPolicy.default
        let text = JSONText(body, upTo: secretScanLimit, readingUTF32LEMark: true)
        let readable = text.flatMap { $0.transcodedFrom == nil ? XMLDeclaredEncoding.transcoded($0.utf8) : nil } ?? text?.utf8 ?? body
        var scan = policy.secretValues(in: readable, contentTypes: response.headerFields[values: .contentType], scanning: secretScanLimit)
        if let url = response.url { scan.values += policy.secretValues(in: url) }
        scan.values += policy.secretValues(in: response.headerFields)
        return (text, readable, scan)
    }

    /// Why the values a report would quote from the body are not shown.
    enum Withheld {
        /// The body is longer than ``SculptError/secretScanLimit``.
        case pastScan(bodySize: Int)
        /// The body holds more secret values than are collected.
        case tooManySecrets
        /// The body is a binary property list, whose strings are not read for secrets.
        case binaryPropertyList
        /// The text is read apart from the body (a ``DecodingEvent``'s, an ``ElementFailure``'s),
        /// so it quotes nothing from it.
        case apartFromBody

        /// Whether nothing an error says is shown, wherever it stands.
        var quotesNothing: Bool {
            if case .apartFromBody = self { true } else { false }
        }

        var reason: String {
            switch self {
            case .binaryPropertyList:
                "(not shown: the body is a binary property list, which Sculpt does not read for secrets)"
            case .pastScan(let size):
                "(not shown: the body is \(ClippedText.count(size)) bytes, and Sculpt looks for secrets in its first \(ClippedText.count(SculptError.secretScanLimit)))"
            case .apartFromBody:
                "(the value is not shown)"
            case .tooManySecrets:
                "(not shown: the body holds more than \(ClippedText.count(SecretPolicy.mostSecretValues)) secret values, the most Sculpt looks for)"
            }
        }
    }

    /// The report without the body excerpt, each part bounded; with the values taken from the body
    /// left out when `withheld` says why.
    private func report(withholding withheld: Withheld?) -> [String] {
        var lines: [String] = []
        let request = response.description
        switch reason {
        case .noModelMatched(let candidates):
            lines.append("No model type matched \(request).")
            if !candidates.isEmpty {
                lines.append("Nearest registered: \(ClippedText.list(candidates, limit: Self.listLimit)).")
            }
        case .unacceptableStatusCode(let underlying):
            lines.append("Unacceptable status code for \(request).")
            if let underlying {
                lines.append("The error body did not decode as the error model: \(Self.describe(underlying, withholding: withheld))")
            }
        case .unacceptableContentType(let acceptable):
            let found = response.headerFields[.contentType].map { Self.value($0) } ?? "none"
            lines.append("Unacceptable content type for \(request).")
            lines.append(acceptable.isEmpty
                ? "No content type is acceptable (acceptableContentTypes is empty); found \(found)."
                : "Expected one of \(ClippedText.list(acceptable, limit: Self.listLimit)); found \(found).")
        case .emptyBody(let expected):
            lines.append("Empty body for \(request).")
            lines.append("Expected \(expected.map { "a body to decode as \(Self.value($0))" } ?? "a body"); only 204, 205 and HEAD responses may be empty.")
        case .keyPathNotFound(let miss):
            lines.append("Key path \(Self.value(miss.keyPath)) not found in the body of \(request).")
            lines.append(Self.describe(miss))
        case .invalidKeyPath(let error):
            lines.append("Cannot decode \(request): \(Self.text(error, limit: Self.listLimit)).")
        case .decodingFailed(let modelType, let underlying):
            lines.append("Could not decode \(Self.text(modelType)) from \(request).")
            lines.append(Self.describe(underlying, withholding: withheld))
        case .typeMismatch(let expected, let matched):
            lines.append("Type mismatch for \(request).")
            lines.append("Expected \(Self.text(expected)); the matcher resolved \(Self.text(matched)).")
        case .errorResponse(let model):
            lines.append("Error response for \(request): \(withheld.map { "a \(Self.text(type(of: model))) \($0.reason)" } ?? Self.text(model, limit: Self.listLimit))")
        case .matcherFailed(let underlying):
            lines.append("The matcher could not read the body of \(request): \(withheld?.reason ?? Self.text(underlying, limit: Self.listLimit))")
        case .unknownDiscriminator(let field, let found, let registered):
            lines.append("Unknown discriminator \(TagText.quoted(Self.value(field))) in the body of \(request).")
            let values = registered.isEmpty ? "none" : ClippedText.list(registered.lazy.map(TagText.quoted), limit: Self.listLimit)
            let shown = found.map { value in withheld.map { "a value of \(ClippedText.count(value.utf8.count)) bytes \($0.reason)" } ?? Self.value(value) }
            let absent = Self.startsAsObject(body) ? "no \(TagText.quoted(Self.value(field))) member" : "a body that is not an object"
            lines.append("Found \(shown ?? absent); registered: \(values).")
        case .invalidJSON(let reason, let offset):
            lines.append("The body of \(request) is not valid JSON at byte \(offset): \(Self.value(reason)).")
        case .bodyTooLarge(let maximum):
            // A client that stopped reading at the limit keeps only the bytes it read.
            let size = body.count > maximum ? "is \(body.count) bytes" : "is over \(maximum) bytes"
            lines.append("The body of \(request) \(size); the serializer reads at most \(maximum).")
        case .nestingTooDeep(let maximum, let offset):
            // A decoder of the caller's may report any limit, `Int.max` included.
            let level = maximum < Int.max ? "level \(maximum + 1)" : "a deeper level"
            lines.append("The body of \(request) nests deeper than \(maximum) levels (\(level) opens at byte \(offset)).")
        }
        // A matcher of the caller's may say anything at any length: a few lines, each cut.
        return lines + diagnosis.prefix(Self.diagnosisLimit).map { ClippedText.value($0, limit: Self.listLimit) }
    }

    /// Whether the body's first byte past white space (and a UTF-8 byte order mark) opens an object.
    private static func startsAsObject(_ body: Data) -> Bool {
        let start = body.starts(with: [0xEF, 0xBB, 0xBF]) ? body.dropFirst(3) : body[...]
        return start.first { !JSONBytes.isWhitespace($0) } == UInt8(ascii: "{")
    }

    /// The first bytes of the body as text, with its size (and encoding, when it is not UTF-8),
    /// secret JSON members' (or form parameters') values replaced: `Body (1,204 bytes): {"login":...`.
    ///
    /// Past the bytes read for secrets (`withheld` is `.pastScan`), a secret found nowhere could be
    /// any value: a JSON body shows its keys and structure only, any other body nothing.
    private static func bodyExcerpt(of text: Data, size: Int, encoding: String.Encoding?, _ contentTypes: [String], withholding withheld: Withheld?) -> String {
        guard size > 0 else { return "Body: empty." }
        var (shown, remaining) = SecretPolicy.default.excerpt(of: text, contentTypes: contentTypes, bytes: Self.bodyExcerptLimit)
        if case .pastScan = withheld {
            guard SecretPolicy.kind(of: text.prefix(64 << 10), contentTypes: contentTypes) == .json else {
                return "Body (\(size) bytes): \(withheld?.reason ?? "")"
            }
            shown = SecretPolicy.maskingValues(inJSON: shown)
        }
        let more = remaining > 0 ? "… (\(remaining) more bytes)" : ""
        let named = encoding.map { ", \(Self.name(of: $0))" } ?? ""
        // Escaping at most multiplies the excerpt's length by five: the limit never cuts it.
        return "Body (\(size) bytes\(named)): \(PrintableText.value(shown, limit: Self.bodyExcerptLimit * 6))\(more)"
    }

    /// The name of a UTF-16 or UTF-32 encoding, as an excerpt states it.
    private static func name(of encoding: String.Encoding) -> String {
        switch encoding {
        case .utf16BigEndian: "UTF-16BE"
        case .utf16LittleEndian: "UTF-16LE"
        case .utf32BigEndian: "UTF-32BE"
        case .utf32LittleEndian: "UTF-32LE"
        default: "\(encoding)"
        }
    }

    private static func describe(_ miss: KeyPathMiss) -> String {
        let failedAt = value(miss.failedAt)
        if let found = miss.found {
            return "At \(failedAt): nothing to descend into (\(value(found)))."
        }
        if miss.availableKeys.isEmpty {
            return "At \(failedAt): not found; the enclosing value is empty."
        }
        return "At \(failedAt): not found; available: \(ClippedText.list(miss.availableKeys, limit: listLimit))."
    }

    /// A decoding failure as `At items[3].user.login: expected String, found a number.`; its
    /// text, which may quote the body, left out when `withheld` says why.
    static func describe(_ error: any Error, withholding withheld: Withheld? = nil) -> String {
        if let error = error as? SculptError {
            // The details without the first line's "for <request>" (the caller names it), unless
            // the first line is all there is.
            let report = error.report(withholding: withheld)
            return (report.count > 1 ? report.dropFirst() : report[...]).joined(separator: " ")
        }
        guard let error = error as? DecodingError else { return withheld?.reason ?? text(error, limit: listLimit) }
        // A failure at the top level is about the document (its syntax, size or depth); one at a
        // value may quote the value. An event's never comes from the document (that fails the
        // response), and may be a type's own, with any text: it is never shown.
        let shown = { (context: DecodingError.Context) in withheld == nil || context.codingPath.isEmpty && !(withheld?.quotesNothing ?? false) }
        let details = { (context: DecodingError.Context) in shown(context) ? value(context.debugDescription, limit: listLimit) : withheld?.reason ?? "" }
        switch error {
        case .typeMismatch(let type, let context):
            return "At \(codingPath(context.codingPath)): expected \(text(type)). \(details(context))"
        case .valueNotFound(let type, let context):
            return "At \(codingPath(context.codingPath)): expected \(text(type)), found null or nothing. \(details(context))"
        case .keyNotFound(let key, let context):
            return "At \(codingPath(context.codingPath + [key])): missing key \"\(value(key.stringValue))\"."
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\(shown(context) ? text($0, limit: valueLimit) : "its cause not shown"))" } ?? ""
            return "At \(codingPath(context.codingPath)): the data is not valid. \(details(context))\(underlying)"
        @unknown default:
            return withheld?.reason ?? text(error, limit: listLimit)
        }
    }

    /// The keys (not indices) of the coding paths a report of `error` shows: a decoding error's
    /// path and missing key, and those of the errors a ``SculptError`` holds.
    static func quotedKeys(_ error: any Error) -> [String] {
        codingKeys(error).filter { $0.intValue == nil }.map(\.stringValue)
    }

    /// The coding keys a report of `error` shows, as ``quotedKeys(_:)`` lists them.
    private static func codingKeys(_ error: any Error) -> [any CodingKey] {
        if let error = error as? SculptError {
            switch error.reason {
            case .decodingFailed(_, let underlying), .unacceptableStatusCode(.some(let underlying)): return codingKeys(underlying)
            default: return []
            }
        }
        guard let error = error as? DecodingError else { return [] }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): return context.codingPath
        case .keyNotFound(let key, let context): return context.codingPath + [key]
        @unknown default: return []
        }
    }

    /// Whether `key`'s type makes a key of any name, as a dictionary's keys and a model's dynamic
    /// keys do: such a key may be a value the body holds. A model's own `CodingKeys` make only
    /// the names written in its code.
    private static func takesAnyName(_ key: any CodingKey) -> Bool {
        type(of: key).init(stringValue: "\u{0}a name no model declares") != nil
    }

    /// A coding path written as a key path: `items[3].user.login`; the top level is `(top level)`.
    /// Each key is cut at 256 bytes and the path at 1,024, the keys left out counted.
    static func codingPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for (position, key) in path.enumerated() {
            let step = key.intValue.map { "[\($0)]" } ?? (text.isEmpty ? "" : ".") + value(key.stringValue)
            guard text.utf8.count + step.utf8.count <= listLimit else {
                return text + "… and \(ClippedText.count(path.count - position)) more keys"
            }
            text += step
        }
        return text.isEmpty ? "(top level)" : text
    }

    /// A value cut to `limit` bytes with its size stated.
    private static func value(_ text: String, limit: Int = valueLimit) -> String {
        ClippedText.value(text, limit: limit)
    }

    /// What `print` shows for `subject`, built no further than `limit` bytes and cut there (an
    /// error model holding a 100 MB string is described in the time a short one is).
    private static func text(_ subject: Any, limit: Int = valueLimit) -> String {
        ClippedText.value(BoundedDescription.of(subject, limit: limit, hiding: .default), limit: limit)
    }
}
