import Foundation
import HTTPTypes
import Sculpt
import SculptMatchers
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private func fixture(
    _ url: String, method: HTTPRequest.Method = .get, status: HTTPResponse.Status = .ok, body: String = "{}",
    headers: HTTPFields = [.contentType: "application/json"], requestBody: String? = nil, requestHeaders: HTTPFields = [:]
) -> Fixture {
    Fixture(
        request: .init(method: method, url: URL(string: url) ?? URL(filePath: "/"), headerFields: requestHeaders, body: requestBody.map { Data($0.utf8) }),
        response: .init(status: status, headerFields: headers, body: Data(body.utf8)))
}

private func get(_ session: URLSession, _ url: String, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]) async throws -> (String, Int) {
    var request = URLRequest(url: try #require(URL(string: url)))
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await session.data(for: request)
    return (String(decoding: data, as: UTF8.self), (response as? HTTPURLResponse)?.statusCode ?? -1)
}

@Suite("Replay through URLSession")
struct FixtureReplayTests {
    @Test("a replayed response goes through a real URLSession and a serializer")
    func serves() async throws {
        let replay = FixtureReplay([fixture("https://api.github.com/users/octocat", body: #"{"login":"octocat","id":1}"#)])
        var routes = URLModelMatcher()
        try routes.add("/users/*", User.self)
        let user = try await replay.makeSession().model(
            from: try #require(URL(string: "https://api.github.com/users/octocat")), serializer: ModelResponseSerializer(matcher: routes), as: User.self)
        #expect(user == User(login: "octocat", id: 1))
        try replay.verifyAllUsed()
    }

    @Test("two replays in parallel each answer from their own interactions")
    func isolation() async throws {
        let results = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for number in 0..<8 {
                group.addTask {
                    let replay = FixtureReplay([fixture("https://x/same", body: #"{"n":\#(number)}"#)])
                    let (body, _) = try await get(replay.makeSession(), "https://x/same")
                    try replay.verifyAllUsed()
                    return (number, body)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for number in 0..<8 {
            #expect(results[number] == #"{"n":\#(number)}"#)
        }
    }

    @Test("sequences answer in order, once each, or repeat the last when asked")
    func sequences() async throws {
        let recorded = [fixture("https://x/poll", body: "1"), fixture("https://x/poll", body: "2")]
        let once = FixtureReplay(recorded)
        let session = once.makeSession()
        #expect(try await get(session, "https://x/poll").0 == "1")
        #expect(try await get(session, "https://x/poll").0 == "2")
        await #expect {
            try await get(session, "https://x/poll")
        } throws: { error in
            "\(error)".contains("its 2 recorded responses were already used")
        }
        let repeating = FixtureReplay(recorded, options: .init(repeatsLastResponse: true))
        let again = repeating.makeSession()
        #expect(try await [get(again, "https://x/poll").0, get(again, "https://x/poll").0, get(again, "https://x/poll").0] == ["1", "2", "2"])
    }

    @Test("verifyAllUsed names what was not used")
    func unused() async throws {
        var first = fixture("https://x/a")
        first.source = "a.json"
        let replay = FixtureReplay([first, fixture("https://x/b?c=1", method: .post)])
        _ = try await get(replay.makeSession(), "https://x/a")
        #expect(replay.unusedInteractions.count == 1)
        let error = #expect(throws: FixtureReplay.UnusedInteractionsError.self) { try replay.verifyAllUsed() }
        #expect(error?.description == "1 recorded interaction was not used: POST /b?c=1")
    }

    @Test("a miss is a typed error listing the closest recorded requests and how each differs")
    func miss() async throws {
        var closest = fixture("https://x/repos/a/b/issues?state=closed", method: .get)
        closest.source = "issues.json #2"
        let replay = FixtureReplay([fixture("https://x/repos/a/b/issues", method: .post), closest, fixture("https://x/users/a", method: .get)])
        let error = await #expect(throws: (any Error).self) { try await get(replay.makeSession(), "https://x/repos/a/b/issues?state=open") }
        let text = "\(String(describing: error))"
        #expect(text.contains("No recorded interaction matches GET /repos/a/b/issues?state=open."), "\(text)")
        #expect(text.contains("- GET /repos/a/b/issues?state=closed (issues.json #2): query: has state=open, lacks state=closed"), "\(text)")
        #expect(text.contains("- POST /repos/a/b/issues: method: GET, recorded POST; query: has state=open"), "\(text)")
        let miss = try #require(error as? FixtureReplay.MissError, "the error reaches the caller as FixtureReplay.MissError")
        #expect(miss.nearest.count == 3)
    }

    @Test("query items match in any order, repeats counted")
    func query() async throws {
        let replay = FixtureReplay([fixture("https://x/s?a=1&b=2&a=3")])
        let session = replay.makeSession()
        #expect(try await get(session, "https://x/s?b=2&a=3&a=1").1 == 200)
        let again = FixtureReplay([fixture("https://x/s?a=1&a=1")]).makeSession()
        await #expect(throws: (any Error).self) { try await get(again, "https://x/s?a=1") }
    }

    @Test("bodies match when asked: JSON by meaning, from httpBody or httpBodyStream")
    func bodies() async throws {
        let recorded = fixture("https://x/items", method: .post, requestBody: #"{"name":"a","tags":[1,2.0]}"#)
        let replay = FixtureReplay([recorded, recorded], options: .init(matchesBody: true))
        let session = replay.makeSession()
        #expect(try await get(session, "https://x/items", method: "POST", body: Data(#"{ "tags": [1, 2], "name": "a" }"#.utf8)).1 == 200)
        var streamed = URLRequest(url: try #require(URL(string: "https://x/items")))
        streamed.httpMethod = "POST"
        streamed.httpBodyStream = InputStream(data: Data(#"{"tags":[1,2],"name":"a"}"#.utf8))
        #expect(((try await session.data(for: streamed)).1 as? HTTPURLResponse)?.statusCode == 200)
        let other = FixtureReplay([recorded], options: .init(matchesBody: true)).makeSession()
        await #expect { try await get(other, "https://x/items", method: "POST", body: Data(#"{"name":"b","tags":[1,2]}"#.utf8)) } throws: { error in
            "\(error)".contains("body:")
        }
    }

    @Test("chosen headers must match")
    func headers() async throws {
        let replay = FixtureReplay(
            [fixture("https://x/a", body: "v3", requestHeaders: [.accept: "application/vnd.v3+json"]),
             fixture("https://x/a", body: "v4", requestHeaders: [.accept: "application/vnd.v4+json"])],
            options: .init(matchedHeaders: [.accept]))
        let session = replay.makeSession()
        #expect(try await get(session, "https://x/a", headers: ["Accept": "application/vnd.v4+json"]).0 == "v4")
        #expect(try await get(session, "https://x/a", headers: ["Accept": "application/vnd.v3+json"]).0 == "v3")
    }

    @Test("a recorded redirect is followed to the recorded target, which the matcher sees")
    func redirect() async throws {
        let replay = FixtureReplay([
            fixture("https://api.github.com/repos/o/old", status: .movedPermanently, body: #"{"message":"Moved Permanently"}"#,
                    headers: [.contentType: "application/json", .location: "https://api.github.com/repositories/1000"]),
            fixture("https://api.github.com/repositories/1000", body: #"{"id":1000,"full_name":"o/new"}"#),
        ])
        var routes = URLModelMatcher()
        try routes.add("/repositories/#", Repository.self)
        let repository = try await replay.makeSession().model(
            from: try #require(URL(string: "https://api.github.com/repos/o/old")), serializer: ModelResponseSerializer(matcher: routes), as: Repository.self)
        #expect(repository.fullName == "o/new")
        try replay.verifyAllUsed()
    }

    @Test("HEAD is answered by the recorded GET, without a body")
    func head() async throws {
        let replay = FixtureReplay([fixture("https://x/a", body: #"{"big":true}"#)])
        let (body, status) = try await get(replay.makeSession(), "https://x/a", method: "HEAD")
        #expect(status == 200)
        #expect(body.isEmpty)
    }

    @Test("a session that outlives its replay's variable still never reaches the network")
    func outlives() async throws {
        let session = FixtureReplay([fixture("https://example.invalid/a", body: "kept")]).makeSession()
        #expect(try await get(session, "https://example.invalid/a").0 == "kept")
        await #expect(throws: FixtureReplay.MissError.self) { try await get(session, "https://example.invalid/other") }
    }

    @Test("a session made elsewhere can be given a replay")
    func install() async throws {
        let replay = FixtureReplay([fixture("https://x/a", body: "yes")])
        let configuration = URLSessionConfiguration.default
        replay.install(in: configuration)
        #expect(try await get(URLSession(configuration: configuration), "https://x/a").0 == "yes")
    }

    @Test("one path recorded with a thousand queries answers each request with its own interaction, in any order, markers included")
    func manyQueriesOnOnePath() throws {
        // Pages 0...999, every tenth recorded with a redacted token; page 7 also recorded twice
        // more, for the requests that repeat it.
        var fixtures = (0..<1_000).map { page in
            let token = page.isMultiple(of: 10) ? "&access_token=REDACTED" : ""
            return fixture("https://api.example.com/items?page=\(page)&per_page=100\(token)", body: "\(page)")
        }
        fixtures += [fixture("https://api.example.com/items?per_page=100&page=7", body: "7 again"), fixture("https://api.example.com/items?page=7&per_page=100", body: "7 last")]
        let replay = FixtureReplay(fixtures)
        func body(_ url: String) throws -> String {
            String(decoding: try replay.response(for: Fixture.Request(url: try #require(URL(string: url)))).response.body, as: UTF8.self)
        }
        for page in (0..<1_000).reversed() {
            let token = page.isMultiple(of: 10) ? "&access_token=t\(page)" : ""
            #expect(try body("https://api.example.com/items?per_page=100\(token)&page=\(page)") == "\(page)")
        }
        #expect(try body("https://api.example.com/items?page=7&per_page=100") == "7 again")
        #expect(try body("https://api.example.com/items?page=7&per_page=100") == "7 last")
        let miss = try #require(throws: FixtureReplay.MissError.self) { try body("https://api.example.com/items?page=7&per_page=100") }
        #expect(miss.usedUp == 3)
        // A token where none was recorded is another query.
        #expect(throws: FixtureReplay.MissError.self) { try body("https://api.example.com/items?page=1&per_page=100&access_token=x") }
        try replay.verifyAllUsed()
    }
}
