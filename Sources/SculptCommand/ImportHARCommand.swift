import ArgumentParser
import Foundation
import SculptShared
import SculptTesting

/// `sculpt import-har FILE --out DIR`: a HAR archive's entries as readable fixture files.
struct ImportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-har",
        abstract: "Write a HAR archive's entries as fixture files.",
        discussion: """
            Reads a HAR 1.2 archive (what browsers, Charles, Proxyman, mitmproxy and Playwright \
            export) and writes one fixture per entry, named for its method and path \
            (get-users-octocat.json), bodies decoded and readable. Secrets are redacted unless \
            --unredacted is given: Authorization, cookies, tokens in URLs and in JSON and form \
            bodies. Entries that cannot be fixtures (aborted requests, corrupt bodies) are \
            listed with the reason. Existing files are not overwritten unless --force is given.

            Examples:
              sculpt import-har session.har --out Tests/Fixtures/session
              sculpt import-har session.har --out Tests/Fixtures/session --cassette
            """
    )

    @Argument(help: ArgumentHelp("The HAR archive.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The folder to write the fixtures to (made if missing).", valueName: "dir"))
    var out: String

    @Flag(help: "Write one cassette, <dir>/<archive name>.json, instead of one file per entry.")
    var cassette = false

    @Flag(help: "Keep secrets as the archive has them. Never share what this writes.")
    var unredacted = false

    @Flag(help: "Overwrite files that already exist.")
    var force = false

    func run() throws {
        // Read as the archive has it, so that each file is named with its request's own secret
        // values known (and hidden); then redacted unless asked not to be.
        let archive = try HARArchive(contentsOf: URL(filePath: file), redaction: .disabled)
        let redaction = unredacted ? Redaction.disabled : Redaction()
        let fixtures = archive.fixtures.map(redaction.redacting)
        let folder = URL(filePath: out, directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outputs: [(name: String, data: Data)] =
            cassette
            ? [(URL(filePath: file).deletingPathExtension().lastPathComponent + ".json", Cassette(fixtures).encoded())]
            : zip(FixtureNames.unique(for: archive.fixtures), fixtures).map { ($0, $1.encoded()) }
        if !force {
            let existing = outputs.map(\.name).filter { FileManager.default.fileExists(atPath: folder.appending(path: $0).path(percentEncoded: false)) }
            guard existing.isEmpty else {
                throw ValidationError("\(out) already has \(existing.prefix(3).joined(separator: ", "))\(existing.count > 3 ? " and \(existing.count - 3) more" : ""); --force overwrites")
            }
        }
        for output in outputs {
            try output.data.write(to: folder.appending(path: output.name), options: .atomic)
        }
        let what = cassette ? "a cassette of \(fixtures.count) interactions" : "\(outputs.count) fixture\(outputs.count == 1 ? "" : "s")"
        Console.say("Wrote \(what) to \(out)\(unredacted ? " (unredacted)" : ", secrets redacted").")
        if !archive.skipped.isEmpty {
            Console.say("Skipped \(archive.skipped.count) entr\(archive.skipped.count == 1 ? "y" : "ies"):")
            for skipped in archive.skipped { Console.say("  \(skipped)") }
        }
    }
}
