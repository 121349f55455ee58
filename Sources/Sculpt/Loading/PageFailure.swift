import Foundation

/// A paginated load that failed on one page: which page, its URL, and why.
///
/// ```swift
/// do {
///     for try await page in session.pages(for: request, serializer: serializer) { issues += page.value }
/// } catch let failure as PageFailure {
///     print(failure)   // Page 3 of the load failed (https://api.github.com/...): ...
/// }
/// ```
public struct PageFailure: Error, CustomStringConvertible {
    /// The failed page's position, from 1.
    public var page: Int
    /// The failed page's URL.
    public var url: URL?
    /// The transport or serializer error.
    public var underlying: any Error

    /// Creates a failure.
    public init(page: Int, url: URL?, underlying: any Error) {
        self.page = page
        self.url = url
        self.underlying = underlying
    }

    /// `Page 3 of the load failed (GET https://...): ` and the underlying error; secrets in the URL
    /// redacted, at most 4,096 bytes.
    public var description: String {
        let url = self.url.map { ClippedText.value(SecretPolicy.default.redacting($0).absoluteString, limit: 1_024) } ?? "no URL"
        let head = "Page \(page) of the load failed (\(url)): "
        return head + ClippedText.value(String(describing: underlying), limit: 4_096 - head.utf8.count)
    }
}
