public import Foundation
public import HTTPTypes

/// The headers and query parameters whose values are secrets. SculptTesting's recorder never
/// writes them, and a ``SculptError``'s description never shows them.
///
/// ```swift
/// let shown = Secrets.redacting(URL(string: "https://api.example.com/user?access_token=abc")!)
/// // https://api.example.com/user?access_token=REDACTED
/// ```
public enum Secrets {
    /// What stands in for a secret value.
    public static let marker = "REDACTED"

    /// Headers that carry credentials.
    public static let headers: [HTTPField.Name] = [.authorization, .proxyAuthorization, .cookie, .setCookie]

    /// Query parameters that carry credentials (compared case-insensitively).
    public static let queryParameters = ["access_token", "api_key", "client_secret"]

    /// `url` with the values of the secret query parameters and any password replaced by
    /// ``marker``; `url` itself when it has neither. `parameters` are lowercased names.
    public static func redacting(_ url: URL, queryParameters parameters: Set<String> = Set(queryParameters)) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var changed = false
        if components.percentEncodedPassword != nil {
            components.percentEncodedPassword = marker
            changed = true
        }
        if let items = components.percentEncodedQueryItems {
            let redacted = items.map { item in
                parameters.contains((item.name.removingPercentEncoding ?? item.name).lowercased()) && item.value != nil
                    ? URLQueryItem(name: item.name, value: marker) : item
            }
            if redacted != items {
                components.percentEncodedQueryItems = redacted
                changed = true
            }
        }
        return changed ? (components.url ?? url) : url
    }
}
