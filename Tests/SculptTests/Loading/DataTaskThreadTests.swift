import Foundation
import SculptShared
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking

/// FoundationNetworking makes and resumes every session's tasks on one work queue, which a fast
/// transfer (an endless body over loopback) can hold for seconds. A load that waited for it on one
/// of Swift's few cooperative threads would stop the process's other async code meanwhile; loads
/// make their data tasks on a dispatch queue instead. (Holding that queue in a test would stop
/// every other test's requests too, so the test checks where the task is made.)
@Suite("Where loads wait for FoundationNetworking")
struct DataTaskThreadTests {
    @Test("a load's data task is made and resumed outside any Swift task")
    func madeOutsideSwiftTasks() async throws {
        let session = URLSession.refusingConnections()
        let request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:1/items")))
        let madeInTask = Locked<Bool?>(nil)
        _ = try? await session.cancellableData(for: request) { _ in
            madeInTask.withLock { $0 = withUnsafeCurrentTask { $0 != nil } }
        }
        #expect(madeInTask.withLock { $0 } == false)
    }
}
#endif
