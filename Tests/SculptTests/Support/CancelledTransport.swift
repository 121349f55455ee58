import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `URLProtocol` that ends every request with `URLError(.cancelled)` though nobody cancelled it:
/// what FoundationNetworking gives a request that timed out while a session delegate was asked
/// about its redirect.
final class CancelledTransport: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        client?.urlProtocol(self, didFailWithError: URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any]))
    }

    override func stopLoading() {}
}
