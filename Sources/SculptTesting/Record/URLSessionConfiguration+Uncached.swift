import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLSessionConfiguration {
    /// A copy of this configuration with no URL cache, for a session of Sculpt's own: a recording
    /// or a replay holds what the server answered, never a stored copy, and FoundationNetworking
    /// cancels a given-up request only on a session without a cache. The caller's configuration is
    /// left as it was.
    var uncachedCopy: URLSessionConfiguration {
        let copy = self.copy() as? URLSessionConfiguration ?? .ephemeral
        copy.urlCache = nil
        return copy
    }
}
