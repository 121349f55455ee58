public import Foundation
public import HTTPTypes
import Sculpt

/// What a ``FixtureRecorder`` replaces with ``marker`` before anything is kept: secrets in headers
/// and query parameters never reach a fixture, in memory or on disk.
///
/// ```swift
/// let redaction = Redaction(headers: [HTTPField.Name("X-Api-Key")!], queryParameters: ["signature"])
/// let recorder = FixtureRecorder(redaction: redaction)
/// ```
///
/// Always redacted: ``Secrets/headers`` (`Authorization`, `Proxy-Authorization`, `Cookie`,
/// `Set-Cookie`), ``Secrets/queryParameters`` (`access_token`, `api_key`, `client_secret`) and a
/// password in the URL. Names compare case-insensitively. Bodies are kept as they are: redact
/// secrets in bodies before sharing.
public struct Redaction: Sendable {
    /// What a redacted value becomes: ``Secrets/marker``.
    public static let marker = Secrets.marker

    /// The headers always redacted: ``Secrets/headers``.
    public static let defaultHeaders = Secrets.headers
    /// The query parameters always redacted: ``Secrets/queryParameters``.
    public static let defaultQueryParameters = Secrets.queryParameters

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

    /// `url` with the value of every redacted query parameter, and any password, replaced by
    /// ``marker``.
    public func redacting(_ url: URL) -> URL {
        Secrets.redacting(url, queryParameters: queryParameters)
    }
}
