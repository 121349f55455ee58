import Foundation
import Sculpt
import SculptStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Cases {
    /// SculptStore's response store on an SQLite file: what reading a saved response costs beside
    /// the decode it feeds (the target: the store adds at most twice the decode), and what saving
    /// costs the caller (the write is on the store's queue).
    static func storing() -> [Case] {
        [
            Case(name: "store: lastResponse + serializer, 1.2 KB user", baselineName: "serializer, same bytes and task", target: 3.0) {
                let setup = try LoadingSetup()
                let store = try StoreSetup.store()
                try setup.load(.networkOnly, store: store)
                return Sides(
                    sculpt: {
                        try LoadingSetup.wait {
                            guard let saved = try await store.lastResponse(for: setup.request) else { throw URLError(.resourceUnavailable) }
                            consume(try setup.serializer.serialize(saved.body, for: saved.response, as: GitHubUser.self))
                        }
                    },
                    baseline: { try setup.serializeInTask() })
            },
            Case(name: "load, networkOnly saving to the store", baselineName: "load, networkOnly without a store", target: 1.15) {
                let setup = try LoadingSetup()
                let store = try StoreSetup.store()
                return Sides(
                    sculpt: { try setup.load(.networkOnly, store: store) },
                    baseline: { try setup.load(.networkOnly) })
            },
        ]
    }
}

/// A response store in a new temporary file.
private enum StoreSetup {
    static func store() throws -> SQLiteResponseStore {
        let path = FileManager.default.temporaryDirectory.appending(path: "sculpt-bench-\(UUID().uuidString).sqlite").path
        return try SQLiteResponseStore(path: path)
    }
}
