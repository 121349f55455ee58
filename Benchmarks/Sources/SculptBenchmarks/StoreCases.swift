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
            Case(name: "store: lastResponse from the file + serializer, 1.2 KB user", baselineName: "serializer, same bytes and task", target: 3.0) {
                let setup = try LoadingSetup()
                let store = try StoreSetup.store()
                try setup.load(.networkOnly, store: store)
                guard let saved = try LoadingSetup.wait({ try await store.lastResponse(for: setup.request) }), let url = setup.request.url else {
                    throw URLError(.resourceUnavailable)
                }
                // More saved requests than the store keeps in memory, read in turn: every read is SQLite's.
                let requests = (0..<StoreSetup.beyondMemory).map { page in
                    var request = setup.request  // its headers too: the user's response varies on some
                    request.url = url.appending(queryItems: [URLQueryItem(name: "page", value: "\(page)")])
                    return request
                }
                for request in requests { store.save(saved, for: request) }
                _ = try LoadingSetup.wait { try await store.count() }
                var next = 0
                return Sides(
                    sculpt: {
                        let request = requests[next % requests.count]
                        next += 1
                        try LoadingSetup.wait {
                            guard let saved = try await store.lastResponse(for: request) else { throw URLError(.resourceUnavailable) }
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
    /// More requests than the store's memory holds (256).
    static let beyondMemory = 1024

    static func store() throws -> SQLiteResponseStore {
        let path = FileManager.default.temporaryDirectory.appending(path: "sculpt-bench-\(UUID().uuidString).sqlite").path
        return try SQLiteResponseStore(path: path)
    }
}
