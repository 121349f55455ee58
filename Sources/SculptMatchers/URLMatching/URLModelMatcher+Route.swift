import Foundation
import SculptShared
public import HTTPTypes
public import Sculpt

extension URLModelMatcher {
    /// A registered pattern with its refinements and what it resolves to: a model type, or a
    /// matcher that decides.
    ///
    /// ```swift
    /// let route = matcher.route(for: url, method: .post)
    /// route?.pattern.description  // "/repos/*/*/issues"
    /// route?.modelType            // Issue
    /// ```
    public struct Route: Sendable, CustomStringConvertible {
        /// What a route resolves to.
        public enum Target: Sendable {
            /// Always this model type.
            case model(ModelType)
            /// Whatever this matcher decides for the response (a type field, a header); when it
            /// answers nil, matching goes on to the next route by precedence.
            case matcher(any ModelMatcher)
        }

        /// A route's parts, immutable and shared: every lookup returns a route, and a copy of
        /// one is then a single reference, not a copy of every part.
        private final class Parts: Sendable {
            let pattern: URLPattern
            let method: HTTPRequest.Method?
            let status: HTTPResponse.Status?
            let target: Target

            init(pattern: URLPattern, method: HTTPRequest.Method?, status: HTTPResponse.Status?, target: Target) {
                self.pattern = pattern
                self.method = method
                self.status = status
                self.target = target
            }
        }

        private let parts: Parts

        /// The URL a lookup matched this route with, and how many of its path's segments are the
        /// matcher's prefix: what ``parameters`` reads its values from, when asked.
        private let match: (url: URL, prefixCount: Int)?

        /// The values the matched path gave the pattern's named parameters, by name: set on a
        /// route ``URLModelMatcher/route(for:method:status:)`` returns, empty in
        /// ``URLModelMatcher/routes``. A `{name:**}` parameter's value is the rest of the path's
        /// segments joined with `/`; every value is percent-decoded. Read from the matched URL
        /// when asked, so a lookup whose caller does not read them costs what one without names does.
        public var parameters: [String: String] {
            guard let match, pattern.namedCount > 0 else { return [:] }
            return PathBytes.withSegments(of: match.url) { bytes, segments in
                pattern.parameters(bytes, segments[Swift.min(match.prefixCount, segments.count)...])
            }
        }

        init(pattern: URLPattern, method: HTTPRequest.Method?, status: HTTPResponse.Status?, target: Target) {
            parts = Parts(pattern: pattern, method: method, status: status, target: target)
            match = nil
        }

        private init(parts: Parts, match: (url: URL, prefixCount: Int)) {
            self.parts = parts
            self.match = match
        }

        /// The route as registered, whatever the values a lookup captured: equal for two copies of
        /// one registration.
        var registration: ObjectIdentifier {
            ObjectIdentifier(parts)
        }

        /// This route, as a lookup matched it with `url`, whose path's first `prefixCount`
        /// segments are the matcher's prefix.
        func matched(_ url: URL, prefixCount: Int) -> Route {
            Route(parts: parts, match: (url, prefixCount))
        }

        /// The compiled path pattern (without the matcher's prefix).
        public var pattern: URLPattern { parts.pattern }
        /// The method the route is limited to, or `nil` for any.
        public var method: HTTPRequest.Method? { parts.method }
        /// The status the route is limited to, or `nil` for any.
        public var status: HTTPResponse.Status? { parts.status }
        /// What the route resolves to.
        public var target: Target { parts.target }

        /// The model type of a route to one model; `nil` for a route that delegates to a matcher.
        public var modelType: ModelType? {
            if case .model(let modelType) = target { modelType } else { nil }
        }

        /// E.g. `POST /repos/*/*/issues (201) -> Issue`, or `/feed/* -> TypeFieldModelMatcher`;
        /// control characters escaped, at most 2,048 bytes (a pattern may be a megabyte long).
        public var description: String {
            let text = switch target {
            case .model(let modelType): "\(signature) -> \(modelType)"
            case .matcher(let matcher): "\(signature) -> \(type(of: matcher))"
            }
            return ShownText.line(text, limit: 2_048)
        }

        /// The route without its target: `POST /repos/*/*/issues (201)`.
        var signature: String {
            Self.signature(method, pattern, status)
        }

        /// A route's method, pattern and status as a route writes them: `POST /repos/*/*/issues (201)`.
        static func signature(_ method: HTTPRequest.Method?, _ pattern: URLPattern, _ status: HTTPResponse.Status?) -> String {
            let method = method.map { "\($0.rawValue) " } ?? ""
            let status = status.map { " (\($0.code))" } ?? ""
            return "\(method)\(pattern)\(status)"
        }
    }
}
