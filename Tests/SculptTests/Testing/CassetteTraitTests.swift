import Foundation
import HTTPTypes
import Sculpt
import SculptJSON
import SculptMatchers
import SculptTesting
import SculptTestingTraits
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The `.cassette` trait: each test (and each case of a parameterized one) gets a replay of its
/// own, reachable through `CassetteRecording.current`, checked for unused interactions at the end.
@Suite("The cassette trait")
struct CassetteTraitTests {
    /// The folder of the package's cassettes, from this file's folder.
    static let cassettes = "../../Fixtures/cassettes"

    struct Count: Decodable, Sendable {
        var count: Int
    }

    /// The counts that two requests to `/counter` get from the current recording.
    static func twoCounts() async throws -> [Int] {
        let session = try #require(CassetteRecording.current).session
        let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Count.self), decoder: SculptJSONDecoder())
        var counts: [Int] = []
        for _ in 0..<2 {
            let url = try #require(URL(string: "https://api.example.com/counter"))
            counts.append(try await session.model(from: url, serializer: serializer, as: Count.self).count)
        }
        return counts
    }

    @Test("a test under the trait replays its cassette through CassetteRecording.current", .cassette("counter", in: cassettes, mode: .replayOnly))
    func replays() async throws {
        #expect(try await Self.twoCounts() == [1, 2])
        let recording = try #require(CassetteRecording.current)
        #expect(recording.file.lastPathComponent == "counter.json")
        #expect(recording.playback == .strict || ProcessInfo.processInfo.environment[PlaybackMode.environmentVariable] != nil)
    }

    @Test("100 cases running at once each get the whole sequence: no case sees another's interactions",
          .cassette("counter", in: cassettes, mode: .replayOnly, playback: .strict), arguments: 0..<100)
    func parallelCasesAreIsolated(_ index: Int) async throws {
        #expect(try await Self.twoCounts() == [1, 2], "case \(index)")
    }

    @Test("cases of one test share a cassette: each replays it whole, and an interaction counts as used when any case used it",
          .cassette("counter", in: cassettes, mode: .replayOnly, playback: .strict), arguments: 1...2)
    func casesShareACassette(_ requests: Int) async throws {
        let session = try #require(CassetteRecording.current).session
        let url = try #require(URL(string: "https://api.example.com/counter"))
        for expected in 1...requests {
            #expect(String(decoding: try await session.data(from: url).0, as: UTF8.self).filter(\.isNumber) == "\(expected)")
        }
    }

    @Test("an interaction that no case under a scope used is reported once, for the scope")
    func unusedByEveryCase() async throws {
        let trait: CassetteTrait = .cassette("counter", in: Self.cassettes, mode: .replayOnly, playback: .strict)
        let test = try #require(Test.current)
        let testCase = try #require(Test.Case.current)
        let issues = Locked(0)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: nil) {
                for _ in 0..<2 {
                    try await trait.provideScope(for: test, testCase: testCase) {
                        let session = try #require(CassetteRecording.current).session
                        _ = try await session.data(from: try #require(URL(string: "https://api.example.com/counter")))
                    }
                }
            }
        } matching: { issue in
            issues.withLock { $0 += 1 }
            return String(describing: issue).contains("1 recorded interaction was not used: GET /counter (counter.json #1)")
        }
        #expect(issues.withLock { $0 } == 1)
    }

    @Test("tests that record one cassette one after another under one scope each keep their requests, and all count as used")
    func recordingInSeries() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-trait-\(UUID())").path
        let trait: CassetteTrait = .cassette("users", in: folder, mode: .once, playback: .strict)
        let test = try #require(Test.current)
        let testCase = try #require(Test.Case.current)
        let api = FixtureReplay([try .stub(.get, "/users/octocat", text: "octocat"), try .stub(.get, "/users/hubot", text: "hubot")])
        try await FixtureServer.running(api) { _, base in
            try await trait.provideScope(for: test, testCase: nil) {
                for name in ["octocat", "hubot"] {
                    try await trait.provideScope(for: test, testCase: testCase) {
                        let session = try #require(CassetteRecording.current).session
                        #expect(String(decoding: try await session.data(from: base.appending(path: "users/\(name)")).0, as: UTF8.self) == name)
                    }
                }
            }
        }
        #expect(try Cassette(contentsOf: try trait.file()).interactions.map(\.request.url.path) == ["/users/octocat", "/users/hubot"])
    }

    @Test("the record command quotes a test name holding a quote for the shell")
    func quotedCommand() {
        let error = CassetteRecording.MissingCassetteError(file: URL(filePath: "/x.json"), test: "Tests\\.`it's recorded`\\(\\)")
        #expect(error.recordCommand == #"SCULPT_RECORD_MODE=once swift test --filter 'Tests\.`it'\''s recorded`\(\)'"#)
    }

    @Test("outside the trait there is no current recording")
    func noCurrentOutside() {
        #expect(CassetteRecording.current == nil)
    }

    @Test("an interaction left unused is reported where the trait was written, after the test ran")
    func unusedIsReported() async throws {
        let trait: CassetteTrait = .cassette("counter", in: Self.cassettes, mode: .replayOnly, playback: .strict)
        let test = try #require(Test.current)
        let ran = Locked(false)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let session = try #require(CassetteRecording.current).session
                let url = try #require(URL(string: "https://api.example.com/counter"))
                _ = try await session.data(from: url)
                ran.withLock { $0 = true }
            }
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("cassette counter") && text.contains("1 recorded interaction") && issue.sourceLocation?.fileID == #fileID
        }
        #expect(ran.withLock { $0 })
    }

    @Test("a request the cassette has no answer for fails the test where the trait was written, even when the code under test caught its error")
    func caughtMissIsReported() async throws {
        let trait: CassetteTrait = .cassette("counter", in: Self.cassettes, mode: .replayOnly, playback: .strict, verifiesAllUsed: false)
        let test = try #require(Test.current)
        let caught = Locked(0)
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let session = try #require(CassetteRecording.current).session
                for path in ["/missing", "/also-missing"] {
                    do { _ = try await session.data(from: try #require(URL(string: "https://api.example.com\(path)"))) } catch { caught.withLock { $0 += 1 } }
                }
            }
        } matching: { issue in
            let text = String(describing: issue)
            return text.contains("cassette counter: a request had no recorded answer (and 1 more)") && text.contains("/missing") && issue.sourceLocation?.fileID == #fileID
        }
        #expect(caught.withLock { $0 } == 2)
    }

    @Test("verifiesAllUsed: false lets a test use part of a cassette")
    func unusedAllowed() async throws {
        let trait: CassetteTrait = .cassette("counter", in: Self.cassettes, mode: .replayOnly, playback: .strict, verifiesAllUsed: false)
        try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
            let session = try #require(CassetteRecording.current).session
            _ = try await session.data(from: try #require(URL(string: "https://api.example.com/counter")))
        }
    }

    @Test("a missing cassette in replay-only mode fails with the command that records it")
    func missingCassette() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-trait-\(UUID())").path
        let trait: CassetteTrait = .cassette("github/issues", in: folder, mode: .replayOnly, playback: .strict)
        let error = try await #require(throws: CassetteRecording.MissingCassetteError.self) {
            try await trait.provideScope(for: try #require(Test.current), testCase: Test.Case.current) {
                Issue.record("the test ran without its cassette")
            }
        }
        #expect(error.file.path == folder + "/github/issues.json")
        let command = #"SCULPT_RECORD_MODE=once swift test --filter 'SculptTests\.CassetteTraitTests/missingCassette\(\)'"#
        #expect(error.recordCommand == command)
        #expect(error.description.hasSuffix("record it with \(command)"))
    }

    @Test("the cassette file is found beside the source file that wrote the trait", arguments: [
        ("issues", "Cassettes", "/src/Tests/AppTests/Cassettes/issues.json"),
        ("issues.json", "Cassettes", "/src/Tests/AppTests/Cassettes/issues.json"),
        ("github/issues", "Recordings", "/src/Tests/AppTests/Recordings/github/issues.json"),
        ("issues.v2", "../Fixtures", "/src/Tests/AppTests/../Fixtures/issues.v2.json"),
        ("issues.JSON", "Cassettes", "/src/Tests/AppTests/Cassettes/issues.JSON"),
        ("issues", "/var/cassettes", "/var/cassettes/issues.json"),
    ])
    func fileLocation(_ name: String, _ folder: String, _ expected: String) throws {
        let trait: CassetteTrait = .cassette(name, in: folder, filePath: "/src/Tests/AppTests/IssueTests.swift")
        #expect(try trait.file().path == expected)
    }

    @Test("a name that leaves the folder or names no file is refused with what to write", arguments: [
        "", "/etc/passwd", "../secrets", "github/../../x", "github//issues", "issues/", "a\0b", ".", "github/./issues", ".json", "..json", "github/.hidden",
    ])
    func badNames(_ name: String) throws {
        let trait: CassetteTrait = .cassette(name, filePath: "/src/Tests/AppTests/IssueTests.swift")
        let error = try #require(throws: CassetteTrait.NameError.self) { try trait.file() }
        #expect(error.description.contains("names no file in the cassette folder"))
        #expect(error.description.contains(#"such as "github/issues""#))
        #expect(!error.description.contains("\0"))
    }

    /// A folder of its own for one test's cassettes.
    static func folder() -> String {
        FileManager.default.temporaryDirectory.appending(path: "sculpt-trait-\(UUID())").path
    }

    /// The issues `body` records, as text, each taken as known.
    static func issues(_ comment: Comment, in body: @Sendable () async throws -> Void) async throws -> [String] {
        let reported = Locked<[String]>([])
        try await withKnownIssue(comment) {
            try await body()
        } matching: { issue in
            reported.withLock { $0.append(String(describing: issue)) }
            return true
        }
        return reported.withLock { $0 }
    }

    /// What a test threw, by name.
    struct Thrown: Error, Equatable {
        var name: String
    }

    @Test("a test that throws after its first request keeps the recorded answers to the requests it did not reach", arguments: [RecordMode.all, .once])
    func throwingTestKeepsWhatItDidNotReach(_ mode: RecordMode) async throws {
        let api = FixtureReplay(try ["a", "b", "c"].map { try .stub(.get, "/items/\($0)", text: "new \($0)") }, options: .init(repeatsLastResponse: true))
        try await FixtureServer.running(api) { _, base in
            let trait: CassetteTrait = .cassette("items", in: Self.folder(), mode: mode, playback: .strict)
            let file = try trait.file()
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let old = try ["a", "b", "c"].map { try Fixture.stub(.get, base.appending(path: "items/\($0)").absoluteString, text: "old \($0)") }
            try Cassette(old).encoded().write(to: file)
            // In once mode a cassette that existed is replayed: the test records nothing and loses nothing.
            let test = try #require(Test.current)
            let testCase = Test.Case.current
            let thrown = try await #require(throws: Thrown.self) {
                try await trait.provideScope(for: test, testCase: testCase) {
                    let session = try #require(CassetteRecording.current).session
                    _ = try await session.data(from: base.appending(path: "items/a"))
                    throw Thrown(name: "stopped after a")
                }
            }
            #expect(thrown == Thrown(name: "stopped after a"))
            let kept = try Cassette(contentsOf: file).interactions.map { String(decoding: $0.response.body, as: UTF8.self) }
            #expect(kept == (mode == .all ? ["new a", "old b", "old c"] : ["old a", "old b", "old c"]))
        }
    }

    @Test("a save that fails after the test failed is reported beside the test's own failure, which is the one thrown, saying which file and why")
    func failedSaveAfterFailedTest() async throws {
        let blocker = FileManager.default.temporaryDirectory.appending(path: "sculpt-trait-\(UUID())")
        try Data("a file, not a folder".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let api = FixtureReplay([try .stub(.get, "/items/a", text: "a")])
        try await FixtureServer.running(api) { _, base in
            let trait: CassetteTrait = .cassette("items", in: blocker.appending(path: "cassettes").path, mode: .once, playback: .strict)
            let test = try #require(Test.current)
            let testCase = Test.Case.current
            let reported = try await Self.issues("the cassette cannot be written under a file") {
                let thrown = try await #require(throws: Thrown.self) {
                    try await trait.provideScope(for: test, testCase: testCase) {
                        _ = try await #require(CassetteRecording.current).session.data(from: base.appending(path: "items/a"))
                        throw Thrown(name: "the test's own failure")
                    }
                }
                #expect(thrown == Thrown(name: "the test's own failure"))
            }
            // Which file, and why, in the system's words: not Foundation's error dumped.
            #expect(reported.contains { $0.contains("cassette items was not saved: \(blocker.path)/cassettes/items.json: cannot be written: Not a directory") }, "\(reported)")
            #expect(reported.allSatisfy { !$0.contains("NSCocoaErrorDomain") }, "\(reported)")
        }
    }

    @Test("cases of one test that make the same request record it once, and the next run replays it to every case with nothing unused")
    func parallelCasesRecordOnce() async throws {
        let api = FixtureReplay([try .stub(.get, "/items/a", text: "a")], options: .init(repeatsLastResponse: true))
        try await FixtureServer.running(api) { _, base in
            let folder = Self.folder()
            let test = try #require(Test.current)
            let testCase = Test.Case.current
            for mode in [RecordMode.once, .replayOnly] {
                let trait: CassetteTrait = .cassette("same", in: folder, mode: mode, playback: .strict)
                try await trait.provideScope(for: test, testCase: nil) {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<4 {
                            group.addTask {
                                try await trait.provideScope(for: test, testCase: testCase) {
                                    let body = try await #require(CassetteRecording.current).session.data(from: base.appending(path: "items/a")).0
                                    #expect(String(decoding: body, as: UTF8.self) == "a")
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                #expect(try Cassette(contentsOf: try trait.file()).interactions.count == 1, "\(mode)")
            }
        }
    }

    @Test("cases that record the same request with different answers are told that a replay gives every case the first")
    func conflictingCasesAreReported() async throws {
        let api = FixtureReplay(try ["1", "2"].map { try .stub(.get, "/counter", text: $0) })
        try await FixtureServer.running(api) { _, base in
            let trait: CassetteTrait = .cassette("counter", in: Self.folder(), mode: .all, playback: .strict)
            let test = try #require(Test.current)
            let testCase = Test.Case.current
            let reported = try await Self.issues("the second case's answer differs from the first's") {
                try await trait.provideScope(for: test, testCase: nil) {
                    for _ in 0..<2 {
                        try await trait.provideScope(for: test, testCase: testCase) {
                            _ = try await #require(CassetteRecording.current).session.data(from: base.appending(path: "counter"))
                        }
                    }
                }
            }
            #expect(reported.contains { $0.contains("the tests or cases that share it recorded GET /counter with other responses") }, "\(reported)")
        }
    }

    @Test("the report of unused interactions shows the cassette's name escaped, as it shows its file")
    func unusedReportEscapesTheName() async throws {
        let folder = Self.folder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = "evil\u{1B}]0;title\u{7}"
        try Cassette([try .stub(.get, "/counter", text: "1")]).encoded().write(to: URL(filePath: folder).appending(path: "\(name).json"))
        let trait: CassetteTrait = .cassette(name, in: folder, mode: .replayOnly, playback: .strict)
        let test = try #require(Test.current)
        let testCase = Test.Case.current
        let text = try #require(try await Self.issues("the interaction is left unused") {
            try await trait.provideScope(for: test, testCase: testCase) {}
        }.first)
        #expect(text.contains(#"cassette evil\u{1B}]0;title\u{7}: 1 recorded interaction was not used"#), "\(text)")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test("the trait's texts redact the names its own redaction gives: an unused interaction and a miss")
    func ownNamesInTexts() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Cassette([try .stub(.get, "https://api.example.com/a?pin=Zq81vXk2Lm0Qa19", text: "1")]).encoded().write(to: URL(filePath: folder).appending(path: "pins.json"))
        let trait: CassetteTrait = .cassette("pins", in: folder, mode: .replayOnly, playback: .strict, redaction: Redaction(queryParameters: ["pin"]))
        let test = try #require(Test.current)
        let testCase = Test.Case.current
        let unused = try await Self.issues("the interaction is left unused") {
            try await trait.provideScope(for: test, testCase: testCase) {}
        }
        #expect(!unused.isEmpty && unused.allSatisfy { !$0.contains("Zq81vXk2") && $0.contains("pin=REDACTED") }, "\(unused)")
        let missed = try await Self.issues("the request is missed, and the recorded one left unused") {
            try await trait.provideScope(for: test, testCase: testCase) {
                let replay = try #require(CassetteRecording.current).replay
                let asked = Fixture.Request(url: try #require(URL(string: "https://api.example.com/b?pin=Qa19nBv72KxQa19")))
                let miss = #expect(throws: FixtureReplay.MissError.self) { try replay.response(for: asked) }
                Issue.record(Comment(rawValue: miss.map { "\($0)" } ?? ""))
            }
        }
        #expect(missed.count == 2 && missed.allSatisfy { !$0.contains("Qa19nBv72") && !$0.contains("Zq81vXk2") }, "\(missed)")
    }

    @Test("tests of a suite re-recording a shared cassette in all mode, one of them throwing, lose no answer and repeat none, whichever saves first", arguments: [false, true])
    func sharedCassetteRerecorded(throwingFirst: Bool) async throws {
        let api = FixtureReplay(try ["x", "y1", "y2"].map { try .stub(.get, "/\($0)", text: "new \($0)") }, options: .init(repeatsLastResponse: true))
        try await FixtureServer.running(api) { _, base in
            let trait: CassetteTrait = .cassette("shared", in: Self.folder(), mode: .all, playback: .strict)
            let file = try trait.file()
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Cassette(try ["x", "y1", "y2"].map { try Fixture.stub(.get, base.appending(path: $0).absoluteString, text: "old \($0)") }).encoded().write(to: file)
            let test = try #require(Test.current)
            let testCase = Test.Case.current
            let succeeding: @Sendable () async throws -> Void = {
                try await trait.provideScope(for: test, testCase: testCase) {
                    _ = try await #require(CassetteRecording.current).session.data(from: base.appending(path: "x"))
                }
            }
            let throwing: @Sendable () async throws -> Void = {
                try await trait.provideScope(for: test, testCase: testCase) {
                    _ = try await #require(CassetteRecording.current).session.data(from: base.appending(path: "y1"))
                    throw Thrown(name: "stopped after y1")
                }
            }
            await #expect(throws: Thrown.self) {
                try await trait.provideScope(for: test, testCase: nil) {
                    if throwingFirst {
                        do { try await throwing() } catch {}
                        try await succeeding()
                        throw Thrown(name: "a test failed")
                    }
                    try await succeeding()
                    try await throwing()
                }
            }
            let bodies = try Cassette(contentsOf: file).interactions.map { String(decoding: $0.response.body, as: UTF8.self) }
            #expect(Set(bodies) == ["new x", "new y1", "old y2"], "\(bodies)")
            #expect(bodies.count == 3, "\(bodies)")
        }
    }
    @Test("a test or case that makes a request more often than the others sharing its cassette keeps every answer it needs, and the next run replays each whole",
          arguments: [[1, 2], [2, 1], [1, 3, 2]], [RecordMode.once, .all, .newEpisodes])
    func repeatedRequestsAreKept(_ counts: [Int], _ mode: RecordMode) async throws {
        let api = FixtureReplay([try .stub(.get, "/c", text: "c")], options: .init(repeatsLastResponse: true))
        try await FixtureServer.running(api) { _, base in
            let test = try #require(Test.current)
            let testCase = Test.Case.current
            for together in [false, true] {
                let folder = Self.folder()
                for run in [mode, .replayOnly] {
                    let trait: CassetteTrait = .cassette("repeated", in: folder, mode: run, playback: .strict)
                    let requests: @Sendable (Int) async throws -> Void = { count in
                        try await trait.provideScope(for: test, testCase: testCase) {
                            for _ in 0..<count {
                                _ = try await #require(CassetteRecording.current).session.data(from: base.appending(path: "c"))
                            }
                        }
                    }
                    try await trait.provideScope(for: test, testCase: nil) {
                        if together {
                            try await withThrowingTaskGroup(of: Void.self) { group in
                                for count in counts { group.addTask { try await requests(count) } }
                                try await group.waitForAll()
                            }
                        } else {
                            for count in counts { try await requests(count) }
                        }
                    }
                    #expect(try Cassette(contentsOf: try trait.file()).interactions.count == counts.max(), "\(run), together: \(together)")
                }
            }
        }
    }

    @Test("a test that throws before recording anything in all mode keeps the cassette's answers to its requests for the next run", arguments: [false, true])
    func throwingBeforeRecording(throwingFirst: Bool) async throws {
        let api = FixtureReplay(try ["a", "b"].map { try .stub(.get, "/\($0)", text: "new \($0)") }, options: .init(repeatsLastResponse: true))
        try await FixtureServer.running(api) { _, base in
            let folder = Self.folder()
            let test = try #require(Test.current)
            let testCase = Test.Case.current
            let trait: CassetteTrait = .cassette("suite", in: folder, mode: .all, playback: .strict)
            let file = try trait.file()
            let old = try ["a", "b"].map { try Fixture.stub(.get, base.appending(path: $0).absoluteString, text: "old \($0)") }
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Cassette(old).encoded().write(to: file)
            let first: @Sendable () async throws -> Void = {
                try await trait.provideScope(for: test, testCase: testCase) {
                    _ = try await #require(CassetteRecording.current).session.data(from: base.appending(path: "a"))
                }
            }
            let second: @Sendable () async throws -> Void = {
                try await trait.provideScope(for: test, testCase: testCase) { throw Thrown(name: "before its request") }
            }
            await #expect(throws: Thrown.self) {
                try await trait.provideScope(for: test, testCase: nil) {
                    if throwingFirst {
                        do { try await second() } catch {}
                        try await first()
                    } else {
                        try await first()
                        try await second()
                    }
                    throw Thrown(name: "a test failed")
                }
            }
            let bodies = try Cassette(contentsOf: file).interactions.map { String(decoding: $0.response.body, as: UTF8.self) }
            #expect(Set(bodies) == ["new a", "old b"], "\(bodies)")
        }
    }

    @Test("a test that throws before recording leaves no cassette behind, which would keep the next run from recording", arguments: [RecordMode.once, .all])
    func throwingBeforeAnyCassette(_ mode: RecordMode) async throws {
        let api = FixtureReplay([try .stub(.get, "/c", text: "c")], options: .init(repeatsLastResponse: true))
        try await FixtureServer.running(api) { _, base in
            let folder = Self.folder()
            let test = try #require(Test.current)
            let testCase = Test.Case.current
            let trait: CassetteTrait = .cassette("missing", in: folder, mode: mode, playback: .strict)
            await #expect(throws: Thrown.self) {
                try await trait.provideScope(for: test, testCase: testCase) { throw Thrown(name: "before its request") }
            }
            #expect(!FileManager.default.fileExists(atPath: try trait.file().path))
        }
    }
}
