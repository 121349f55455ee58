// The HAR importer: any bytes either import or throw; every entry becomes a fixture or a reason
// it was skipped, and every imported fixture survives a round trip through the fixture writer.
import Foundation
import FuzzSupport
import SculptTesting

runFuzzer { input in
    guard let archive = try? HARArchive(json: input) else { return }
    require(archive.skipped.allSatisfy { !$0.reason.isEmpty }, "an entry was skipped without a reason")
    archive.fixtures.forEach(checkRoundTrip)
}
