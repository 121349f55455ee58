import Foundation
import SculptShared

/// Answers a request a connection has read: what an ``HTTPListener`` serves with, a fixture
/// replay (``FixtureResponder``) or a recording proxy (``ProxyResponder``).
protocol HTTPResponder: Sendable {
    /// The response to `head` and its body (`nil` when the body was not kept). Called on the
    /// connection's own thread, which may block until the answer is known.
    func respond(to head: HTTPRequestHead, body: Data?) -> ServerResponse
}
