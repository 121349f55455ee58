import ArgumentParser
import Foundation
import SculptShared
import HTTPTypes
import Sculpt
import SculptTesting

/// `sculpt record --target URL --out CASSETTE`: a recording proxy on 127.0.0.1 until Ctrl-C.
struct RecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a client's exchanges with a server through a proxy on 127.0.0.1.",
        discussion: """
            Point any client at the printed base URL instead of the target: each request is sent \
            to the same path on the target, the answer goes back to the client as it came, and \
            the exchange is added to the cassette with secrets redacted (Authorization, cookies, \
            tokens in URLs and JSON bodies). The cassette is written after every exchange, so it \
            is whole whenever the proxy stops. Redirects within the target come back through the \
            proxy and are recorded too. An existing cassette is added to; --replace starts anew.

            Examples:
              sculpt record --target https://api.github.com --out Tests/Fixtures/session.json
              sculpt record --target http://localhost:3000 --out api.json --port 9000 --redact-header X-Signature
            """
    )

    @Option(help: ArgumentHelp("The server to record: an http or https origin, such as https://api.github.com.", valueName: "url"))
    var target: String

    @Option(help: ArgumentHelp("The cassette file to write.", valueName: "cassette"))
    var out: String

    @Option(name: .shortAndLong, help: "The port to listen on. (default: a free port)")
    var port: UInt16 = 0

    @Flag(help: "Start the cassette anew instead of adding to an existing one.")
    var replace = false

    @OptionGroup var names: RedactionOptions

    @Flag(name: .shortAndLong, help: "Do not log each request.")
    var quiet = false

    func validate() throws {
        guard let url = URL(string: target), let scheme = url.scheme, scheme == "http" || scheme == "https", url.host() != nil,
            url.port.map({ (1...65_535).contains($0) }) ?? true,
            ["", "/"].contains(url.path(percentEncoded: true)), url.query() == nil, url.fragment() == nil, url.user() == nil
        else {
            throw ValidationError(
                "--target must be an http or https origin such as https://api.github.com (scheme in lowercase, port 1-65535, no path, query or user): \(Self.shown(target: target))")
        }
        let folder = URL(filePath: out).deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path(percentEncoded: false), isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--out \(PrintableText.value(out, limit: 1_024)): the folder \(PrintableText.value(folder.path(percentEncoded: false), limit: 1_024)) does not exist")
        }
        isFolder = false
        if FileManager.default.fileExists(atPath: out, isDirectory: &isFolder), isFolder.boolValue {
            throw ValidationError("--out \(PrintableText.value(out, limit: 1_024)) is a folder; give the cassette file's path")
        }
    }

    /// A refused `--target` as an error shows it: an http or https URL with its user, password and
    /// secret parameters redacted; anything else (`user:password@host` reads as a URL of scheme
    /// `user`) only by its length.
    static func shown(target: String) -> String {
        guard let scheme = URL(string: target)?.scheme.map(ASCII.lowercased), scheme == "http" || scheme == "https" else {
            return "(\(target.utf8.count) bytes)"
        }
        return PrintableText.value(SecretPolicy.default.redacting(urlText: target), limit: 1_024)
    }

    func run() async throws {
        let file = URL(filePath: out)
        if replace { try? FileManager.default.removeItem(at: file) }
        let redaction = names.redaction
        let log: (@Sendable (ServedRequest) -> Void)? = quiet ? nil : Console.log
        let proxy = try RecordingProxy(target: URL(string: target) ?? URL(filePath: "/"), cassette: file, redaction: redaction, onRequest: log)
        let earlier = await proxy.cassette.interactions.count
        let baseURL = try await proxy.start(port: port)
        Console.say("Recording \(target) through \(baseURL.absoluteString) into \(out)\(earlier > 0 ? ", after its \(earlier) interactions" : "")")
        Console.say("Press Ctrl-C to stop.")
        _ = await Termination.signal()
        await proxy.stop()
        let recorded = await proxy.cassette.interactions.count - earlier
        Console.say("Recorded \(recorded) interaction\(recorded == 1 ? "" : "s") into \(out).")
    }
}
