import Foundation
import SculptTesting

extension Cases {
    /// `sculpt check`'s scan of the package's recorded fixtures (every `.json` and `.har` under
    /// `Tests/Fixtures`: GitHub, Stack Exchange, Stripe, HAR exports) beside parsing the same
    /// files, which the scan does first. The time per operation is for all the files: their
    /// size over it is the scan's rate.
    static func checking() throws -> [Case] {
        let files = try fixtureFiles()
        let megabytes = Double(files.reduce(0) { $0 + $1.count }) / 1_000_000
        return [
            Case(name: String(format: "check's scan, %.1f MB of recorded fixtures", megabytes), baselineName: "JSONSerialization, same files", target: nil) {
                Sides(
                    sculpt: { for file in files { consume(SecretScan.findings(inJSON: file)) } },
                    baseline: { for file in files { consume(try? JSONSerialization.jsonObject(with: file, options: [.fragmentsAllowed])) } })
            }
        ]
    }

    /// Every fixture file under `Tests/Fixtures`, read once.
    private static func fixtureFiles() throws -> [Data] {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Tests/Fixtures")
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [Data] = []
        while let file = enumerator?.nextObject() as? URL {
            guard ["json", "har"].contains(file.pathExtension) else { continue }
            files.append(try Data(contentsOf: file))
        }
        return files
    }
}
