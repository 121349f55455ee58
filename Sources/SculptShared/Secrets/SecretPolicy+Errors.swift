import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension SecretPolicy {
    /// `error` with the URLs a transport error carries redacted (its failing URL and its text, and
    /// those of the errors under it): Foundation's description prints them whole, so a
    /// `URLError` for `https://u:password@h/?access_token=x` would show both in any log. Other
    /// errors are returned as they are.
    ///
    /// ```swift
    /// catch { throw SecretPolicy.default.redactingURLs(in: error) }
    /// ```
    package func redactingURLs(in error: any Error) -> any Error {
        let bridged = error as NSError
        guard bridged.domain == NSURLErrorDomain else { return error }
        let userInfo = redactingURLs(in: bridged.userInfo, depth: 0)
        // `URLError.Code(rawValue:)` fails for an unknown code on Linux (an enum) and never on
        // Apple platforms (a struct): the optional binding reads both.
        let code: URLError.Code? = URLError.Code(rawValue: bridged.code)
        guard let code else { return NSError(domain: bridged.domain, code: bridged.code, userInfo: userInfo) }
        return URLError(code, userInfo: userInfo)
    }

    private func redactingURLs(in userInfo: [String: Any], depth: Int) -> [String: Any] {
        var redacted = userInfo
        for (key, value) in userInfo {
            switch value {
            case let url as URL: redacted[key] = redacting(url)
            case let text as String where text.contains("://"): redacted[key] = redacting(urlText: text)
            case let underlying as NSError where depth < 4:
                redacted[key] = NSError(domain: underlying.domain, code: underlying.code, userInfo: redactingURLs(in: underlying.userInfo, depth: depth + 1))
            default: break
            }
        }
        return redacted
    }
}
