import Foundation
import Sculpt
import SculptShared

/// A URL as Sculpt compares URLs for identity (a page already loaded, a response saved for a
/// request): absolute, without its fragment, the scheme and host lowercased, a default port
/// dropped, and equal percent-encodings made one. The query keeps its order.
///
/// ```swift
/// NormalizedURL.text(URL(string: "HTTPS://API.example.com:443/a%7eb?x=1#top"))   // https://api.example.com/a~b?x=1
/// ```
package enum NormalizedURL {
    /// The normalized text of `url`; empty for none.
    package static func text(_ url: URL?) -> String {
        guard let url = url?.absoluteURL, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url?.absoluteString ?? ""
        }
        components.fragment = nil
        components.scheme = components.scheme.map(ASCII.lowercased)
        components.host = components.host.map(ASCII.lowercased)
        if let port = components.port, ["http": 80, "https": 443][components.scheme ?? ""] == port { components.port = nil }
        return PercentEncoding.normalized(components.string ?? url.absoluteString)
    }
}
