import Foundation
import HTTPTypes

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Payloads {
    /// The header fields GitHub's REST API sends with a user (24 of them, as recorded in 2024,
    /// values shortened where they carried identifiers).
    static let githubHeaders: HTTPFields = {
        var fields = HTTPFields()
        let pairs: [(String, String)] = [
            ("Server", "GitHub.com"), ("Date", "Wed, 01 May 2024 12:00:00 GMT"), ("Content-Type", "application/json; charset=utf-8"),
            ("Cache-Control", "public, max-age=60, s-maxage=60"), ("Vary", "Accept, Accept-Encoding, Accept, X-Requested-With"),
            ("ETag", "W/\"1d9b8f0a2c3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a\""),
            ("Last-Modified", "Wed, 01 May 2024 11:00:00 GMT"), ("X-GitHub-Media-Type", "github.v3; format=json"),
            ("x-github-api-version-selected", "2022-11-28"), ("Access-Control-Expose-Headers", "ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset"),
            ("Access-Control-Allow-Origin", "*"), ("Strict-Transport-Security", "max-age=31536000; includeSubdomains; preload"),
            ("X-Frame-Options", "deny"), ("X-Content-Type-Options", "nosniff"), ("X-XSS-Protection", "0"),
            ("Referrer-Policy", "origin-when-cross-origin, strict-origin-when-cross-origin"), ("Content-Security-Policy", "default-src 'none'"),
            ("X-RateLimit-Limit", "60"), ("X-RateLimit-Remaining", "59"), ("X-RateLimit-Reset", "1714568400"), ("X-RateLimit-Resource", "core"),
            ("X-RateLimit-Used", "1"), ("Accept-Ranges", "bytes"), ("X-GitHub-Request-Id", "C0DE:1234:5678AB:9ABCDE:66322A00"),
        ]
        for (name, value) in pairs {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        return fields
    }()

    /// A `200` for `path` on api.github.com as URLSession gives it, with ``githubHeaders``, and
    /// its `GET` request.
    static func githubURLResponse(path: String) throws -> (HTTPURLResponse, URLRequest) {
        guard let url = URL(string: "https://api.github.com" + path),
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: Dictionary(githubHeaders.map { ($0.name.rawName, $0.value) }, uniquingKeysWith: { $0 + ", " + $1 }))
        else { throw URLError(.badURL) }
        return (response, URLRequest(url: url))
    }
}
