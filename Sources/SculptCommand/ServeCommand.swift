import ArgumentParser
import Foundation
import SculptShared
import Sculpt
import SculptTesting

/// `sculpt serve PATH...`: a fixture server on 127.0.0.1 until Ctrl-C.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve fixture files, cassettes or HAR archives on 127.0.0.1.",
        discussion: """
            Answers each request with the recorded interaction that matches its method, path and \
            query (query order aside), whatever host the recording was made against; anything \
            else gets a 404 that says what was nearest. Prints its base URL, then one line per \
            request; stops on Ctrl-C or SIGTERM.

            Examples:
              sculpt serve Tests/Fixtures/github
              sculpt serve --port 8080 --once session.json archive.har
            """
    )

    @Argument(help: ArgumentHelp("Fixture files, cassettes, HAR archives, or folders of them (.json and .har, at any depth).", valueName: "path"))
    var paths: [String]

    @Option(name: .shortAndLong, help: "The port to listen on. (default: a free port)")
    var port: UInt16 = 0

    @Flag(help: "Answer with each interaction once, in order, as a test replay does. (default: the last answer to a request repeats)")
    var once = false

    @Flag(help: "Match request bodies too (JSON compared by value, forms by field).")
    var matchBody = false

    @Flag(name: .shortAndLong, help: "Do not log each request.")
    var quiet = false

    func run() async throws {
        var fixtures: [Fixture] = []
        let files = try FixtureFiles.expanding(paths)
        for file in files {
            let (found, skipped) = try FixtureFolder.interactions(in: file)
            fixtures += found
            for reason in skipped { Console.warn("\(PrintableText.value(file.path(percentEncoded: false), limit: 1_024)): skipped \(reason)") }
        }
        guard !fixtures.isEmpty else { throw ValidationError("no interactions found in \(PrintableText.value(paths.joined(separator: ", "), limit: 4_096))") }
        let replay = FixtureReplay(fixtures, options: .init(matchesBody: matchBody, repeatsLastResponse: !once))
        let log: (@Sendable (ServedRequest) -> Void)? = quiet ? nil : Console.log
        let server = FixtureServer(replay: replay, onRequest: log)
        let baseURL = try await server.start(port: port)
        Console.say("Serving \(fixtures.count) interaction\(fixtures.count == 1 ? "" : "s") from \(files.count) file\(files.count == 1 ? "" : "s") at \(baseURL.absoluteString)")
        Console.say("Press Ctrl-C to stop.")
        _ = await Termination.signal()
        await server.stop()
        Console.say("Stopped.")
    }
}
