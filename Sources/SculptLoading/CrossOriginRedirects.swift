import Foundation
import Sculpt
import SculptShared
internal import HTTPTypes
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A delegate that follows redirects as a session would, except that credentials (the headers
/// SculptTesting's `Redaction` always redacts: `Authorization`, `Proxy-Authorization`, `Cookie`,
/// `X-Api-Key`, any `...-Token` and the like) set on the request are not carried to another origin
/// (scheme, host and port), as browsers and `curl` behave.
///
/// Sculpt's loads (``LoadSequence``, ``PageSequence``) pass one as the task delegate of every
/// request they make. Apple platforms honour a task delegate's redirect callback;
/// FoundationNetworking (Linux) asks only the session's delegate, so there a session whose
/// redirects may leave the origin is made with one:
///
/// ```swift
/// let session = URLSession(configuration: .default, delegate: CrossOriginRedirects(), delegateQueue: nil)
/// ```
public final class CrossOriginRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    private let answers = RedirectAnswers()

    /// Creates the delegate.
    override public init() {}

    /// Follows the redirect with `request`, its credentials removed when it leaves the origin of
    /// the task's original request.
    /// - Parameters:
    ///   - session: the session following the redirect.
    ///   - task: the task being redirected.
    ///   - response: the redirect response.
    ///   - request: the request the redirect leads to.
    ///   - completionHandler: receives the request to follow. On FoundationNetworking, which stops
    ///     the process on an answer its task no longer waits for, it is not called for a task
    ///     cancelled while the delegate was asked, nor for one whose request timed out meanwhile:
    ///     that task is cancelled, so that it ends.
    public func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        answers.answer(task, redirectedBy: response, with: Self.redirected(request, from: task.originalRequest?.url ?? response.url), completionHandler)
    }

    /// `request` without credentials when its URL's origin is not `origin`'s.
    static func redirected(_ request: URLRequest, from origin: URL?) -> URLRequest {
        guard let url = request.url, !isSameOrigin(url, origin) else { return request }
        var stripped = request
        for name in (request.allHTTPHeaderFields ?? [:]).keys where HTTPField.Name(name).map(Secrets.isCredentialHeader) ?? false {
            stripped.setValue(nil, forHTTPHeaderField: name)
        }
        return stripped
    }

    /// Whether two URLs share scheme, host and port (the scheme's default port when none is given).
    static func isSameOrigin(_ url: URL, _ other: URL?) -> Bool {
        guard let other else { return false }
        func port(_ url: URL) -> Int? {
            url.port ?? ["http": 80, "https": 443][url.scheme.map(ASCII.lowercased) ?? ""]
        }
        return url.scheme.map(ASCII.lowercased) == other.scheme.map(ASCII.lowercased) && url.host().map(ASCII.lowercased) == other.host().map(ASCII.lowercased)
            && port(url) == port(other)
    }
}
