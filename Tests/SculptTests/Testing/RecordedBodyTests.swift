import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One recorded body means the same bytes to every reader: a fixture file as it loads, the
/// server and a replay's session as they answer, a diff as it compares shapes, a check as it
/// looks for secrets.
@Suite("One recorded body reads the same through every reader")
struct RecordedBodyTests {
    static let json = #"{"login":"octocat","id":1,"note":"ghp_Abcdefghijklmnopqrstuvwxyz0123456789","password":"hunter2hunter2"}"#

    /// A way a recorder may have kept the same body.
    struct Stored: Sendable, CustomTestStringConvertible {
        var name: String
        var encoding: String?
        var bytes: Data
        var testDescription: String { name }

        /// The fixture file that holds it, as JSON text.
        var file: Data {
            let headers = [#"["Content-Type", "application/json"]"#] + (encoding.map { [#"["Content-Encoding", "\#($0)"]"#, #"["Content-Length", "\#(bytes.count)"]"#] } ?? [])
            return Data(#"""
                {"request": {"method": "GET", "url": "https://api.github.com/users/octocat"},
                 "response": {"status": 200, "headers": [\#(headers.joined(separator: ", "))], "body": "\#(bytes.base64EncodedString())", "bodyEncoding": "base64"}}
                """#.utf8)
        }
    }

    static let stored: [Stored] = [
        Stored(name: "as it is", encoding: nil, bytes: Data(json.utf8)),
        Stored(name: "gzip", encoding: "gzip", bytes: GzipData.member(json)),
        Stored(name: "x-gzip", encoding: "x-gzip", bytes: GzipData.member(json)),
        Stored(name: "deflate (a zlib stream)", encoding: "deflate", bytes: GzipData.zlib(Data(json.utf8))),
        Stored(name: "a Content-Encoding kept over a body already decoded", encoding: "gzip", bytes: Data(json.utf8)),
        Stored(name: "raw deflate, without the zlib wrapper", encoding: "deflate", bytes: GzipData.rawDeflate(Data(json.utf8))),
        Stored(name: "gzip, then identity", encoding: "gzip, identity", bytes: GzipData.member(json)),
    ]

    @Test("a fixture file holds the body a client sees, without the fields of its stored bytes", arguments: stored)
    func loads(_ stored: Stored) throws {
        let fixture = try Fixture(json: stored.file)
        #expect(String(decoding: fixture.data, as: UTF8.self) == Self.json)
        #expect(fixture.response.headerFields[.contentEncoding] == nil)
        #expect(fixture.response.headerFields[.contentLength] == nil)
    }

    @Test("the replay session, the server, the diff and the check read it as the same body", arguments: stored)
    func everyReader(_ stored: Stored) async throws {
        // The fixture as built in code, its body still compressed: each reader decodes it.
        let loaded = try Fixture(json: stored.file)
        var fields = loaded.response.headerFields
        if let encoding = stored.encoding { fields[.contentEncoding] = encoding }
        let fixture = Fixture(request: loaded.request, response: .init(status: .ok, headerFields: fields, body: stored.bytes))
        let url = fixture.request.url

        let session = FixtureReplay([fixture]).makeSession()
        defer { session.invalidateAndCancel() }
        #expect(String(decoding: try await session.data(from: url).0, as: UTF8.self) == Self.json)

        try await FixtureServer.running(FixtureReplay([fixture])) { server, _ in
            let client = URLSession(configuration: .unhurried)
            defer { client.invalidateAndCancel() }
            let served = try await client.data(from: try await server.url(for: fixture)).0
            #expect(String(decoding: served, as: UTF8.self) == Self.json)
        }

        let plain = Fixture(request: fixture.request, response: .init(status: .ok, headerFields: [.contentType: "application/json"], body: Data(Self.json.utf8)))
        #expect(RecordingDiff(old: [plain], new: [fixture]).changes.isEmpty, "\(RecordingDiff(old: [plain], new: [fixture]))")
        #expect(Set(SecretScan.findings(inJSON: stored.file).map(\.kind)) == ["a GitHub token", #"an unredacted "password""#])
        let redacted = String(decoding: Redaction().redacting(fixture).response.body, as: UTF8.self)
        #expect(!redacted.contains("ghp_Abc") && !redacted.contains("hunter2") && redacted.contains("octocat"), "\(redacted)")
    }

    @Test("a body in another encoding is read as its text: the same shape, its secrets found and redacted, its encoding kept", arguments: [
        ("UTF-16LE, declared", String.Encoding.utf16LittleEndian, [UInt8](), "application/json; charset=utf-16le"),
        ("UTF-32LE, by its byte order mark", .utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00], "application/json"),
        ("UTF-16BE, by its zero bytes", .utf16BigEndian, [], "application/json"),
        ("UTF-16BE, declared utf-16 without a byte order mark", .utf16BigEndian, [], "application/json; charset=utf-16"),
        ("UTF-16BE, declared utf-16 with its byte order mark", .utf16BigEndian, [0xFE, 0xFF], "application/json; charset=utf-16"),
        ("UTF-16LE, declared utf-16 with its byte order mark", .utf16LittleEndian, [0xFF, 0xFE], "application/json; charset=utf-16"),
        ("UTF-32BE, declared utf-32 without a byte order mark", .utf32BigEndian, [], "application/json; charset=utf-32"),
        ("UTF-16LE, declared utf-16 without a byte order mark, told by its zero bytes", .utf16LittleEndian, [], "application/json; charset=utf-16"),
    ])
    func otherCharset(_ name: String, _ encoding: String.Encoding, _ mark: [UInt8], _ contentType: String) throws {
        let utf16 = Data(mark) + (try #require(Self.json.data(using: encoding)))
        let fields: HTTPFields = [.contentType: contentType]
        let request = Fixture.Request(url: try #require(URL(string: "https://api.github.com/users/octocat")))
        let wide = Fixture(request: request, response: .init(headerFields: fields, body: utf16))
        let plain = Fixture(request: request, response: .init(headerFields: [.contentType: "application/json"], body: Data(Self.json.utf8)))
        #expect(RecordingDiff(old: [plain], new: [wide]).changes.isEmpty)
        let redacted = Redaction().redacting(wide).response.body
        #expect(redacted.starts(with: mark))
        let text = try #require(String(data: redacted.dropFirst(mark.count), encoding: encoding))
        #expect(text.contains("octocat") && !text.contains("ghp_Abc") && !text.contains("hunter2"), "\(text)")
        let file = Data(#"{"request": {"url": "https://h/a"}, "response": {"status": 200, "headers": [["Content-Type", "\#(contentType)"]], "body": "\#(utf16.base64EncodedString())", "bodyEncoding": "base64"}}"#.utf8)
        #expect(Set(SecretScan.findings(inJSON: file).map(\.kind)) == ["a GitHub token", #"an unredacted "password""#])
    }

    @Test("a body in a declared UTF-16 or UTF-32 charset that ends in part of a unit keeps those bytes when a secret in it is redacted", arguments: [
        ("application/json; charset=utf-16le", String.Encoding.utf16LittleEndian, [0x41] as [UInt8]),
        ("application/json; charset=utf-16", .utf16BigEndian, [0x41]),
        ("application/json; charset=utf-32le", .utf32LittleEndian, [0x41, 0x42, 0x43]),
    ])
    func declaredWideWithPartialUnit(_ contentType: String, _ encoding: String.Encoding, _ tail: [UInt8]) throws {
        let body = (try #require(#"{"password":"hunter2hunter2","a":1}"#.data(using: encoding))) + Data(tail)
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://api.github.com/users/octocat"))),
            response: .init(headerFields: [.contentType: contentType], body: body))
        let redacted = Redaction().redacting(fixture).response.body
        #expect(redacted.suffix(tail.count) == Data(tail))
        let text = try #require(String(data: redacted.dropLast(tail.count), encoding: encoding))
        #expect(text == #"{"password":"REDACTED","a":1}"#)
    }

    @Test("a text body in UTF-16 or UTF-32 without a byte order mark, its first character not ASCII, is read in the byte order its zero bytes tell, its secrets redacted and found", arguments: [
        ("text/plain; charset=utf-16", String.Encoding.utf16LittleEndian), ("text/plain; charset=utf-16", .utf16BigEndian),
        ("text/plain; charset=utf-32", .utf32LittleEndian), ("text/plain; charset=utf-32", .utf32BigEndian),
        ("text/plain", .utf16LittleEndian), ("text/plain", .utf16BigEndian), ("text/plain", .utf32LittleEndian), ("text/plain", .utf32BigEndian),
    ])
    func unmarkedByteOrder(_ contentType: String, _ encoding: String.Encoding) throws {
        let text = "日本 password=Zq81vXk2Lm0Zq81 note ghp_Abcdefghijklmnopqrstuvwxyz0123456789 end"
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://api.github.com/users/octocat"))),
            response: .init(headerFields: [.contentType: contentType], body: try #require(text.data(using: encoding))))
        #expect(!SecretScan.findings(inJSON: fixture.encoded(byteExact: true)).isEmpty)
        let redacted = try #require(String(data: Redaction().redacting(fixture).response.body, encoding: encoding))
        #expect(redacted == "日本 password=REDACTED note REDACTED end")
    }

    @Test("a UTF-16 or UTF-32 body keeps a code unit that is no character byte for byte when a secret beside it is redacted", arguments: [
        ("by its byte order mark", String.Encoding.utf16LittleEndian, [0xFF, 0xFE] as [UInt8], [0x00, 0xD8] as [UInt8], "application/json"),
        ("declared, without a mark", .utf16BigEndian, [], [0xDC, 0x00], "application/json; charset=utf-16be"),
        ("UTF-32, declared", .utf32LittleEndian, [], [0x00, 0xD8, 0x00, 0x00], "application/json; charset=utf-32le"),
        ("UTF-32, a value past U+10FFFF", .utf32LittleEndian, [0xFF, 0xFE, 0x00, 0x00], [0x00, 0x00, 0x11, 0x00], "application/json"),
        ("UTF-32 by its zero bytes, then bytes that are no character", .utf32LittleEndian, [], Array("wxyz".utf8), "application/json"),
        ("UTF-16 that holds private-use characters itself", .utf16LittleEndian, [0xFF, 0xFE], [0x80, 0xDB, 0x00, 0xDC, 0x00, 0xD8, 0x80, 0xDB, 0x01, 0xDC], "application/json"),
    ])
    func loneCodeUnit(_ name: String, _ encoding: String.Encoding, _ mark: [UInt8], _ lone: [UInt8], _ contentType: String) throws {
        func wide(_ text: String) throws -> Data { try #require(text.data(using: encoding)) }
        let body = Data(mark) + (try wide(#"{"password":"hunter2hunter2","bad":""#)) + Data(lone) + (try wide(#""}"#))
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://api.github.com/users/octocat"))),
            response: .init(headerFields: [.contentType: contentType], body: body))
        #expect(!SecretScan.findings(inJSON: fixture.encoded(byteExact: true)).isEmpty)
        let redacted = Redaction().redacting(fixture).response.body
        #expect(redacted == Data(mark) + (try wide(#"{"password":"REDACTED","bad":""#)) + Data(lone) + (try wide(#""}"#)), "\(Array(redacted))")
    }

    @Test("a body under a charset it is not in keeps no secret, and check finds it before and nothing after", arguments: [
        ("UTF-16 with its byte order mark, under a one-byte charset", "application/json; charset=iso-8859-1", Data([0xFF, 0xFE]) + Data(json.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] })),
        ("UTF-16 with its byte order mark, under windows-1252", "application/json; charset=windows-1252", Data([0xFF, 0xFE]) + Data(json.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] })),
        ("JSON in UTF-8 under charset=utf-16", "application/json; charset=utf-16", Data(json.utf8)),
        ("JSON in UTF-8 under charset=utf-32", "application/json; charset=utf-32", Data(json.utf8)),
        ("a form in UTF-8 under charset=utf-16", "application/x-www-form-urlencoded; charset=utf-16", Data("login=octocat&password=hunter2hunter2&note=ghp_Abcdefghijklmnopqrstuvwxyz0123456789".utf8)),
        ("text in UTF-8 under charset=UTF-16", "text/plain; charset=UTF-16", Data("password=hunter2hunter2 note ghp_Abcdefghijklmnopqrstuvwxyz0123456789".utf8)),
    ])
    func mislabelledCharset(_ name: String, _ contentType: String, _ body: Data) throws {
        let fixture = Fixture(
            request: .init(url: try #require(URL(string: "https://api.github.com/users/octocat"))),
            response: .init(headerFields: [.contentType: contentType], body: body))
        let found = Set(SecretScan.findings(inJSON: fixture.encoded(byteExact: true)).map(\.kind))
        #expect(found.contains("a GitHub token") && found.contains { $0.contains("password") }, "\(found)")
        let redacted = Redaction().redacting(fixture)
        let wide = { (text: String) in Data(text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8($0 >> 8)] }) }
        for secret in ["hunter2hunter2", "ghp_Abcdefghijklmnopqrstuvwxyz0123456789"] {
            #expect(redacted.response.body.range(of: Data(secret.utf8)) == nil && redacted.response.body.range(of: wide(secret)) == nil, "\(secret)")
        }
        #expect(SecretScan.findings(inJSON: redacted.encoded(byteExact: true)).isEmpty, "\(SecretScan.findings(inJSON: redacted.encoded(byteExact: true)).map(\.kind))")
    }

    @Test("a finding's kind quotes no secret from the coding it could not read")
    func unreadCodingQuotesNoSecret() throws {
        for coding in ["br, ghp_Ab3dE5gH7jK9mN1pQ3sT5vX7zB9dF1hJ3lN5", "br;password=hunter2hunter2xyz"] {
            let stored = Stored(name: coding, encoding: coding, bytes: GzipData.member(Self.json))
            let findings = SecretScan.findings(inJSON: stored.file)
            #expect(findings.contains { $0.kind.hasPrefix("a compressed body that cannot be read whole") }, "\(findings)")
            #expect(findings.allSatisfy { !$0.kind.contains("Ab3dE5gH") && !$0.kind.contains("hunter2") }, "\(findings.map(\.kind))")
        }
    }

    static let damagedBodies: [Stored] = [
        Stored(name: "truncated gzip", encoding: "gzip", bytes: GzipData.member(Self.json).prefix(20)),
        Stored(name: "gzip missing its last 6 bytes", encoding: "gzip", bytes: GzipData.member(Self.json).dropLast(6)),
        Stored(name: "gzip with bytes after its end", encoding: "gzip", bytes: GzipData.member(Self.json) + Data("junk after the stream".utf8)),
        Stored(name: "a truncated zlib stream", encoding: "deflate", bytes: GzipData.zlib(Data(Self.json.utf8)).prefix(20)),
        Stored(name: "truncated raw deflate", encoding: "deflate", bytes: GzipData.rawDeflate(Data(Self.json.utf8)).prefix(20)),
        Stored(name: "bytes that are neither compressed nor text under gzip", encoding: "gzip", bytes: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D])),
    ]

    @Test("a compressed body that does not decompress does not load, saying which body and why, and check reports it", arguments: damagedBodies)
    func damaged(_ stored: Stored) throws {
        let error = try #require(throws: Fixture.FormatError.self) { try Fixture(json: stored.file) }
        #expect(error.description.contains("response.body is stored under Content-Encoding \(stored.encoding ?? "")"), "\(error)")
        #expect(error.description.contains("does not decompress"), "\(error)")
        #expect(SecretScan.findings(inJSON: stored.file).contains { $0.kind.hasPrefix("a compressed body that cannot be read whole") })
    }

    @Test("a recording whose session had undone its coding is kept as the bytes it gave, and reads back", arguments: damagedBodies)
    func undoneBySession(_ stored: Stored) throws {
        let request = Fixture.Request(url: try #require(URL(string: "https://api.github.com/users/octocat")))
        let fields: HTTPFields = [.contentType: "application/octet-stream", .contentEncoding: stored.encoding ?? "", .contentLength: "\(stored.bytes.count)"]
        let recorded = Redaction().redacting(Fixture(request: request, response: .init(headerFields: fields, body: stored.bytes)))
        let again = try Fixture(json: recorded.encoded())
        #expect(again.data == stored.bytes)
        #expect(again.response.headerFields[.contentEncoding] == nil)
    }

    @Test("a body under a coding no reader undoes is kept as stored, and check says it did not read it")
    func unreadCoding() throws {
        let stored = Stored(name: "br over gzip bytes", encoding: "br", bytes: GzipData.member(Self.json))
        let fixture = try Fixture(json: stored.file)
        #expect(fixture.data == stored.bytes && fixture.response.headerFields[.contentEncoding] == "br")
        #expect(SecretScan.findings(inJSON: stored.file).contains { $0.kind == "a compressed body that cannot be read whole (Content-Encoding br is not read)" },
            "\(SecretScan.findings(inJSON: stored.file))")
    }

    @Test("two bytes that look like a zlib header do not make a body compressed: it is read as the text it is", arguments: ["x ", "x?", "x^", "HK", "(r"])
    func textThatLooksCompressed(_ start: String) throws {
        let text = "\(start)= ghp_Abcdefghijklmnopqrstuvwxyz0123456789"
        let stored = Stored(name: start, encoding: nil, bytes: Data(text.utf8))
        #expect(SecretScan.findings(inJSON: stored.file).map(\.kind) == ["a GitHub token"])
        let leftover = Stored(name: start, encoding: "gzip", bytes: Data(text.utf8))
        let fixture = try Fixture(json: leftover.file)
        #expect(String(decoding: fixture.data, as: UTF8.self) == text)
        #expect(fixture.response.headerFields[.contentEncoding] == nil)
    }
}
