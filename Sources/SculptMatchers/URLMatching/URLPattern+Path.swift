import SculptShared

extension URLPattern {
    /// Why ``path(with:)`` could not build a path: a parameter without a value, a value for no
    /// parameter, a value its parameter cannot hold, or a wildcard without a name.
    public struct ParameterError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The pattern, in normal form.
        public var pattern: String
        /// What is wrong.
        public var reason: String

        /// E.g. `cannot build a path from "/repos/{owner}/{repo}": no value for {repo}`; bounded
        /// and escaped as ``URLPattern/SyntaxError``'s description is.
        public var description: String {
            ShownText.line("cannot build a path from \(URLPattern.shown(pattern)): \(reason)", limit: 2_048)
        }
    }

    /// The path this pattern matches with `values` in its parameters: each value percent-encoded
    /// as one segment (every byte but ASCII letters, digits and `-._~`), so a `/`, `?`, `#` or `%`
    /// in a value stays in its segment. A `{name:**}` value is split on `/` into segments, each
    /// encoded; an empty one is no segment at all.
    ///
    /// ```swift
    /// let pattern = try URLPattern("/repos/{owner}/{repo}/contents/{path:**}")
    /// try pattern.path(with: ["owner": "apple", "repo": "swift", "path": "docs/Read me.md"])
    /// // "/repos/apple/swift/contents/docs/Read%20me.md"
    /// ```
    /// - Parameter values: a value for each name in ``parameterNames``, and for nothing else.
    /// - Returns: the path, starting with `/`.
    /// - Throws: ``ParameterError`` when a parameter has no value, a value names no parameter, a
    ///   `#` value is not ASCII digits, a `*` or `#` value is empty, a value (or a segment of a
    ///   `**` value) is `.` or `..` (a server resolves those away) or a `**` value has an empty
    ///   segment inside it, or the pattern has a `*`, `#` or `**` without a name.
    public func path(with values: [String: String]) throws(ParameterError) -> String {
        func failure(_ reason: String) -> ParameterError { ParameterError(pattern: description, reason: reason) }
        if let unknown = values.keys.lazy.filter({ !names.contains($0) }).min() {
            let known = parameterNames.isEmpty ? "it has no parameters" : "its parameters are \(parameterNames.joined(separator: ", "))"
            throw failure("no parameter is named '\(PrintableText.value(unknown, limit: 64))'; \(known)")
        }
        var path = ""
        path.reserveCapacity(64)
        for (index, (token, name)) in zip(tokens, names).enumerated() {
            if case .literal(let text) = token {
                path.append("/")
                path.append(PercentEncoding.encoded(text))
                continue
            }
            guard let name else {
                throw failure("segment \(index + 1) is '\(token.text)' without a name: write {name} to build a path with it")
            }
            guard let value = values[name] else { throw failure("no value for {\(name)}") }
            switch token {
            case .remainder:
                guard !value.isEmpty else { continue }
                let segments = value.split(separator: "/", omittingEmptySubsequences: false)
                for segment in segments {
                    guard !segment.isEmpty else { throw failure("the value for {\(name):**} has an empty segment") }
                    guard !PathSegments.isDotSegment(segment.utf8) else {
                        throw failure("the value for {\(name):**} has a segment '\(segment)', which a server resolves away")
                    }
                    path.append("/")
                    path.append(PercentEncoding.encoded(segment))
                }
            case .digits where !value.utf8.isASCIIDigits:
                throw failure("the value for {\(name):#} must be one or more ASCII digits")
            default:
                guard !value.isEmpty else { throw failure("the value for {\(name)} is empty, which no segment is") }
                guard !PathSegments.isDotSegment(value.utf8) else {
                    throw failure("the value for {\(name)} is '\(value)', which a server resolves away")
                }
                path.append("/")
                path.append(PercentEncoding.encoded(value))
            }
        }
        return path.isEmpty ? "/" : path
    }

    /// The values a path gives this pattern's named parameters, read from the bytes of its
    /// decoded segments (after any prefix): a `**` parameter's value is the rest of the segments
    /// joined with `/`. The pattern must match the segments.
    func parameters(_ bytes: UnsafeBufferPointer<UInt8>, _ segments: Slice<UnsafeBufferPointer<Range<Int>>>) -> [String: String] {
        var values = [String: String](minimumCapacity: namedCount)
        func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        for (offset, (token, name)) in zip(tokens, names).enumerated() {
            guard let name else { continue }
            let index = segments.startIndex + offset
            if token == .remainder {
                values[name] = segments[Swift.min(index, segments.endIndex)...].map(text).joined(separator: "/")
            } else if index < segments.endIndex {
                values[name] = text(segments[index])
            }
        }
        return values
    }
}
