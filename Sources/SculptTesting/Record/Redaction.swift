public import Foundation
public import HTTPTypes

/// What a ``FixtureRecorder`` replaces with ``marker`` before anything is kept: secrets in headers
/// and query parameters never reach a fixture, in memory or on disk.
///
/// ```swift
/// let redaction = Redaction(headers: [HTTPField.Name("X-Api-Key")!], queryParameters: ["signature"])
/// let recorder = FixtureRecorder(redaction: redaction)
/// ```
///
/// Always redacted: the headers `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie`,
/// and the query parameters `access_token`, `api_key` and `client_secret`. Names compare
/// case-insensitively. Bodies are kept as they are: redact secrets in bodies before sharing.
public struct Redaction: Sendable {
    /// What a redacted value becomes.
    public static let marker = "REDACTED"

    /// The headers always redacted.
    public static let defaultHeaders: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie, .setCookie]
    /// The query parameters always redacted.
    public static let defaultQueryParameters = ["access_token", "api_key", "client_secret"]

    /// Every header redacted: the defaults and the ones named at creation.
    public let headers: Set<HTTPField.Name>
    /// Every query parameter redacted (lowercased): the defaults and the ones named at creation.
    public let queryParameters: Set<String>

    /// Creates a redaction of the defaults plus the headers and query parameters named.
    ///
    /// ```swift
    /// let redaction = Redaction(queryParameters: ["sig"])
    /// ```
    public init(headers: [HTTPField.Name] = [], queryParameters: [String] = []) {
        self.headers = Set(Self.defaultHeaders + headers)
        self.queryParameters = Set((Self.defaultQueryParameters + queryParameters).map { $0.lowercased() })
    }

    /// `fields` with the value of every redacted header replaced by ``marker``.
    public func redacting(_ fields: HTTPFields) -> HTTPFields {
        HTTPFields(fields.map { headers.contains($0.name) ? HTTPField(name: $0.name, value: Self.marker) : $0 })
    }

    /// `url` with the value of every redacted query parameter replaced by ``marker``.
    public func redacting(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let items = components.percentEncodedQueryItems else {
            return url
        }
        components.percentEncodedQueryItems = items.map { item in
            queryParameters.contains((item.name.removingPercentEncoding ?? item.name).lowercased()) && item.value != nil
                ? URLQueryItem(name: item.name, value: Self.marker) : item
        }
        return components.url ?? url
    }
}
