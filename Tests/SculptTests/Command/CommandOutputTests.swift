import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What every subcommand prints: credentials never whole, whatever field they sit in, and every
/// control character escaped, whether it comes from a file's name, a value or an argument.
@Suite("sculpt's output: no secret shown, nothing raw", .timeLimit(.minutes(10)))
struct CommandOutputTests {
    static let token = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"
    static let randomToken = "q8W3eR5tY7uI9oP1aS3dF5gH7jK9lZ2x"

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-output-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("a secret in a malformed field is never printed by check or serve", arguments: [
        // An Authorization value pasted where the method goes: not a method (it has a space).
        ("Bearer \(token)", token), ("Bearer \(randomToken)", randomToken),
        // A short one, as a pair.
        ("pw=hunter2", "hunter2"),
    ])
    func secretInMalformedField(_ value: String, _ secret: String) async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "broken.json")
        try Data(#"{"request":{"url":"https://x/","method":"\#(value)"},"response":{"status":200}}"#.utf8).write(to: file)
        let check = try await CommandProcess.run(["check", file.path(percentEncoded: false)])
        #expect(check.status == 1)
        #expect(check.output.contains("request.method a value of \(value.utf8.count) bytes is not a method"), "\(check.output)")
        let serve = try await CommandProcess.run(["serve", file.path(percentEncoded: false)])
        #expect(serve.status != 0)
        #expect(serve.errors.contains("is not a method"), "\(serve.errors)")
        for output in [check.output, check.errors, serve.output, serve.errors] {
            #expect(!output.contains(secret), "printed whole: \(output)")
        }
    }

    @Test("a refused --target is printed without its credentials", arguments: [
        "https://alice:\(token)@api.example.com", "https://api.example.com/?access_token=\(randomToken)", "https://api.example.com/?key=\(randomToken)",
        "\(token)", "user:\(randomToken)@api.example.com", "localhost:\(randomToken)@h", "HTTPS://alice:\(randomToken)@h",
    ])
    func refusedTarget(_ target: String) async throws {
        let (status, output, errors) = try await CommandProcess.run(["record", "--target", target, "--out", "/tmp/never.json"])
        #expect(status == 64)
        #expect(errors.contains("--target must be an http or https origin"), "\(errors)")
        #expect(!errors.contains(Self.token) && !errors.contains(Self.randomToken), "\(errors)")
        #expect(!output.contains(Self.token) && !output.contains(Self.randomToken))
    }

    @Test("a token inside a longer word or percent-encoded is masked in what the command prints", arguments: [
        "a%3D\(token)", "Bearer%20\(token)", "x\(token)", "9\(token)", "_\(token)",
    ])
    func maskedInsideWords(_ path: String) async throws {
        let (status, _, errors) = try await CommandProcess.run(["check", "/no/such/\(path)"])
        #expect(status != 0)
        #expect(errors.contains("no such file or folder"), "\(errors)")
        #expect(!errors.contains(Self.token), "\(errors)")
    }

    @Test("control characters in a file's name are printed escaped by serve, check and import-har")
    func fileNames() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J"
        let good = folder.appending(path: "good")
        let bad = folder.appending(path: "bad")
        try FileManager.default.createDirectory(at: good, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: bad, withIntermediateDirectories: true)
        try Data(#"{"request":{"url":"https://x/items"},"response":{"status":200,"body":{}}}"#.utf8).write(to: good.appending(path: "good\(hostile).json"))
        // An archive whose second entry never completed: serve names the file as it skips it.
        let entry = #"{"request":{"method":"GET","url":"https://x/items","headers":[]},"response":{"status":%d,"headers":[],"content":{"text":"{}"}}}"#
        let archive = #"{"log":{"entries":[\#(String(format: entry, 200)),\#(String(format: entry, 0))]}}"#
        try Data(archive.utf8).write(to: good.appending(path: "partial\(hostile).har"))
        let broken = bad.appending(path: "bad\(hostile).har")
        try Data("{".utf8).write(to: broken)

        let check = try await CommandProcess.run(["check", bad.path(percentEncoded: false)])
        let importing = try await CommandProcess.run(["import-har", broken.path(percentEncoded: false), "--out", folder.appending(path: "out").path(percentEncoded: false)])
        let refused = try await CommandProcess.run(["serve", bad.path(percentEncoded: false)])
        // The good fixture is named in a request's log line.
        let serving = try CommandProcess(["serve", good.path(percentEncoded: false)])
        let base = try await ServeCommandTests.baseURL(of: serving, after: "Serving").appending(path: "items")
        _ = try? await URLSession(configuration: .unhurried).data(from: base)
        let logged = try await serving.line(containing: "GET /items")
        serving.send(SIGTERM)
        _ = await serving.exit()
        #expect(logged.contains(#"matched good\u{1B}]0;owned\u{7}\u{1B}[2J.json"#) || logged.contains(#"matched partial\u{1B}]0;owned\u{7}\u{1B}[2J.har"#), "\(logged)")
        #expect(serving.standardError.contains(#"partial\u{1B}]0;owned\u{7}\u{1B}[2J.har: skipped"#), "\(serving.standardError)")
        for output in [check.output, check.errors, importing.output, importing.errors, refused.output, refused.errors, serving.standardOutput, serving.standardError] {
            #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "a raw control character is printed: \(output.debugDescription)")
        }
        #expect(refused.errors.contains(#"bad\u{1B}]0;owned\u{7}\u{1B}[2J.har"#), "\(refused.errors)")
        #expect(check.output.contains(#"bad\u{1B}]0;owned\u{7}\u{1B}[2J.har"#), "\(check.output)")
    }
}
