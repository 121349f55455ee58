import Foundation
import Sculpt
import SculptShared

/// A paginated load that failed on one page: which page, its URL, and why.
///
/// ```swift
/// do {
///     for try await page in session.pages(for: request, serializer: serializer) { issues += page.value }
/// } catch let failure as PageError {
///     print(failure)   // Page 3 of the load failed (https://api.github.com/...): ...
/// }
/// ```
public struct PageError: Error, CustomStringConvertible {
    /// The failed page's position, from 1.
    public var page: Int
    /// The failed page's URL.
    public var url: URL?
    /// The transport or serializer error.
    public var underlying: any Error

    /// Creates a failure.
    /// - Parameters:
    ///   - page: the number of the page that failed, from 1.
    ///   - url: the URL it was loaded from, when known.
    ///   - underlying: why it failed.
    public init(page: Int, url: URL?, underlying: any Error) {
        self.page = page
        self.url = url
        self.underlying = underlying
    }

    /// `Page 3 of the load failed (https://...): ` and the underlying error; secrets redacted
    /// (the URL's, and wherever the underlying error quotes them: a transport error's failing
    /// URL, a redirect's), at most 4,096 bytes.
    public var description: String {
        let url = self.url.map { ClippedText.value(SecretPolicy.default.redacting($0).absoluteString, limit: 1_024) } ?? "no URL"
        let failing = (underlying as NSError).userInfo[NSURLErrorFailingURLErrorKey] as? URL
        let secrets = [self.url, failing].compactMap { $0 }.flatMap { SecretPolicy.default.secretValues(in: $0) }
        return ShownText.line("Page \(page) of the load failed (\(url)): \(underlying)", limit: 4_096, hiding: secrets)
    }
}
