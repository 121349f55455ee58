import Foundation
import HTTPTypes
import SculptTesting
import Testing

/// A replay miss whatever the request holds: bounded work
/// in a large cassette, a bounded description, and a description whose lines are only its own,
/// the control characters of every quoted value escaped.
@Suite("Replay misses: bounded and printable")
struct ReplayMissBoundsTests {
    // MARK: - Bounded

    /// The query of a request that matches nothing, about 64 KiB.
    enum LongQuery: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case oneValue, shortItems, distinctItems

        var testDescription: String { rawValue }

        var text: String {
            switch self {
            case .oneValue: "q=" + String(repeating: "a", count: 64 << 10)
            case .shortItems: Array(repeating: "a=1", count: 16 << 10).joined(separator: "&")
            case .distinctItems: (0..<6_000).map { "k\($0)=v\($0)" }.joined(separator: "&")
            }
        }
    }

    /// 4,000 interactions: 40 paths recorded 100 times each, with different pages.
    static let cassette: [Fixture] = (0..<4_000).compactMap { index in
        URL(string: "https://api.example.com/repos/o/r/issues/\(index % 40)?page=\(index)&access_token=REDACTED").map { url in
            Fixture(request: .init(url: url, headerFields: [.accept: "application/json"]), response: .init(status: .ok), source: "big.json #\(index)")
        }
    }

    /// A JSON object of `count` members, in order or reversed, one of them perhaps redacted.
    static func object(_ count: Int, reversed: Bool = false, redacting key: Int? = nil) -> Data {
        let keys = reversed ? Array((0..<count).reversed()) : Array(0..<count)
        let members = keys.map { #""k\#($0)":\#($0 == key ? #""REDACTED""# : "\($0)")"# }
        return Data("{\(members.joined(separator: ","))}".utf8)
    }

    @Test("a JSON body of 50,000 members matches its recording in another order, a redacted member matching any value; one that differs is a miss")
    func largeJSONBody() throws {
        // members were looked up one by one through the
        // whole object, so a 16 MiB body took 9.7 s to compare.
        let url = try #require(URL(string: "https://api.example.com/search"))
        let recorded = Fixture(
            request: .init(method: .post, url: url, body: Self.object(50_000, reversed: true, redacting: 7)), response: .init(status: .ok))
        let replay = FixtureReplay([recorded], options: .init(matchesBody: true, repeatsLastResponse: true))
        #expect(throws: Never.self) { try replay.response(for: .init(method: .post, url: url, body: Self.object(50_000))) }
        var different = String(decoding: Self.object(50_000), as: UTF8.self)
        different = different.replacingOccurrences(of: #""k49999":49999"#, with: #""k49999":0"#)
        let miss = try #require(throws: FixtureReplay.MissError.self) {
            try replay.response(for: .init(method: .post, url: url, body: Data(different.utf8)))
        }
        #expect(miss.nearest.first?.differences.contains { $0.hasPrefix("body:") } == true)
    }

    @Test("5,000 recorded redacted items match 5,000 asked values; one item more is a miss that names it")
    func manyMarkers() throws {
        // each marker was tried against every item left,
        // converting each again (1,000 markers among 8,000 items: 0.7 s; 1 MB of them: 10.5 s).
        let recordedQuery = Array(repeating: "sig=REDACTED", count: 5_000).joined(separator: "&")
        let askedQuery = (0..<5_000).map { "sig=v\($0)" }.joined(separator: "&")
        let recorded = Fixture(request: .init(url: try #require(URL(string: "https://h/a?\(recordedQuery)&page=1"))), response: .init(status: .ok))
        let replay = FixtureReplay([recorded], options: .init(repeatsLastResponse: true))
        #expect(throws: Never.self) { try replay.response(for: .init(url: try #require(URL(string: "https://h/a?page=1&\(askedQuery)")))) }
        let miss = try #require(throws: FixtureReplay.MissError.self) {
            try replay.response(for: .init(url: try #require(URL(string: "https://h/a?page=1&\(askedQuery)&other=1"))))
        }
        #expect(miss.nearest.first?.differences == ["query: has other=1"])
    }

    @Test("a miss among 4,000 interactions with a 64 KiB query compares at most 64 in full and says at most 4,096 bytes",
          arguments: LongQuery.allCases, ["/repos/o/r/issues/7", "/repos/o/r/nowhere"])
    func boundedMiss(query: LongQuery, path: String) throws {
        #expect(Self.cassette.count == 4_000)
        let replay = FixtureReplay(Self.cassette, options: .init(matchedHeaders: [.accept], matchesBody: true))
        let url = try #require(URL(string: "https://api.example.com\(path)?\(query.text)"))
        let request = Fixture.Request(url: url, headerFields: [.accept: "text/html"], body: Data(query.text.utf8))
        let miss = try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: request) }
        #expect(miss.comparedInFull == FixtureReplay.nearestBudget)
        #expect(FixtureReplay.nearestBudget == 64)
        #expect(miss.description.utf8.count <= 4_096, "a description of \(miss.description.utf8.count) bytes")
        #expect(miss.description.hasPrefix("No recorded interaction matches GET \(path)?"))
        #expect(miss.description.contains("(\(Self.count(path.utf8.count + 1 + query.text.utf8.count)) bytes)"), "the cut target states its size")
        #expect(miss.nearest.count == 3)
        #expect(miss.request.url == url, "the miss keeps the request whole")
        if path == "/repos/o/r/issues/7" {
            // The usual miss: the closest are the same path's, in recorded order.
            #expect(miss.nearest.map(\.fixture.source) == ["big.json #7", "big.json #47", "big.json #87"])
            #expect(miss.nearest.allSatisfy { $0.differences.count == 3 && $0.differences[0].hasPrefix("query: has ") })
        }
    }

    @Test("a miss on a path recorded nowhere shows the recorded paths most like it, wherever the cassette holds them")
    func likestPathsFirst() throws {
        var fixtures = Self.cassette
        for path in ["/users/octocat/repos", "/users/octocat/orgs"] {
            fixtures.append(Fixture(request: .init(url: try #require(URL(string: "https://api.example.com\(path)"))), response: .init(status: .ok)))
        }
        fixtures.append(Fixture(request: .init(method: .post, url: try #require(URL(string: "https://api.example.com/repos/o/r/issues/5"))), response: .init(status: .created)))
        let replay = FixtureReplay(fixtures)
        func miss(_ method: HTTPRequest.Method, _ path: String) throws -> FixtureReplay.MissError {
            let request = Fixture.Request(method: method, url: try #require(URL(string: "https://x\(path)")))
            return try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: request) }
        }
        let paths = { (miss: FixtureReplay.MissError) in miss.nearest.map { "\($0.fixture.request.method) \($0.fixture.request.url.path())" } }

        let typo = try miss(.get, "/users/octocat/repo")
        #expect(paths(typo) == ["GET /users/octocat/repos", "GET /users/octocat/orgs", "GET /repos/o/r/issues/0"])
        #expect(typo.comparedInFull == FixtureReplay.nearestBudget)
        let method = try miss(.put, "/repos/o/r/issues/5")
        #expect(paths(method).first == "POST /repos/o/r/issues/5", "the same path under another method comes first")
    }

    // MARK: - Printable

    /// A value holding control characters, and how a description writes it.
    enum Planted: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case crlf, nul, esc, del, tab, nextLine, lineSeparator, bidiOverride, arabicLetterMark, invisible

        var testDescription: String { rawValue }

        var value: String {
            switch self {
            case .crlf: "\r\nX-Injected: 1"
            case .nul: "a\0b"
            case .esc: "\u{1B}[2J\u{1B}[31mred"
            case .del: "a\u{7F}b"
            case .tab: "a\tb"
            case .nextLine: "a\u{85}X-Injected: 1"
            case .lineSeparator: "a\u{2028}b\u{2029}c"
            case .bidiOverride: "txt.\u{202E}exe\u{2066}x\u{2069}"
            // 
            case .arabicLetterMark: "a\u{061C}b"
            case .invisible: "a\u{FEFF}b\u{200B}c\u{2060}d"
            }
        }

        var escaped: String {
            switch self {
            case .crlf: #"\r\nX-Injected: 1"#
            case .nul: #"a\0b"#
            case .esc: #"\u{1B}[2J\u{1B}[31mred"#
            case .del: #"a\u{7F}b"#
            case .tab: #"a\tb"#
            case .nextLine: #"a\u{85}X-Injected: 1"#
            case .lineSeparator: #"a\u{2028}b\u{2029}c"#
            case .bidiOverride: #"txt.\u{202E}exe\u{2066}x\u{2069}"#
            case .arabicLetterMark: #"a\u{61C}b"#
            case .invisible: #"a\u{FEFF}b\u{200B}c\u{2060}d"#
            }
        }

        /// The value percent-encoded, as a URL carries it.
        var encoded: String {
            value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        }
    }

    /// Where the planted value is.
    enum Place: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case askedQuery, recordedQuery, askedPath, recordedPath, askedHeader, recordedHeader, source

        var testDescription: String { rawValue }

        static let trace = HTTPField.Name("X-Trace")!

        /// The request and the one recording it misses, `planted` planted here.
        func miss(_ planted: Planted) throws -> (request: Fixture.Request, recorded: Fixture) {
            func url(_ text: String) throws -> URL { try #require(URL(string: "https://api.example.com" + text)) }
            func fields(_ value: String) -> HTTPFields {
                // Leniently: HTTPTypes turns CR, LF and NUL into spaces, and keeps the rest.
                var fields: HTTPFields = [.accept: "application/json"]
                fields.append(HTTPField(name: Self.trace, lenientValue: Array(value.utf8)))
                return fields
            }
            var request = Fixture.Request(url: try url("/v3/items?q=asked"), headerFields: fields("asked"))
            var recorded = Fixture(
                request: .init(url: try url("/v3/items?q=recorded"), headerFields: fields("recorded")), response: .init(status: .ok),
                source: "items.json #0")
            switch self {
            case .askedQuery: request.url = try url("/v3/items?q=\(planted.encoded)")
            case .recordedQuery: recorded.request.url = try url("/v3/items?q=\(planted.encoded)")
            case .askedPath: request.url = try url("/v3/items/\(planted.encoded)?q=asked")
            case .recordedPath: recorded.request.url = try url("/v3/items/\(planted.encoded)?q=recorded")
            case .askedHeader: request.headerFields = fields(planted.value)
            case .recordedHeader: recorded.request.headerFields = fields(planted.value)
            case .source: recorded.source = "items\(planted.value).json #0"
            }
            return (request, recorded)
        }
    }

    /// The starts of the lines a miss writes.
    static let lineStarts = ["No recorded interaction matches ", "No unused recorded interaction matches ", "Closest recorded:", "Nothing is recorded.", "- ", "and "]

    /// A scalar a description must never hold raw: C0 (but the line feeds it writes), DEL, C1,
    /// the Unicode line and paragraph separators, the bidirectional controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
            || [0x200E, 0x200F].contains(scalar.value) || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    @Test("a miss quoting control characters escapes them, and its lines are only its own", arguments: Place.allCases, Planted.allCases)
    func printableMiss(place: Place, planted: Planted) throws {
        let (request, recorded) = try place.miss(planted)
        let replay = FixtureReplay([recorded], options: .init(matchedHeaders: [.accept, Place.trace]))
        let miss = try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: request) }
        let description = miss.description
        #expect(!description.unicodeScalars.contains { $0 != "\n" && Self.isControl($0) }, "\(description.debugDescription)")
        let lines = description.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3, "\(description.debugDescription)")
        for line in lines {
            #expect(Self.lineStarts.contains { line.hasPrefix($0) }, "a line the miss did not write: \(line.debugDescription)")
        }
        switch place {
        case .askedPath, .recordedPath:
            // A path is shown as it is sent: percent-encoded.
            #expect(description.contains(planted.encoded), "\(description.debugDescription)")
        case .askedHeader, .recordedHeader:
            let arrived = HTTPField(name: Place.trace, lenientValue: Array(planted.value.utf8)).value
            #expect(arrived != planted.value || description.contains(planted.escaped), "\(description.debugDescription)")
        case .askedQuery, .recordedQuery, .source:
            #expect(description.contains(planted.escaped), "\(description.debugDescription)")
        }
    }

    @Test("an unused interaction's report escapes what it quotes too", arguments: Planted.allCases)
    func printableUnused(planted: Planted) throws {
        let url = try #require(URL(string: "https://api.example.com/v3/items?q=\(planted.encoded)"))
        let fixture = Fixture(request: .init(url: url), response: .init(status: .ok), source: "items\(planted.value).json")
        let report = try #require(throws: FixtureReplay.UnusedInteractionsError.self) { try FixtureReplay([fixture]).verifyAllUsed() }
        #expect(!report.description.unicodeScalars.contains(where: Self.isControl), "\(report.description.debugDescription)")
        #expect(report.description.contains("(items\(planted.escaped).json)"), "\(report.description.debugDescription)")
    }

    @Test("a secret beside or inside a control character is still redacted", arguments: [
        ("?q=%0D%0A&access_token=SECRET", [String](), "access_token=REDACTED"),
        ("?access_token=SECRET%1B%0D%0A", [], "access_token=REDACTED"),
        ("?next=/cb?token=SECRET%0D%0A", [], "token=REDACTED"),
        ("?q=1", ["Bearer SECRET\u{1B}[0m"], "Authorization: REDACTED"),
    ])
    func redactedBesideControls(query: String, authorization: [String], shown: String) throws {
        let secret = "zz" + UUID().uuidString.replacingOccurrences(of: "-", with: "") + "zz"
        var fields = HTTPFields()
        for value in authorization { fields.append(HTTPField(name: .authorization, lenientValue: Array(value.replacingOccurrences(of: "SECRET", with: secret).utf8))) }
        let url = try #require(URL(string: "https://api.example.com/v3/items" + query.replacingOccurrences(of: "SECRET", with: secret)))
        let recorded = Fixture(request: .init(url: try #require(URL(string: "https://api.example.com/v3/items?q=2")), headerFields: [.authorization: "other"]), response: .init(status: .ok))
        let replay = FixtureReplay([recorded], options: .init(matchedHeaders: authorization.isEmpty ? [] : [.authorization]))
        let miss = try #require(throws: FixtureReplay.MissError.self) { try replay.response(for: .init(url: url, headerFields: fields)) }
        #expect(!miss.description.contains(secret), "\(miss.description)")
        #expect(miss.description.contains(shown), "\(miss.description)")
        #expect(!miss.description.unicodeScalars.contains { $0 != "\n" && Self.isControl($0) })
    }

    // MARK: - Over HTTP

    /// Runs `body` against a started server answering from `fixtures`, and stops it whatever happens.
    func withServer(_ fixtures: [Fixture], _ body: (URL) async throws -> Void) async throws {
        let server = FixtureServer(replay: FixtureReplay(fixtures), limits: .unhurried)
        let baseURL = try await server.start()
        do {
            try await body(baseURL)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    /// The response to `target` sent raw on a new connection.
    func miss(_ baseURL: URL, _ target: String) async throws -> RawHTTP.Response {
        let connection = try RawHTTP(baseURL)
        defer { connection.close() }
        connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        return try #require(RawHTTP.responses(in: await connection.readAll()).first)
    }

    @Test("FixtureServer's 404 for a query that decodes to a header line holds no raw CR, and no line of its own",
          arguments: ["/v3/items?q=%0D%0AX-Injected:%201", "/v3/items?q=%0AX-Injected:%201%00%1B%7F", "/v3/items?%0D%0AX-Injected:%201"])
    func serverMissBody(target: String) async throws {
        let recorded = Fixture(request: .init(url: try #require(URL(string: "https://api.example.com/v3/items?q=other"))), response: .init(status: .ok))
        try await withServer([recorded]) { baseURL in
            let response = try await miss(baseURL, target)
            #expect(response.status == 404)
            #expect(response.value("X-Sculpt-Replay") == "miss")
            #expect(!response.body.unicodeScalars.contains { $0 != "\n" && Self.isControl($0) }, "\(response.body.debugDescription)")
            #expect(response.body.contains(#"\nX-Injected: 1"#), "\(response.body.debugDescription)")
            let lines = response.body.split(separator: "\n")
            #expect(lines.allSatisfy { line in Self.lineStarts.contains { line.hasPrefix($0) } }, "\(response.body.debugDescription)")
        }
    }

    @Test("FixtureServer's 404 for a 60 KB query against 4,000 interactions is at most 4,096 bytes and a line feed")
    func serverBoundedBody() async throws {
        try await withServer(Self.cassette) { baseURL in
            let query = Array(repeating: "a=1", count: 15_000).joined(separator: "&")
            let response = try await miss(baseURL, "/repos/o/r/issues/7?\(query)")
            #expect(response.status == 404)
            #expect(response.body.utf8.count <= 4_097, "a body of \(response.body.utf8.count) bytes")
            #expect(response.body.hasPrefix("No recorded interaction matches GET /repos/o/r/issues/7?a=1&a=1"))
        }
    }

    /// `n` with thousands separators, as descriptions write sizes.
    static func count(_ n: Int) -> String {
        let digits = Array(String(n))
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
