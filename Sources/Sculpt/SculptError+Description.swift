import Foundation

extension SculptError {
    /// How many bytes of the body a description shows.
    static let bodyExcerptLimit = 512

    /// A report in lines: what happened, to which request, what was expected and what arrived, and
    /// the start of the body.
    public var description: String {
        (report + [bodyExcerpt]).joined(separator: "\n")
    }

    /// The report without the body excerpt.
    private var report: [String] {
        var lines: [String] = []
        let request = context.response.description
        switch self {
        case .noModelMatched(let candidates, _):
            lines.append("No model type matched \(request).")
            if !candidates.isEmpty {
                lines.append("Nearest registered: \(candidates.joined(separator: ", ")).")
            }
        case .unacceptableStatusCode(let underlying, _):
            lines.append("Unacceptable status code for \(request).")
            if let underlying {
                lines.append("The error body did not decode as the error model: \(Self.describe(underlying))")
            }
        case .unacceptableContentType(let acceptable, _):
            let found = context.response.headerFields[.contentType] ?? "none"
            lines.append("Unacceptable content type for \(request).")
            lines.append("Expected one of \(acceptable.joined(separator: ", ")); found \(found).")
        case .emptyBody(let expected, _):
            lines.append("Empty body for \(request).")
            lines.append("Expected \(expected.map { "a body to decode as \($0)" } ?? "a body"); only 204, 205 and HEAD responses may be empty.")
        case .keyPathNotFound(let miss, _):
            lines.append("Key path \(miss.keyPath) not found in the body of \(request).")
            lines.append(Self.describe(miss))
        case .invalidKeyPath(let error, _):
            lines.append("Cannot decode \(request): \(error).")
        case .decodingFailed(let modelType, let underlying, _):
            lines.append("Could not decode \(modelType) from \(request).")
            lines.append(Self.describe(underlying))
        case .typeMismatch(let expected, let matched, _):
            lines.append("Type mismatch for \(request).")
            lines.append("Expected \(expected); the matcher resolved \(matched).")
        case .errorResponse(let model, _):
            lines.append("Error response for \(request): \(model)")
        case .matcherFailed(let underlying, _):
            lines.append("The matcher could not read the body of \(request): \(underlying)")
        case .unknownDiscriminator(let field, let found, let registered, _):
            lines.append("Unknown discriminator \"\(field)\" in the body of \(request).")
            let values = registered.isEmpty ? "none" : registered.map { "\"\($0)\"" }.joined(separator: ", ")
            lines.append("Found \(found ?? "missing"); registered: \(values).")
        case .invalidJSON(let reason, let offset, _):
            lines.append("The body of \(request) is not valid JSON at byte \(offset): \(reason).")
        case .bodyTooLarge(let maximum, _):
            lines.append("The body of \(request) is \(context.body.count) bytes; the serializer reads at most \(maximum).")
        case .nestingTooDeep(let maximum, let offset, _):
            lines.append("The body of \(request) nests arrays and objects deeper than \(maximum) levels (at byte \(offset)).")
        }
        return lines
    }

    /// The first bytes of the body as text, with its size: `Body (1,204 bytes): {"login":...`.
    private var bodyExcerpt: String {
        let body = context.body
        guard !body.isEmpty else { return "Body: empty." }
        let shown = body.prefix(Self.bodyExcerptLimit)
        let text = String(decoding: shown, as: UTF8.self)
        let more = body.count > shown.count ? "… (\(body.count - shown.count) more bytes)" : ""
        return "Body (\(body.count) bytes): \(text)\(more)"
    }

    private static func describe(_ miss: KeyPathMiss) -> String {
        if let found = miss.found {
            return "At \(miss.failedAt): nothing to descend into (\(found))."
        }
        if miss.availableKeys.isEmpty {
            return "At \(miss.failedAt): not found; the enclosing value is empty."
        }
        return "At \(miss.failedAt): not found; available: \(miss.availableKeys.joined(separator: ", "))."
    }

    /// A decoding failure as `At items[3].user.login: expected String, found a number.`
    static func describe(_ error: any Error) -> String {
        if let error = error as? SculptError {
            // The details without the first line's "for <request>" (the caller names it), unless
            // the first line is all there is.
            let report = error.report
            return (report.count > 1 ? report.dropFirst() : report[...]).joined(separator: " ")
        }
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(let type, let context):
            return "At \(codingPath(context.codingPath)): expected \(type). \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "At \(codingPath(context.codingPath)): expected \(type), found null or nothing. \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "At \(codingPath(context.codingPath + [key])): missing key \"\(key.stringValue)\"."
        case .dataCorrupted(let context):
            let underlying = context.underlyingError.map { " (\($0))" } ?? ""
            return "At \(codingPath(context.codingPath)): the data is not valid. \(context.debugDescription)\(underlying)"
        @unknown default:
            return "\(error)"
        }
    }

    /// A coding path written as a key path: `items[3].user.login`; the top level is `(top level)`.
    static func codingPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text.isEmpty ? "(top level)" : text
    }
}
