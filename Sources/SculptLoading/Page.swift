import Foundation
import Sculpt
import SculptShared
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One page of a paginated load: its value, response and request, and what comes next.
///
/// ```swift
/// for try await page in session.pages(for: request, serializer: serializer) {
///     issues += page.value
/// }
/// ```
public struct Page<Value: Sendable>: Sendable {
    /// The serialized value.
    public var value: Value
    /// The response it was serialized from.
    public var response: ResponseContext
    /// The request that loaded it.
    public var request: URLRequest
    /// Its position, from 1.
    public var number: Int

    /// Creates a page.
    /// - Parameters:
    ///   - value: the model decoded from the page.
    ///   - response: the page's response.
    ///   - request: the request that loaded it.
    ///   - number: its position, from 1.
    public init(value: Value, response: ResponseContext, request: URLRequest, number: Int) {
        self.value = value
        self.response = response
        self.request = request
        self.number = number
    }

    /// The URL the response's `Link` field names with `rel="next"` (RFC 8288, as GitHub sends
    /// it), resolved against the response's URL.
    public var nextLink: URL? {
        LinkField.target(rel: "next", in: response.headerFields, base: response.url)
    }

    /// This page's request with the query parameter `name` set to `value` (added, or replacing
    /// every value it had): the next request of a cursor or page-number API.
    ///
    /// ```swift
    /// // Stack Exchange: `has_more` in the body, the page number in the query.
    /// page.value.hasMore ? page.request(setting: "page", to: String(page.number + 1)) : nil
    /// ```
    /// - Parameters:
    ///   - name: the query parameter to set.
    ///   - value: its value.
    public func request(setting name: String, to value: String) -> URLRequest {
        var request = self.request
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return request }
        // Names compared decoded (`page%5Bcursor%5D` is `page[cursor]`), both written encoded.
        var items = (components.percentEncodedQueryItems ?? []).filter { ($0.name.removingPercentEncoding ?? $0.name) != name }
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? "" }
        items.append(URLQueryItem(name: encode(name), value: encode(value)))
        components.percentEncodedQueryItems = items
        request.url = components.url ?? url
        return request
    }

    /// The request for ``nextLink``: this page's method and fields, except that credentials
    /// (the credential headers: `Authorization`, `Cookie`, `X-Api-Key` and the like, as SculptTesting's `Redaction.defaultHeaders` lists them) are not sent to
    /// another origin.
    public var nextLinkRequest: URLRequest? {
        guard let next = nextLink else { return nil }
        var request = self.request
        request.url = next
        return CrossOriginRedirects.redirected(request, from: self.request.url)
    }
}

extension CharacterSet {
    /// What a query name or value may hold unencoded: the query's characters less `&`, `=`, `+`,
    /// `#`, `[` and `]`.
    fileprivate static let urlQueryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#[]"))
}
