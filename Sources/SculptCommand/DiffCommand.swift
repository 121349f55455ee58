import ArgumentParser
import Foundation
import SculptShared
import SculptTesting

/// `sculpt diff OLD NEW`: what an API changed between two recordings of it.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two recordings of an API and list what changed.",
        discussion: """
            Pairs the interactions of OLD and NEW by method and path and lists, for each pair, \
            the JSON members added, removed and changed in type (string to number, object to \
            array, null appearing), the statuses and content types that changed, and the \
            interactions only one side has. Bodies are compared by shape, not value: every body \
            recorded for a method and path, whatever its query, is merged. Exits 1 when a change \
            is breaking (a member removed or a type changed, or an interaction only OLD has), so re-recording in CI tells the \
            team what the API changed before the models fail; exits 0 otherwise, and 2 when a \
            recording cannot be read or holds no interaction (a re-recording that failed is not "no \
            change").

            OLD and NEW are fixture files, cassettes, HAR archives, or folders of them.

            Examples:
              sculpt diff Tests/Fixtures/github recorded-today
              sculpt diff before.har after.har
            """
    )

    @Argument(help: ArgumentHelp("The recording made first: a file or a folder.", valueName: "old"))
    var old: String

    @Argument(help: ArgumentHelp("The recording made since: a file or a folder.", valueName: "new"))
    var new: String

    func run() throws {
        let diff: RecordingDiff
        do {
            diff = try RecordingDiff(old: [Self.existing(old)], new: [Self.existing(new)])
        } catch {
            // Exit 1 means a breaking change: a recording that cannot be read is 2.
            Console.warn("error: \(PrintableText.value("\(error)", limit: 4_096))")
            throw ExitCode(2)
        }
        for change in diff.changes { Console.say(change.description) }
        let breaking = diff.changes.filter(\.isBreaking).count
        Console.say(diff.changes.isEmpty ? "No changes." : "\(diff.changes.count) change\(diff.changes.count == 1 ? "" : "s"), \(breaking) breaking.")
        if diff.isBreaking { throw ExitCode.failure }
    }

    /// `path` as a URL, when it exists.
    private static func existing(_ path: String) throws -> URL {
        guard FileManager.default.fileExists(atPath: path) else { throw FixtureFiles.Missing(path: path) }
        return URL(filePath: path)
    }
}
