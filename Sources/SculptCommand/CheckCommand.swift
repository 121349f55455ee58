import ArgumentParser
import Foundation
import SculptShared
import Sculpt
import SculptTesting

/// `sculpt check PATH...`: every fixture loads, and none holds what looks like a live secret.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that fixtures load and hold no live secrets.",
        discussion: """
            Loads every fixture file, cassette and HAR archive, reporting format errors with file \
            and line, then looks through every value for what redaction may have missed: known \
            credential shapes (ghp_, github_pat_, xoxb-, sk_live_, AKIA, AIza, JWTs, private \
            keys), values left unredacted under the names `record` redacts (with the same \
            --redact-* names added), random-looking values named as secrets (token, password, \
            X-Api-Key, session), and long random-looking values anywhere. A secret is never \
            printed whole. Exits 1 when anything is found, so it can guard a commit or a CI run.

            Examples:
              sculpt check Tests/Fixtures/github
              sculpt check session.json archive.har --redact-header X-Team-Key
            """
    )

    @Argument(help: ArgumentHelp("Fixture files, cassettes, HAR archives, or folders of them (.json and .har, at any depth).", valueName: "path"))
    var paths: [String]

    @OptionGroup var names: RedactionOptions

    func run() throws {
        let files = try FixtureFiles.expanding(paths)
        var errors = 0
        var secrets = 0
        let redaction = names.redaction
        for file in files {
            let name = PrintableText.value(file.path(percentEncoded: false), limit: 1_024)
            let data: Data
            do {
                // A FIFO or a device would be read forever: only a regular file is opened.
                if FileManager.default.fileExists(atPath: file.path(percentEncoded: false)),
                    (try? file.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == false
                {
                    throw RecordingFileError(path: file.path(percentEncoded: false), reason: "not a regular file")
                }
                data = try Data(contentsOf: file)
            } catch {
                errors += 1
                Console.say("\(name): error: \(PrintableText.value(FixtureFolder.unreadable(file, error), limit: 4_096))")
                continue
            }
            do {
                _ = try FixtureFolder.interactions(in: file)
            } catch let error as Fixture.FormatError {
                errors += 1
                Console.say("\(name):\(error.line.map { "\($0):" } ?? "") error: \(PrintableText.value(error.reason, limit: 4_096))")
            } catch {
                errors += 1
                Console.say("\(name): error: \(PrintableText.value(error.localizedDescription, limit: 4_096))")
            }
            // A file that is not a fixture is still looked through: it may be on its way to one.
            // Each value once, where it first appears, with how many other places hold it.
            let findings = SecretScan.findings(inJSON: data, redaction: redaction)
            // A value is known by what it looks like and where it is written (a body's findings
            // share the body as where).
            func identity(_ finding: SecretScan.Finding) -> String { "\(finding.kind)\u{0}\(finding.shown)\u{0}\(finding.needle)" }
            var places: [String: Int] = [:]
            for finding in findings { places[identity(finding), default: 0] += 1 }
            var lines = LineFinder(data)
            var reported: Set<String> = []
            for finding in findings where reported.insert(identity(finding)).inserted {
                secrets += 1
                let line = lines.line(of: finding.needle).map { "\($0):" } ?? ""
                let others = (places[identity(finding)] ?? 1) - 1
                let elsewhere = others > 0 ? " (and \(others) more place\(others == 1 ? "" : "s"))" : ""
                Console.say("\(name):\(line) secret: \(finding.path) looks like \(finding.kind): \(finding.shown)\(elsewhere)")
            }
        }
        let summary = "Checked \(files.count) file\(files.count == 1 ? "" : "s"): \(errors) format error\(errors == 1 ? "" : "s"), \(secrets) possible secret\(secrets == 1 ? "" : "s")."
        Console.say(summary)
        if errors + secrets > 0 { throw ExitCode.failure }
    }
}
