import Foundation
import HTTPTypes
import SculptTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Playback modes: what a cassette recording does with a request it lacks. A `FixtureServer` on
/// 127.0.0.1 stands in for the real API.
@Suite("Playback modes")
struct PlaybackModeTests {
    @Test("the environment's mode wins over the code's, which wins over strict", arguments: [
        ([:], nil, PlaybackMode.strict),
        ([:], .passthrough, .passthrough),
        (["SCULPT_PLAYBACK_MODE": "live"], .passthrough, .live),
        (["SCULPT_PLAYBACK_MODE": "PassThrough"], nil, .passthrough),
        (["SCULPT_PLAYBACK_MODE": ""], .live, .live),
    ] as [([String: String], PlaybackMode?, PlaybackMode)])
    func resolution(_ environment: [String: String], _ preferred: PlaybackMode?, _ expected: PlaybackMode) throws {
        #expect(try PlaybackMode.resolved(preferring: preferred, environment: environment) == expected)
    }

    @Test("a value that names no mode is an error listing the modes, the value escaped")
    func invalidName() {
        let error = #expect(throws: PlaybackMode.InvalidNameError.self) {
            try PlaybackMode.resolved(environment: ["SCULPT_PLAYBACK_MODE": "replay\nnow"])
        }
        #expect(error?.description == #"SCULPT_PLAYBACK_MODE="replay\nnow" names no playback mode; use one of strict, passthrough, live"#)
    }

    /// A cassette of one interaction, `GET /known` answered "from the cassette", in a new folder.
    static func cassette() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-playback-\(UUID())/known.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Cassette([try .stub(.get, "http://127.0.0.1/known", text: "from the cassette")]).encoded().write(to: file)
        return file
    }

    static func text(_ session: URLSession, _ url: URL) async throws -> String {
        String(decoding: try await session.data(from: url).0, as: UTF8.self)
    }

    @Test("passthrough replays what the cassette has and sends the rest to the network, keeping it only when the record mode records",
          arguments: [(RecordMode.once, false), (.newEpisodes, true)])
    func passthrough(_ mode: RecordMode, _ keeps: Bool) async throws {
        let file = try Self.cassette()
        let api = FixtureReplay([try .stub(.get, "/known", text: "from the network"), try .stub(.get, "/unknown", text: "from the network")])
        try await FixtureServer.running(api) { _, base in
            let recording = try CassetteRecording(file: file, mode: mode, playback: .passthrough, configuration: .unhurried)
            #expect(try await Self.text(recording.session, base.appending(path: "known")) == "from the cassette")
            #expect(try await Self.text(recording.session, base.appending(path: "unknown")) == "from the network")
            #expect(try recording.save() == keeps)
            let saved = try Cassette(contentsOf: file)
            #expect(saved.interactions.map(\.request.url.path) == (keeps ? ["/known", "/unknown"] : ["/known"]))
        }
    }

    @Test("cancelling a request passthrough sends to the network cancels it there; nothing is kept, and the session goes on")
    func passthroughCancelled() async throws {
        let file = try Self.cassette()
        let release = DispatchSemaphore(value: 0)
        let server = try ScriptedServer { head in
            // The slow request is answered once the test has seen it end, or after ten minutes.
            if head.hasPrefix("GET /slow ") { _ = release.wait(timeout: .now() + 600) }
            return "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nlate"
        }
        defer { server.stop() }
        let recording = try CassetteRecording(file: file, mode: .newEpisodes, playback: .passthrough, configuration: .unhurried)
        let ended = Locked<(any Error)??>(nil)
        let task = recording.session.dataTask(with: server.url("/slow")) { _, _, error in ended.withLock { $0 = .some(error) } }
        task.resume()
        while server.heads.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
        task.cancel()
        while ended.withLock({ $0 }) == nil { try await Task.sleep(for: .milliseconds(5)) }
        release.signal()
        let error = try #require(ended.withLock { $0 } ?? nil)
        #expect((error as? URLError)?.code == .cancelled)
        #expect(try await Self.text(recording.session, server.url("/known")) == "from the cassette", "the session still answers")
        #expect(try recording.save() == false, "nothing new is kept")
    }

    @Test("strict fails a request the cassette lacks when the record mode does not record, and never reaches the network")
    func strict() async throws {
        let file = try Self.cassette()
        let api = FixtureReplay([try .stub(.get, "/unknown", text: "from the network")])
        try await FixtureServer.running(api) { server, base in
            let recording = try CassetteRecording(file: file, mode: .once, playback: .strict, configuration: .unhurried)
            await #expect(throws: (any Error).self) { try await Self.text(recording.session, base.appending(path: "unknown")) }
            #expect(server.replay.unusedInteractions.count == 1)
        }
    }

    @Test("live neither reads nor writes the cassette, nor needs one in replay-only mode")
    func live() async throws {
        let file = try Self.cassette()
        let api = FixtureReplay([try .stub(.get, "/known", text: "from the network")])
        try await FixtureServer.running(api) { _, base in
            let recording = try CassetteRecording(file: file, mode: .newEpisodes, playback: .live, configuration: .unhurried)
            #expect(try await Self.text(recording.session, base.appending(path: "known")) == "from the network")
            #expect(try recording.save() == false)
            #expect(try Cassette(contentsOf: file).interactions.count == 1)
            let missing = file.deletingLastPathComponent().appending(path: "missing.json")
            _ = try CassetteRecording(file: missing, mode: .replayOnly, playback: .live)
            _ = try CassetteRecording(file: missing, mode: .replayOnly, playback: .passthrough)
            #expect(throws: CassetteRecording.MissingCassetteError.self) { try CassetteRecording(file: missing, mode: .replayOnly, playback: .strict) }
        }
    }

    @Test("in once mode a cassette missing when first opened is recorded by every recording of the process, each keeping its own requests")
    func onceRecordsForEveryTest() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-playback-\(UUID())/once.json")
        let api = FixtureReplay([try .stub(.get, "/a", text: "a"), try .stub(.get, "/b", text: "b")])
        try await FixtureServer.running(api) { _, base in
            let first = try CassetteRecording(file: file, mode: .once, configuration: .unhurried)
            #expect(try await Self.text(first.session, base.appending(path: "a")) == "a")
            try first.save()
            let second = try CassetteRecording(file: file, mode: .once, configuration: .unhurried)
            #expect(second.records && second.replay.interactions.count == 1)
            #expect(try await Self.text(second.session, base.appending(path: "b")) == "b")
            try second.save()
        }
        #expect(try Cassette(contentsOf: file).interactions.map(\.request.url.path) == ["/a", "/b"])
    }

    @Test("saving again writes only what was recorded since")
    func saveTwice() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-playback-\(UUID())/twice.json")
        let api = FixtureReplay([try .stub(.get, "/a", text: "a"), try .stub(.get, "/b", text: "b")])
        try await FixtureServer.running(api) { _, base in
            let recording = try CassetteRecording(file: file, mode: .all, configuration: .unhurried)
            #expect(try await Self.text(recording.session, base.appending(path: "a")) == "a")
            #expect(try recording.save())
            #expect(try recording.save() == false)
            #expect(try await Self.text(recording.session, base.appending(path: "b")) == "b")
            #expect(try recording.save())
        }
        #expect(try Cassette(contentsOf: file).interactions.map(\.request.url.path) == ["/a", "/b"])
    }

    @Test("two recordings of one cassette saved in one process keep both recordings' interactions")
    func recordingsAddUp() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "sculpt-playback-\(UUID())/shared.json")
        let api = FixtureReplay([try .stub(.get, "/a", text: "a"), try .stub(.get, "/b", text: "b")])
        try await FixtureServer.running(api) { _, base in
            let first = try CassetteRecording(file: file, mode: .all, configuration: .unhurried)
            let second = try CassetteRecording(file: file, mode: .all, configuration: .unhurried)
            #expect(try await Self.text(first.session, base.appending(path: "a")) == "a")
            #expect(try await Self.text(second.session, base.appending(path: "b")) == "b")
            try first.save()
            try second.save()
        }
        #expect(try Cassette(contentsOf: file).interactions.map(\.request.url.path) == ["/a", "/b"])
    }
}
