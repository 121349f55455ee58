import Foundation
import SculptTesting
import Testing

@Suite("sculpt import-har", .timeLimit(.minutes(10)))
struct ImportHARCommandTests {
    static let archive = "Tests/Fixtures/corpus/har/mitmproxy_chrome.har"

    static func outputFolder() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "sculpt-import-\(UUID())")
    }

    @Test("writes one readable, redacted fixture per entry, named for its request, and lists what it skipped")
    func imports() async throws {
        let out = Self.outputFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let (status, output, errors) = try await CommandProcess.run(["import-har", Self.archive, "--out", out.path(percentEncoded: false)])
        #expect(status == 0, "\(errors)")
        let archive = try HARArchive(contentsOf: Paths.packageRoot.appending(path: Self.archive))
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path(percentEncoded: false)).sorted()
        #expect(names.count == archive.fixtures.count)
        #expect(output.contains("Wrote \(archive.fixtures.count) fixtures to \(out.path(percentEncoded: false)), secrets redacted."), "\(output)")
        #expect(names.allSatisfy { $0.hasPrefix("get-") || $0.hasPrefix("post-") }, "\(names)")
        for (index, skipped) in archive.skipped.enumerated() {
            #expect(output.contains(skipped.description), "skipped entry \(index) is reported")
        }
        // Each file loads back as the archive's entry, and the cookies the capture holds are gone.
        for name in names {
            let fixture = try Fixture(contentsOf: out.appending(path: name))
            #expect(fixture.request.headerFields[.cookie].map { $0 == Redaction.marker } ?? true)
        }
        let check = try await CommandProcess.run(["check", out.path(percentEncoded: false)])
        #expect(check.output.contains("0 format errors"), "\(check.output)")
    }

    @Test("keeps existing files unless --force, writes one cassette with --cassette, and keeps secrets only with --unredacted")
    func options() async throws {
        let out = Self.outputFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let path = out.path(percentEncoded: false)
        #expect(try await CommandProcess.run(["import-har", Self.archive, "--out", path]).status == 0)
        let again = try await CommandProcess.run(["import-har", Self.archive, "--out", path])
        #expect(again.status != 0)
        #expect(again.errors.contains("--force overwrites"), "\(again.errors)")
        #expect(try await CommandProcess.run(["import-har", Self.archive, "--out", path, "--force"]).status == 0)

        let cassetteFolder = out.appending(path: "cassette")
        let single = try await CommandProcess.run(["import-har", Self.archive, "--out", cassetteFolder.path(percentEncoded: false), "--cassette", "--unredacted"])
        #expect(single.status == 0)
        #expect(single.output.contains("(unredacted)"))
        let cassette = try Cassette(contentsOf: cassetteFolder.appending(path: "mitmproxy_chrome.json"))
        #expect(cassette.interactions.contains { ($0.request.headerFields[.cookie] ?? Redaction.marker) != Redaction.marker })
    }

    @Test("a file that is not an archive is an error with its line")
    func notAnArchive() async throws {
        let out = Self.outputFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let (status, _, errors) = try await CommandProcess.run(["import-har", "Tests/Fixtures/github/get-root.json", "--out", out.path(percentEncoded: false)])
        #expect(status != 0)
        #expect(errors.contains("get-root.json:1: not a HAR archive"), "\(errors)")
    }

    @Test("a credential in a request's path names no file: the name says where it was redacted", arguments: [
        ("/users/ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8/repos", #""headers": []"#, "get-users-redacted-repos.json"),
        ("/keys/sk_live_4eC39HqLyjWDarjtT1zdp7dc", #""headers": []"#, "get-keys-redacted.json"),
        ("/reset/AKIAIOSFODNN7EXAMPLE", #""headers": []"#, "get-reset-redacted.json"),
        ("/users/%67hp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", #""headers": []"#, "get-users-redacted.json"),
        ("/users/%2567hp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8/x", #""headers": []"#, "get-users-redacted-x.json"),
        ("/u/%FF/%2567hp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8/r", #""headers": []"#, "get-u-redacted-r.json"),
        ("/u/" + String(repeating: "%25", count: 10) + "67hp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8/r", #""headers": []"#, "get-u-redacted-r.json"),
        // The request's own secret values, repeated in its path.
        ("/a/HQSECabcdEFGH1234/x", #""headers": [{"name": "Authorization", "value": "Bearer HQSECabcdEFGH1234"}]"#, "get-a-redacted-x.json"),
        ("/b/CKSECabcdEFGH1234", #""headers": [{"name": "Cookie", "value": "sid=CKSECabcdEFGH1234; theme=dark"}]"#, "get-b-redacted.json"),
        ("/g/XTSECabcdEFGH1234", #""headers": [{"name": "X-Acme-Session", "value": "XTSECabcdEFGH1234"}]"#, "get-g-redacted.json"),
        ("/c/FRSECabcdEFGH1234#access_token=FRSECabcdEFGH1234", #""headers": []"#, "get-c-redacted.json"),
        ("/keys/Bk7Zq8XkPm2Rt7VwY", #""headers": [], "postData": {"mimeType": "application/json", "text": "{\"password\": \"Bk7Zq8XkPm2Rt7VwY\"}"}"#, "post-keys-redacted.json"),
        ("/keys/Fk7Zq8XkPm2Rt7VwY", #""headers": [{"name": "Content-Type", "value": "application/x-www-form-urlencoded"}], "postData": {"text": "password=Fk7Zq8XkPm2Rt7VwY"}"#, "post-keys-redacted.json"),
    ], [false, true])
    func credentialInPath(_ entry: (path: String, request: String, expected: String), unredacted: Bool) async throws {
        let (path, request, expected) = entry
        let out = Self.outputFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let har = out.appending(path: "capture.har")
        try Data(#"{"log": {"entries": [{"request": {"method": "\#(request.contains("postData") ? "POST" : "GET")", "url": "https://api.example.com\#(path)", \#(request)}, "response": {"status": 200, "headers": [], "content": {"text": "ok"}}}]}}"#.utf8).write(to: har)
        let fixtures = out.appending(path: "fixtures")
        let (status, output, errors) = try await CommandProcess.run(
            ["import-har", har.path(percentEncoded: false), "--out", fixtures.path(percentEncoded: false)] + (unredacted ? ["--unredacted"] : []))
        #expect(status == 0, "\(errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixtures.path(percentEncoded: false)) == [expected], "\(output)")
    }
}
