import Foundation
import SculptTesting

/// The package's recorded GitHub interactions (`Tests/Fixtures/github`).
enum GitHubFixtures {
    static func load(_ name: String) throws -> Fixture {
        try Fixture(contentsOf: Paths.fixtures.appending(path: "github/\(name).json"))
    }

    static func all() throws -> [Fixture] {
        let folder = Paths.fixtures.appending(path: "github")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
            .map { try Fixture(contentsOf: $0) }
    }
}
