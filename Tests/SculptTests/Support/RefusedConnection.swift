import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLProtocol` that answers every request as a host with nothing listening does: the
/// session's `URLError(.cannotConnectToHost)`.
///
/// A test that needs a URL it used a moment ago to be unreachable uses it, not a stopped server:
/// the port a stopped server gives back can be taken at once by a server another test starts,
/// which then answers (and sees) the request.
///
/// It keeps every URL the loading system asks it about (``wasAsked(for:)``): a session asks for
/// each task it starts or cancels, before the task completes, so a URL it was never asked about
/// was never sent.
final class RefusedConnection: URLProtocol {
    private static let asked = Locked<Set<URL>>([])

    /// Whether a session asked about a request for `url`.
    static func wasAsked(for url: URL) -> Bool {
        asked.withLock { $0.contains(url) }
    }

    override class func canInit(with request: URLRequest) -> Bool {
        if let url = request.url { _ = asked.withLock { $0.insert(url) } }
        return true
    }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let refused = URLError(.cannotConnectToHost, userInfo: [
            NSURLErrorFailingURLErrorKey: request.url as Any,
            NSLocalizedDescriptionKey: "Could not connect to the server.",
        ])
        client?.urlProtocol(self, didFailWithError: refused)
    }

    override func stopLoading() {}
}

extension URLSession {
    /// A session like ``URLSessionConfiguration/unhurried``'s whose every connection is refused
    /// (``RefusedConnection``).
    static func refusingConnections() -> URLSession {
        let configuration = URLSessionConfiguration.unhurried
        configuration.protocolClasses = [RefusedConnection.self]
        return URLSession(configuration: configuration)
    }
}
