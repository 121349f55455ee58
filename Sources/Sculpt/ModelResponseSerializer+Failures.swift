import Foundation
import SculptShared

// The errors of the pipeline's steps, each built by a function of its own, out of line, from what
// the steps before it resolved: the code a response runs through stays small, the error (with a
// copy of the response and body) is made only on failure, and no step is run again.
extension ModelResponseSerializer {
    /// Step 1's error: the error model ``errorMatcher`` picks, decoded; else the unacceptable
    /// status, with the reason the error model is missing when one was tried (its body over the
    /// limits, its matcher failing, its body not decoding).
    @usableFromInline @inline(never)
    func statusFailure(_ response: ResponseContext, _ data: Data) -> SculptError {
        guard let errorMatcher, !data.isBlank, acceptsContentType(of: response) else {
            return SculptError(.unacceptableStatusCode(underlying: nil), response: response, body: data)
        }
        do throws(SculptError) {
            try checkLimits(response, data)
            let errorType: ModelType?
            do {
                errorType = try errorMatcher.modelType(for: response, data: data)
            } catch {
                throw Self.matcherFailure(error, response, data)
            }
            guard let errorType else { return SculptError(.unacceptableStatusCode(underlying: nil), response: response, body: data) }
            return SculptError(.errorResponse(model: try decode(errorType.type, as: errorType, response, data)), response: response, body: data)
        } catch {
            return SculptError(.unacceptableStatusCode(underlying: error), response: response, body: data)
        }
    }

    /// Step 3's error, and step 4's on a body of only white space: an empty body, found before the
    /// matcher was asked. It names the caller's type, else the one the matcher resolves.
    @usableFromInline @inline(never)
    func emptyBodyFailure(expecting expected: Any.Type?, _ response: ResponseContext, _ data: Data) -> SculptError {
        let named = expected.map { String(describing: $0) } ?? (try? matcher.modelType(for: response, data: data))??.description
        return SculptError(.emptyBody(expected: named), response: response, body: data)
    }

    /// Step 4's error.
    @usableFromInline @inline(never)
    func contentTypeFailure(expecting expected: Any.Type?, _ response: ResponseContext, _ data: Data) -> SculptError {
        guard !data.isBlank else { return emptyBodyFailure(expecting: expected, response, data) }
        return SculptError(.unacceptableContentType(acceptable: (acceptableContentTypes ?? []).sorted()), response: response, body: data)
    }

    /// Step 5's error when the matcher throws.
    @usableFromInline @inline(never)
    func matcherFailure(_ error: any Error, expecting expected: Any.Type?, _ response: ResponseContext, _ data: Data) -> SculptError {
        Self.blank(data, or: Self.matcherFailure(error, response, data), naming: expected.map { String(describing: $0) }, response)
    }

    /// A matcher's diagnosis as an error keeps it: at most 12 lines (the last saying how many
    /// more there were), each through the gate (``ShownText``) with the response's secret values
    /// hidden, so that code logging `diagnosis` itself gets what the description shows.
    static func bounded(_ lines: [String], _ response: ResponseContext, _ data: Data) -> [String] {
        let limit = SculptError.diagnosisLimit
        let kept = lines.count > limit ? lines.prefix(limit - 1) + ["… and \(lines.count - limit + 1) more."] : lines[...]
        // The values the response holds under secret names (its body's, its URL's, its headers'),
        // as the description hides them.
        let secrets = SculptError.secrets(in: data, of: response).scan.values
        return kept.map { ShownText.line($0, limit: SculptError.listLimit, hiding: secrets) }
    }

    /// Step 5's error when the matcher has no model type.
    @usableFromInline @inline(never)
    func noModelFailure(expecting expected: Any.Type?, _ response: ResponseContext, _ data: Data) -> SculptError {
        var failure = SculptError(.noModelMatched(candidates: matcher.nearestCandidates(for: response)), response: response, body: data)
        failure.diagnosis = Self.bounded(matcher.diagnosis(for: response, data: data, resolved: nil, expected: expected as? any (Decodable & Sendable).Type), response, data)
        return Self.blank(data, or: failure, naming: expected.map { String(describing: $0) }, response)
    }

    /// Step 6's error: the decoded error model of an ``ErrorResponseModel``, else the type mismatch.
    @usableFromInline @inline(never)
    func rejectedModelFailure(_ modelType: ModelType, expecting expected: (any (Decodable & Sendable).Type)?, _ response: ResponseContext, _ data: Data)
        -> SculptError
    {
        guard modelType.isErrorResponse else {
            let expected = expected ?? modelType.type
            var mismatch = SculptError(.typeMismatch(expected: expected, matched: modelType), response: response, body: data)
            mismatch.diagnosis = Self.bounded(matcher.diagnosis(for: response, data: data, resolved: modelType, expected: expected), response, data)
            return Self.blank(data, or: mismatch, naming: String(describing: expected), response)
        }
        do throws(SculptError) {
            return SculptError(.errorResponse(model: try decode(modelType.type, as: modelType, response, data)), response: response, body: data)
        } catch {
            return error
        }
    }

    /// Step 7's error: a key path that does not resolve or parse, or a body that does not decode;
    /// a body of only white space is empty.
    @usableFromInline @inline(never)
    func decodingFailure(_ error: any Error, _ modelType: ModelType, _ response: ResponseContext, _ data: Data) -> SculptError {
        let reason: SculptError.Reason = switch error {
        case let miss as KeyPathWalk.Miss: .keyPathNotFound(miss.report)
        case let error as ModelKeyPath.SyntaxError: .invalidKeyPath(error)
        default: .decodingFailed(modelType, underlying: error)
        }
        return Self.blank(data, or: SculptError(reason, response: response, body: data), naming: modelType.description, response)
    }

    /// An error a matcher threw, about this response and body (whatever the matcher built it
    /// from): a reason only a matcher gives (no model, an unknown type field, a body that is not
    /// JSON, a key path that does not parse) as it is; anything else, a ``SculptError`` about
    /// another response among them, wrapped in ``SculptError/Reason/matcherFailed(underlying:)``.
    static func matcherFailure(_ error: any Error, _ response: ResponseContext, _ data: Data) -> SculptError {
        guard let error = error as? SculptError else { return SculptError(.matcherFailed(underlying: error), response: response, body: data) }
        switch error.reason {
        case .noModelMatched, .unknownDiscriminator, .invalidJSON, .invalidKeyPath:
            return SculptError(error.reason, response: response, body: data)
        default:
            return SculptError(.matcherFailed(underlying: error), response: response, body: data)
        }
    }

    /// `failure`, unless the body is only white space: then the step failed because there was
    /// nothing to read, and the error is the empty body, naming the model that was due.
    static func blank(_ data: Data, or failure: SculptError, naming model: @autoclosure () -> String?, _ response: ResponseContext) -> SculptError {
        guard data.isBlank else { return failure }
        return SculptError(.emptyBody(expected: model()), response: response, body: data)
    }
}
