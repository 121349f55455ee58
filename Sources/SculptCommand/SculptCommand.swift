import ArgumentParser
import Foundation
import SculptShared

/// `sculpt`: recorded HTTP fixtures from the command line, for clients that are not Swift.
@main
struct SculptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sculpt",
        abstract: "Serve, record, import, check and compare recorded HTTP fixtures.",
        discussion: """
            Fixtures are the JSON files SculptTesting reads: one recorded request and response, or a \
            cassette of them. A simulator, a web page or another language's tests can use them \
            through these commands without a line of Swift.

            Examples:
              sculpt serve Tests/Fixtures/github --port 8080
              sculpt record --target https://api.github.com --out Tests/Fixtures/session.json
              sculpt import-har session.har --out Tests/Fixtures/imported
              sculpt check Tests/Fixtures/github
              sculpt diff Tests/Fixtures/github recorded-today
            """,
        version: "0.1.0",
        subcommands: [ServeCommand.self, RecordCommand.self, ImportHARCommand.self, CheckCommand.self, DiffCommand.self]
    )

    /// Runs the command the arguments name. Its errors, usage and help are written through
    /// ``Console``, as everything the command writes is: escaped, credentials masked.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty { Console.write(lines: message, toError: code != .success) }
            Foundation.exit(code.rawValue)
        }
    }
}
