import Foundation
import HTTPTypes
import SculptTesting
import Testing

@Suite("sculpt check", .timeLimit(.minutes(10)))
struct CheckCommandTests {
    /// A temporary folder holding one fixture whose response body is `body`.
    static func fixtureFolder(body: String, requestHeaders: String = "[]", url: String = "https://api.example.com/x") throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-check-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = """
            {
              "request": {"method": "GET", "url": "\(url)", "headers": \(requestHeaders)},
              "response": {
                "status": 200,
                "headers": [["Content-Type", "application/json"]],
                "body": \(body)
              }
            }
            """
        try Data(text.utf8).write(to: folder.appending(path: "fixture.json"))
        return folder
    }

    @Test("the package's own fixtures load and hold nothing that looks like a secret")
    func packageFixtures() async throws {
        let (status, output, _) = try await CommandProcess.run(["check", "Tests/Fixtures/github", "Tests/Fixtures/cassettes", "Tests/Fixtures/xml"])
        #expect(output.hasSuffix("0 format errors, 0 possible secrets.\n"), "\(output)")
        #expect(output.contains("Checked 16 files"))
        #expect(status == 0)
    }

    @Test("a live secret is reported with file, line and kind, never whole, and the exit is 1", arguments: [
        (#"{"token": "ghp_Abcdefghijklmnopqrstuvwxyz0123456789"}"#, "a GitHub token", "ghp_Abcdefghijklmnopqrstuvwxyz0123456789"),
        (#"{"note": "github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ012345678"}"#, "a GitHub fine-grained token", "github_pat_11ABCDEFG0abcdefghijkl"),
        (#"{"bot": "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"}"#, "a Slack token", "xoxb-123456789012-1234567890123"),
        (#"{"key": "sk_live_51HqLyjWDarjtT1zdp7dcXWf3"}"#, "a live Stripe key", "sk_live_51HqLyjWDarjtT1zdp7dcXWf3"),
        (#"{"aws": "AKIAIOSFODNN7EXAMPL3"}"#, "an AWS access key ID", "AKIAIOSFODNN7EXAMPL3"),
        (#"{"maps": "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"}"#, "a Google API key", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"),
        (#"{"id_token": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"}"#, "a JWT", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIx"),
        (#"{"pem": "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----"}"#, "a private key", "MIIEpAIBAAKCAQEA"),
        (#"{"api_secret": "q8Rz2LmX9vKp4TnW7yBc"}"#, #"an unredacted "api_secret""#, "q8Rz2LmX9vKp4TnW7yBc"),
        (#""see https://h.example/cb?session_id=Zx81Kq2Lp9Vm3Rt7Wb4N""#, #"an unredacted "session_id""#, "Zx81Kq2Lp9Vm3Rt7Wb4N"),
        (#"{"password": "hunter2"}"#, #"an unredacted "password""#, "hunter2"),
        (#""https://h.example/a?page=2&access_token=Zx81Kq2Lp9""#, #"an unredacted "access_token""#, "Zx81Kq2Lp9"),
        (#""https://h.example/a?page=2&access%5Ftoken=Zx81Kq2Lp9""#, #"an unredacted "access_token""#, "Zx81Kq2Lp9"),
        (#""page=2 the key is q8W3eR5tY7uI9oP1aS3dF5gH7jK9lZ2xC4vB6nM8""#, "a long random value", "q8W3eR5tY7uI9oP1aS3dF5gH7jK9lZ2xC4vB6nM8"),
        (#"{"DD-API-KEY": "4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"}"#, #"an unredacted "DD-API-KEY""#, "4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"),
        (#"{"DD-API-KEY-ID": "4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"}"#, #"a random value named "DD-API-KEY-ID""#, "4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c"),
        (#""https://alice:Sup3rS3cretPassw0rd@db.example.com/""#, "a password in a URL", "Sup3rS3cretPassw0rd"),
        (#"{"key": "-----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBF0\n-----END PGP PRIVATE KEY BLOCK-----"}"#, "a private key", "lQOYBF0"),
        (#"{"blob": "Qm9vbGVhbjEyMzQ1Njc4OTAhQCMkJV4mKigpXysrJ8aZ3kP7wL"}"#, "a long random value", "Qm9vbGVhbjEyMzQ1Njc4OTAhQCMk"),
    ])
    func secret(_ body: String, _ kind: String, _ secretPart: String) async throws {
        let folder = try Self.fixtureFolder(body: body)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, _) = try await CommandProcess.run(["check", folder.path(percentEncoded: false)])
        #expect(status == 1)
        #expect(output.contains("fixture.json:6: secret: "), "\(output)")
        #expect(output.contains("looks like \(kind): "), "\(output)")
        #expect(output.contains("1 possible secret."))
        #expect(!output.contains(secretPart), "the secret is printed: \(output)")
    }

    @Test("a secret in a request header is reported under the header's name", arguments: [
        #"[["X-Api-Key", "a8Kd93LmQz02PxW7vN4r"]]"#, #"[["Authorization", "Bearer a8Kd93LmQz02PxW7vN4rT6yU"]]"#,
    ])
    func headerSecret(_ headers: String) async throws {
        let folder = try Self.fixtureFolder(body: "{}", requestHeaders: headers)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, _) = try await CommandProcess.run(["check", folder.path(percentEncoded: false)])
        #expect(status == 1)
        #expect(output.contains("fixture.json:2: secret: request.headers[0][1] looks like an unredacted "), "\(output)")
    }

    /// Runs `sculpt check` on a folder holding one file named `name` with `text`.
    static func check(file name: String, _ text: String) async throws -> (status: Int32, output: String) {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-check-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(text.utf8).write(to: folder.appending(path: name))
        let (status, output, _) = try await CommandProcess.run(["check", folder.path(percentEncoded: false)])
        return (status, output)
    }

    /// A base64 text of `data`.
    static func base64(_ data: Data) -> String { data.base64EncodedString() }

    @Test("a token is found wherever a client would read it: a base64 HAR body, a gzip body in base64, a form's key, a percent-encoded query or form, a number JSONSerialization refuses, a repeated member, a member's name", arguments: [
        ("b64.har", #"{"log":{"entries":[{"request":{"method":"GET","url":"https://x/","headers":[]},"response":{"status":200,"headers":[],"content":{"encoding":"base64","text":"eyJ0b2tlbiI6ImdocF9hQjNkRTVmRzdoSjlrTDFtTjNwUTVyUzd0VTl2VzF4WTN6In0="}}}]}}"#),
        ("exp.json", #"{"request":{"url":"https://x/"},"response":{"status":200,"headers":[["X-T","ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"]],"body":{"n":1e999}}}"#),
        ("dup.json", #"{"request":{"url":"https://x/"},"response":{"status":200,"body":"ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z","body":"ok"}}"#),
        ("key.json", #"{"request":{"url":"https://x/"},"response":{"status":200,"body":{"ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z":{"v":1}}}}"#),
        ("gzip.json", #"{"request":{"url":"https://x/"},"response":{"status":200,"headers":[["Content-Encoding","gzip"]],"bodyEncoding":"base64","body":"\#(base64(GzipData.member(#"{"token":"ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"}"#)))"}}"#),
        ("gzip.har", #"{"log":{"entries":[{"request":{"method":"GET","url":"https://x/","headers":[]},"response":{"status":200,"headers":[{"name":"Content-Encoding","value":"gzip"}],"content":{"encoding":"base64","text":"\#(base64(GzipData.member("see ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z")))"}}}]}}"#),
        ("query.json", #"{"request":{"url":"https://x/cb?t=ghp%5FaB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"},"response":{"status":200}}"#),
        ("form.json", #"{"request":{"method":"POST","url":"https://x/","headers":[["Content-Type","application/x-www-form-urlencoded"]],"bodyEncoding":"text","body":"a=1&t=ghp%5FaB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"},"response":{"status":200}}"#),
    ])
    func tokenWhereAClientReads(_ name: String, _ text: String) async throws {
        let (status, output) = try await Self.check(file: name, text)
        #expect(status == 1)
        #expect(output.contains("looks like a GitHub token: ghp_… (38 characters)"), "\(output)")
        #expect(!output.contains("aB3dE5fG7hJ9"), "the token is printed: \(output)")
    }

    @Test("a file in a folder whose name is not valid UTF-8, or a link to nothing, is reported and fails the check, never passed over")
    func unreadableNames() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-check-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The name's bytes as the file system keeps them: "x", 0xFF, ".json".
        let name = Array(folder.path(percentEncoded: false).utf8) + [UInt8(ascii: "/"), UInt8(ascii: "x"), 0xFF] + Array(".json".utf8)
        let text = Array(#"{"request":{"url":"https://x/"},"response":{"status":200,"body":{"token":"ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"}}}"#.utf8)
        let descriptor = (name.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { open($0.baseAddress!, O_CREAT | O_WRONLY, 0o644) }
        try #require(descriptor >= 0)
        #expect(text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } == text.count)
        close(descriptor)
        try FileManager.default.createSymbolicLink(atPath: folder.appending(path: "dangling.json").path(percentEncoded: false), withDestinationPath: "/nonexistent/x.json")
        let (status, output, _) = try await CommandProcess.run(["check", folder.path(percentEncoded: false)])
        #expect(status == 1)
        #expect(output.contains("dangling.json: error: cannot be opened by this name"), "\(output)")
        #expect(output.contains("Checked 2 files: 2 format errors"), "\(output)")
    }

    @Test("a folder's hidden files and links to files are checked; names and reasons are printed escaped and bounded")
    func filesAndPrinting() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-check-\(UUID())")
        let real = FileManager.default.temporaryDirectory.appending(path: "sculpt-check-real-\(UUID()).json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: real)
        }
        let fixture = #"{"request":{"url":"https://x/","method":"\u001b[2J\#(String(repeating: "A", count: 100_000))"},"response":{"status":200}}"#
        try Data(fixture.utf8).write(to: real)
        try FileManager.default.createSymbolicLink(at: folder.appending(path: "link.json"), withDestinationURL: real)
        try Data(#"{"request":{"url":"https://x/"},"response":{"status":200}}"#.utf8).write(to: folder.appending(path: ".hidden.json"))
        let (status, output, _) = try await CommandProcess.run(["check", folder.path(percentEncoded: false)])
        #expect(status == 1)
        #expect(output.hasSuffix("Checked 2 files: 1 format error, 0 possible secrets.\n"), "\(output.suffix(300))")
        #expect(!output.contains("\u{1B}"), "a raw escape byte is printed")
        #expect(output.utf8.count < 10_000, "the reason is bounded: \(output.utf8.count) bytes")
    }

    @Test("identifiers, digests, redacted values and prose are not secrets", arguments: [
        #"{"sha": "6dcb09b5b57875f334f61aebed695e2e4193db5e"}"#,
        #"{"etag": "W/\"a8f5f167f44f4964e6c998dee827110c\""}"#,
        #"{"uuid": "123e4567-e89b-12d3-a456-426614174000"}"#,
        #"{"node_id": "MDEyOk9yZ2FuaXphdGlvbjM5MjQ3MTA3", "other": "MDEyOk9yZ2FuaXphdGlvbjM5MjQ3MTA3"}"#,
        #"{"id": "cus_NffrFeUfNV2Hib8aXc1kQz7Lp", "payment": "pi_3MtwBwLkdIwHu7ix28a3tqPa"}"#,
        #"{"access_token": "REDACTED", "token_type": "bearer", "token_url": "https://oauth2.example.com/token"}"#,
        #"{"avatar_url": "https://avatars.githubusercontent.com/u/583231?v=4", "gravatar_id": ""}"#,
        #"{"text": "Use a token such as ghp_... from your settings; never sk_live_ keys."}"#,
        // Placeholders, as recorded test fixtures write them (Octokit's `token 000...01`).
        #"{"authorization": "token 0000000000000000000000000000000000000001", "example": "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#,
        #"{"region": "ASIAPACIFICSOUTHEAST2024"}"#,
    ])
    func notSecrets(_ body: String) async throws {
        let folder = try Self.fixtureFolder(body: body)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, _) = try await CommandProcess.run(["check", folder.path(percentEncoded: false)])
        #expect(output.contains("0 possible secrets."), "\(output)")
        #expect(status == 0)
    }

    @Test("a cassette of 2,000 leaked tokens reports each once, on its own line")
    func manySecrets() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-check-many-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = { (index: Int) in "ghp_" + String(String(index * 7_919 + 1_000_003, radix: 36).reversed()) + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC2eF4hJ6k" }
        var fixtures: [Fixture] = []
        for index in 0..<2_000 {
            fixtures.append(Fixture(
                request: .init(url: try #require(URL(string: "https://api.example.com/x/\(index)")), headerFields: [HTTPField.Name("X-Thing")!: token(index)]),
                response: .init(status: .ok)))
        }
        let file = folder.appending(path: "cassette.json")
        try Cassette(fixtures).encoded().write(to: file)
        let (status, output, _) = try await CommandProcess.run(["check", file.path(percentEncoded: false)])
        #expect(status == 1)
        let lines = output.split(separator: "\n")
        #expect(lines.count == 2_001)
        #expect(lines.last == "Checked 1 file: 0 format errors, 2000 possible secrets.")
        // Each finding's line holds its token: the last interaction's is the last one's.
        let text = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let last = try #require(lines.dropLast().last)
        let number = try #require(Int(last.split(separator: ":")[1]))
        #expect(text[number - 1].contains(token(1_999)), "\(last)")
        #expect(!output.contains(token(1_999)))
    }

    @Test("a format error names the file and line, and the exit is 1")
    func formatError() async throws {
        let folder = try Self.fixtureFolder(body: #""ok", "bodyEncoding": "base64""#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, output, _) = try await CommandProcess.run(["check", folder.path(percentEncoded: false)])
        #expect(status == 1)
        #expect(output.contains("fixture.json:6: error: response.body is not valid base64"), "\(output)")
        #expect(output.contains("1 format error, 0 possible secrets."))
    }

    @Test("a path that does not exist is an error that names it")
    func missingPath() async throws {
        let (status, _, errors) = try await CommandProcess.run(["check", "no/such/folder"])
        #expect(status != 0)
        #expect(errors.contains("no/such/folder: no such file or folder"), "\(errors)")
    }

    @Test("a team's own secret name, given as record gives it, is looked for; unredacted under it, a value is a finding")
    func teamNames() async throws {
        let folder = try Self.fixtureFolder(body: #"{"teamPin": "short-and-plain"}"#)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (plainStatus, plain, _) = try await CommandProcess.run(["check", folder.path(percentEncoded: false)])
        #expect(plainStatus == 0, "\(plain)")
        let (status, output, _) = try await CommandProcess.run(["check", folder.path(percentEncoded: false), "--redact-field", "team_pin"])
        #expect(status == 1)
        #expect(output.contains("teamPin"), "\(output)")
        #expect(!output.contains("short-and-plain"), "\(output)")
    }

    @Test("a --redact-header that is no header name is refused, the value quoted", arguments: ["", "Bad Name"])
    func badHeaderName(_ name: String) async throws {
        let (status, _, errors) = try await CommandProcess.run(["check", "Tests/Fixtures/github", "--redact-header", name])
        #expect(status != 0)
        #expect(errors.contains("--redact-header \"\(name)\" is not a header name"), "\(errors)")
    }

    @Test("a private key in a form body is found")
    func privateKeyInAForm() async throws {
        let form = "grant=jwt&key=-----BEGIN+PRIVATE+KEY-----%0AMIIEvQIBADANBgkqhkiG9w0BAQEFAASC%0A-----END+PRIVATE+KEY-----"
        let text = #"{"request":{"method":"POST","url":"https://x/token","headers":[["Content-Type","application/x-www-form-urlencoded"]],"bodyEncoding":"text","body":"\#(form)"},"response":{"status":200}}"#
        let (status, output) = try await Self.check(file: "form.json", text)
        #expect(status == 1)
        #expect(output.contains("looks like a private key"), "\(output)")
        #expect(!output.contains("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"), "the key is printed: \(output)")
    }

    @Test("a megabyte built from repeated token prefixes is checked in one pass", arguments: [
        "eyJ", "eyJhbGciOiJIUzI1NiJ9.", "SG.", "ghp_", "-----BEGIN ", "AKIA", "xoxb-", "https://a:", "%2F", "a=b&",
    ])
    func repeatedPrefixes(_ prefix: String) async throws {
        let run = String(repeating: prefix, count: (1 << 20) / prefix.utf8.count)
        let (_, output) = try await Self.check(file: "long.json", #"{"request":{"url":"https://x/"},"response":{"status":200,"body":"\#(run)"}}"#)
        #expect(output.contains("Checked 1 file: 0 format errors"), "\(output.suffix(300))")
    }

    @Test("a long member name over many values is read once, not once per value")
    func longNameOverManyValues() async throws {
        // Read once per value, 10,000 bytes of name over 1,000 values cost minutes.
        let values = Array(repeating: #""aaaaaaaaaaaaaaaaaaaa""#, count: 1_000).joined(separator: ",")
        let (_, output) = try await Self.check(file: "names.json", #"{"request":{"url":"https://x/"},"response":{"status":200,"body":{"\#(String(repeating: "x", count: 10_000))":[\#(values)]}}}"#)
        #expect(output.contains("Checked 1 file: 0 format errors, 0 possible secrets."), "\(output.suffix(300))")
    }

    @Test("tokens written with a JSON escape are each reported, however many: looking for their lines costs a few passes over the file in all")
    func escapedTokens() async throws {
        let tokens = (0..<20_000).map { #""\u0067hp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9v\#(String(format: "%06d", $0))""# }.joined(separator: ",")
        let (status, output) = try await Self.check(file: "escaped.json", #"{"request":{"url":"https://x/"},"response":{"status":200,"body":{"list":[\#(tokens)]}}}"#)
        #expect(status == 1)
        #expect(output.contains("Checked 1 file: 0 format errors, 20000 possible secrets."), "\(output.suffix(300))")
    }

    @Test("a gzip body check cannot read whole is reported, and what it could read is checked", arguments: [
        ("truncated", GzipData.member("see ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z " + String(repeating: "x", count: 100_000)).dropLast(8)),
        ("garbage between members", GzipData.member("ok") + Data("garbage".utf8) + GzipData.member("ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z")),
    ])
    func unreadableGzip(_ name: String, _ body: Data) async throws {
        let archive = #"{"log":{"entries":[{"request":{"method":"GET","url":"https://x/","headers":[]},"response":{"status":200,"headers":[{"name":"Content-Encoding","value":"gzip"}],"content":{"encoding":"base64","text":"\#(Self.base64(Data(body)))"}}}]}}"#
        let (status, output) = try await Self.check(file: "body.har", archive)
        #expect(status == 1)
        #expect(output.contains("looks like a compressed body that cannot be read whole (gzip: "), "\(name): \(output)")
        #expect(!output.contains("aB3dE5fG7hJ9"), "the token is printed: \(output)")
    }

    @Test("what the recorder keeps, check calls clean: the names redaction replaces are the names check looks for")
    func recorderAndCheckAgree() async throws {
        let url = try #require(URL(string: "https://api.example.com/x?csrf_token=c5rf-v4lue&session=s3ssion&key=k3y&auth=4uth&q=plain"))
        let body = #"{"nested":{"Session":"s3ssion"},"auth":"4uth","key":"k3y","secret":"s3cret","private_key":"pr1vate","jwt":"jw7","X-Vault-Token":"v4ult"}"#
        let fixture = Fixture(
            request: .init(method: .post, url: url, headerFields: [.contentType: "application/json", .init("X-Csrf-Token")!: "c5rf", .init("X-Vault-Token")!: "v4ult"], body: Data(body.utf8)),
            response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(body.utf8)))
        let recorded = Redaction().redacting(fixture).encoded()
        let (status, output) = try await Self.check(file: "recorded.json", String(decoding: recorded, as: UTF8.self))
        #expect(status == 0, "\(output)")
        #expect(!output.contains("unredacted"), "\(output)")
    }
}
