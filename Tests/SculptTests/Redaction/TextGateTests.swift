import Foundation
import HTTPTypes
import Sculpt
import SculptJSON
import SculptLoading
import SculptMatchers
import SculptShared
import SculptTesting
import SculptTestingTraits
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every text Sculpt gives a person or a log passes one gate (`ShownText`): the table below plants
/// every credential shape the vocabulary knows, named secrets and terminal escapes in every input
/// each public text can quote, and reads what comes out. A public declaration of text that is in
/// neither the table nor the list of data fails the first test: a new channel joins the table.
@Suite("Every text passes one gate")
struct TextGateTests {
    /// A public text-producing API and how to make it speak with planted inputs.
    struct Channel: Sendable, CustomTestStringConvertible {
        let name: String
        /// The public declarations (`Type.member`) or the outputs (`sculpt check`) it reads.
        let covers: [String]
        let texts: @Sendable () async throws -> [String]

        var testDescription: String { name }
    }

    @Test("every public declaration of text is a channel in the table or named as data")
    func everyTextIsClassified() throws {
        let declared = try PublicText.declarations()
        let channels = Set(Self.channels.flatMap(\.covers))
        let unclassified = declared.subtracting(channels).subtracting(Self.data.keys)
        #expect(unclassified.isEmpty, "a public text no row covers and no entry names as data: \(unclassified.sorted())")
        let stale = Set(Self.data.keys).union(channels.filter { $0.contains(".") }).subtracting(declared)
        #expect(stale.isEmpty, "entries for declarations that no longer exist: \(stale.sorted())")
        #expect(channels.isDisjoint(with: Self.data.keys), "\(channels.intersection(Self.data.keys).sorted())")
        #expect(channels.isSuperset(of: Self.outputs), "\(Self.outputs.subtracting(channels).sorted())")
    }

    @Test("the planted credentials are every shape the vocabulary knows")
    func everyShapeIsPlanted() {
        let found = Set(Planted.credentials.flatMap { CredentialShape.find(in: Array($0.token.utf8)).map(\.kind) })
        #expect(found == Set(CredentialShape.known.map(\.kind) + ["a JWT", "a private key"]))
        #expect(Planted.credentials.allSatisfy { CredentialShape.find(in: Array($0.token.utf8)).count == 1 }, "each is one credential whole")
    }

    @Test("the command writes only through the gate, and the trait records only gated issues")
    func outputsPassTheGate() throws {
        for file in try PublicText.sources(under: "Sources/SculptCommand") where !file.path.hasSuffix("/Console.swift") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for writer in ["print(", "FileHandle.standardOutput", "FileHandle.standardError", "fputs("] {
                #expect(!text.contains(writer), "\(file.lastPathComponent) writes with \(writer) rather than Console")
            }
        }
        for file in try PublicText.sources(under: "Sources/SculptTestingTraits") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for record in text.ranges(of: "Issue.record(") {
                #expect(text[record.upperBound...].hasPrefix("Comment(rawValue: ShownText."), "\(file.lastPathComponent) records an issue that skips the gate")
            }
        }
    }

    @Test("no channel shows a planted secret or a raw control character", arguments: channels)
    func channel(_ channel: Channel) async throws {
        let texts = try await channel.texts()
        #expect(!texts.isEmpty)
        for text in texts {
            #expect(Planted.leaks(in: text).isEmpty, "\(channel.name) shows \(Planted.leaks(in: text)): \(text)")
        }
    }

    /// Outputs that are not declarations: each must be in a row.
    static let outputs: Set<String> = [
        "sculpt check", "sculpt diff", "sculpt import-har", "sculpt serve", "sculpt record", "FixtureServer miss", "CassetteTrait issue",
    ]

    /// Public text that is data for code, not a text made for a person, with why.
    static let data: [String: String] = [
        "ModelType.keyPath": "the key path as the code wrote it",
        "SculptError.Reason.name": "a case's name",
        "SculptError.KeyPathMiss.keyPath": "the key path as the code wrote it",
        "SculptError.KeyPathMiss.failedAt": "the part of the code's key path that failed",
        "SculptError.KeyPathMiss.availableKeys": "the body's keys, for code to compare",
        "SculptError.KeyPathMiss.found": "what the body held, for code to compare",
        "ModelKeyPath.SyntaxError.keyPath": "the input as given",
        "ModelKeyPath.SyntaxError.reason": "a part of the error's description, which passes the gate",
        "ModelKeyPath.description": "the key path in its syntax, which parses back to it",
        "ElementFailure.tag": "the element's tag as the body has it, for code to compare",
        "JSONValue.description": "a decoded value's own JSON text, as printing a model shows the model",
        "TypeFieldFamily.field": "the code's field name",
        "CassetteTrait.name": "the input as given",
        "CassetteTrait.folder": "the input as given",
        "CassetteTrait.filePath": "the input as given",
        "CassetteTrait.NameError.name": "the input as given",
        "URLModelMatcher.Ambiguity.example": "a path the code's patterns make, for code",
        "URLModelMatcher.Ambiguity.reason": "a part of the ambiguity's description, which passes the gate",
        "URLModelMatcher.Explanation.path": "the path as matched, for code; the description shows it through the gate",
        "URLModelMatcher.Explanation.segments": "the segments as matched, for code",
        "URLPattern.ParameterError.pattern": "the input as given",
        "URLPattern.ParameterError.reason": "a part of the error's description, which passes the gate",
        "URLPattern.path": "a path built from the caller's values, to send",
        "URLPattern.SyntaxError.pattern": "the input as given",
        "URLPattern.SyntaxError.reason": "a part of the error's description, which passes the gate",
        "URLPattern.parameterNames": "the code's names",
        "URLPattern.description": "the pattern in normal form, which compiles back to it",
        "TypeFieldModelMatcher.field": "the code's field name",
        "TypeFieldModelMatcher.registeredValues": "the code's values",
        "Endpoint.keyPath": "the key path as the code wrote it",
        "EndpointRequest.path": "a path built from the caller's values, to send",
        "Fixture.FormatError.reason": "a part of the error's description, which passes the gate",
        "Fixture.source": "where the fixture came from, as given",
        "RecordingFileError.path": "the input as given",
        "RecordingFileError.reason": "a part of the error's description, which passes the gate",
        "HARArchive.Skipped.reason": "a part of the entry's description, which passes the gate",
        "CassetteRecording.MissingCassetteError.test": "the input as given",
        "PlaybackMode.description": "the mode's name",
        "PlaybackMode.InvalidNameError.name": "the input as given",
        "RecordMode.description": "the mode's name",
        "RecordMode.InvalidNameError.name": "the input as given",
        "MappingReport.Mapping.unreadMembers": "the body's member names as paths, for code to compare",
    ]

    // MARK: - The table

    static let channels: [Channel] = [
        Channel(name: "a failed match: its description, diagnosis and nearest routes", covers: [
            "SculptError.description", "SculptError.diagnosis", "URLModelMatcher.diagnosis", "URLModelMatcher.nearestCandidates",
            "ResponseContext.description", "ModelMatcher.diagnosis", "ModelMatcher.nearestCandidates", "ModelMatcher.matchedRoute",
        ]) {
            let routes = try Planted.routes()
            let serializer = ModelResponseSerializer(matcher: routes)
            var texts: [String] = []
            for url in [Planted.url, Planted.unprefixedURL, try #require(URL(string: "https://h/api" + Planted.url.path(percentEncoded: true)))] {
                let context = ResponseContext(url: url, method: .get, status: .ok, headerFields: Planted.fields)
                for error in [Planted.failure { try serializer.serialize(Planted.body, for: context, as: Account.self) },
                              Planted.failure { try serializer.serialize(Planted.body, for: context, as: [Account].self) }] {
                    texts += [error.description] + error.diagnosis
                }
                texts += routes.diagnosis(for: context, data: Planted.body, resolved: nil, expected: Account.self)
                texts += routes.diagnosis(for: context, data: Planted.body, resolved: ModelType(Account.self), expected: [Account].self)
                texts += routes.nearestCandidates(for: context)
                texts.append(context.description)
                let plain = PlainMatcher()
                texts += plain.diagnosis(for: context, data: Planted.body, resolved: nil, expected: nil) + plain.nearestCandidates(for: context)
                texts += [plain.matchedRoute(for: context, data: Planted.body)].compactMap { $0 }
            }
            return texts
        },
        Channel(name: "decoding events and element failures, under both decoders", covers: [
            "DecodingEvent.description", "DecodingEvent.codingPath", "DecodingEvent.reason", "DecodingEvent.route", "DecodingEvent.method",
            "DecodingEvent.url", "DecodingEvent.Kind.description", "ElementFailure.description",
        ]) {
            let heard = Locked<[DecodingEvent]>([])
            var texts: [String] = []
            var byTag = TypeFieldModelMatcher(field: "type")
            byTag.fallback = ModelType(JSONValue.self)
            for decoder: any ModelDecoder in [JSONDecoder(), SculptJSONDecoder()] {
                let context = ResponseContext(url: Planted.url, method: .get, status: .ok, headerFields: Planted.fields)
                var lossy = ModelResponseSerializer(matcher: StaticModelMatcher(LossEnvelope.self), decoder: decoder)
                lossy.decodingObserver = { event in heard.withLock { $0.append(event) } }
                let envelope = try lossy.serialize(Planted.eventBody, for: context, as: LossEnvelope.self)
                texts += envelope.refused.failures.map(\.description) + envelope.kinds.skipped.map(\.description)
                var whole = ModelResponseSerializer(matcher: StaticModelMatcher(Lossy<Refusing>.self), decoder: decoder)
                whole.decodingObserver = { event in heard.withLock { $0.append(event) } }
                _ = try whole.serialize(Planted.body, for: context, as: Lossy<Refusing>.self)
                var tagged = ModelResponseSerializer(matcher: byTag, decoder: decoder)
                tagged.decodingObserver = { event in heard.withLock { $0.append(event) } }
                _ = try tagged.serialize(Planted.body, for: context)
            }
            let events = heard.withLock { $0 }
            #expect(events.count >= 8, "\(events)")
            for event in events {
                texts += [event.description, event.codingPath, event.url, event.kind.description] + [event.reason, event.route, event.method].compactMap { $0 }
            }
            return texts
        },
        Channel(name: "a type-field matcher and a first-match matcher", covers: [
            "TypeFieldModelMatcher.matchedRoute", "TypeFieldModelMatcher.nearestCandidates", "FirstMatchModelMatcher.nearestCandidates",
            "FirstMatchModelMatcher.diagnosis", "FirstMatchModelMatcher.matchedRoute",
        ]) {
            var byTag = TypeFieldModelMatcher(field: "type")
            try byTag.add(Planted.credential("gho_") + Planted.escape, Account.self)
            let first = FirstMatchModelMatcher([byTag, try Planted.routes()])
            let context = ResponseContext(url: Planted.url, method: .get, status: .ok, headerFields: Planted.fields)
            let known = Data(#"{"type": "\#(Planted.credential("gho_"))\u001B]0;pwned\u0007"}"#.utf8)
            var texts = byTag.nearestCandidates(for: context) + first.nearestCandidates(for: context)
            texts += [byTag.matchedRoute(for: context, data: known), first.matchedRoute(for: context, data: known)].compactMap { $0 }
            texts += first.diagnosis(for: context, data: Planted.body, resolved: nil, expected: Account.self)
            let unknown = Planted.failure { try ModelResponseSerializer(matcher: byTag).serialize(Planted.body, for: context) }
            return texts + [unknown.description] + unknown.diagnosis
        },
        Channel(name: "a URL matcher's explanations, routes, ambiguities and endpoints", covers: [
            "URLModelMatcher.Explanation.description", "URLModelMatcher.Explanation.Candidate.description", "URLModelMatcher.Route.description",
            "URLModelMatcher.matchedRoute", "URLModelMatcher.Ambiguity.description", "Endpoint.description",
        ]) {
            let routes = try Planted.routes()
            let context = ResponseContext(url: Planted.url, method: .get, status: .ok)
            let explanations = [routes.explain(Planted.url, method: .get), routes.explain(Planted.unprefixedURL)]
            var texts = explanations.map(\.description) + explanations.flatMap { $0.candidates.map(\.description) }
            texts += routes.routes.map(\.description) + routes.ambiguities().map(\.description)
            texts += [routes.matchedRoute(for: context, data: Planted.body)].compactMap { $0 }
            texts.append(Endpoint<Account>(.post, "/keys/\(Planted.credential("ghu_"))/{id}", status: .created).description)
            texts.append(Endpoint<Account>("/a/**/\(Planted.credential("ghu_"))").description)
            return texts
        },
        Channel(name: "pattern, parameter, key path and model type texts", covers: [
            "URLPattern.SyntaxError.description", "URLPattern.ParameterError.description", "ModelKeyPath.SyntaxError.description",
            "ModelType.description",
        ]) {
            var texts: [String] = []
            let token = Planted.credential("ghr_") + Planted.escape
            for pattern in ["/a/**/\(token)", "/{\(token)}", "/:\(token)", "/v{\(token)}"] {
                do { _ = try URLPattern(pattern) } catch { texts.append("\(error)") }
            }
            do { _ = try Endpoint<Account>("/keys/{id}")([token: 1, "id": token]) } catch { texts.append("\(error)") }
            do { _ = try ModelKeyPath("a..\(token)") } catch { texts.append("\(error)") }
            texts.append(ModelType(Account.self, at: "data.\(token)").description)
            return texts
        },
        Channel(name: "a page error", covers: ["PageError.description"]) {
            let underlying = URLError(.badServerResponse, userInfo: [NSURLErrorFailingURLErrorKey: Planted.url, NSLocalizedDescriptionKey: "failed at \(Planted.url)\(Planted.escape)"])
            return [PageError(page: 2, url: Planted.url, underlying: underlying).description]
        },
        Channel(name: "fixtures, their format errors and mapping errors", covers: [
            "Fixture.description", "Fixture.FormatError.description", "Fixture.MappingError.description", "Fixture.MappingError.decision",
            "RecordingFileError.description",
        ]) {
            let named = "\(Planted.credential("ghp_"))\(Planted.escape)"
            let fixture = Fixture(request: .init(url: Planted.url, headerFields: Planted.fields), response: .init(headerFields: Planted.fields, body: Planted.body), source: named)
            var texts = [fixture.description]
            let folder = try Planted.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appending(path: "\(named).json")
            try Data(#"{"request": {"url": "https://h/\#(Planted.credential("ghp_"))", "method": "\#(Planted.credential("xoxp-"))"}, "response": {"status": 200}}"#.utf8).write(to: file)
            do { _ = try Fixture(contentsOf: file) } catch { texts.append("\(error)") }
            do { _ = try Fixture(json: Data("{\"request\": \(Planted.credential("xoxp-"))".utf8)) } catch { texts.append("\(error)") }
            do { _ = try fixture.model(serializer: ModelResponseSerializer(matcher: try Planted.routes()), as: Account.self) } catch let error as Fixture.MappingError {
                texts += [error.description, error.decision]
            }
            do { _ = try fixture.model(serializer: ModelResponseSerializer(matcher: ThrowingMatcher())) } catch let error as Fixture.MappingError {
                texts += [error.description, error.decision]
            }
            texts.append(RecordingFileError(path: "/tmp/\(named)", reason: "holds \(Planted.credential("xoxa-"))").description)
            return texts
        },
        Channel(name: "a HAR archive's skipped entries", covers: ["HARArchive.Skipped.description", "HARArchive.Skipped.url"]) {
            let archive = try HARArchive(json: Planted.archive(status: 0))
            return archive.skipped.flatMap { [$0.description] + [$0.url].compactMap { $0 } }
        },
        Channel(name: "replay misses, unused interactions, matching rules and served requests", covers: [
            "FixtureReplay.MissError.description", "FixtureReplay.MissError.Candidate.differences", "FixtureReplay.UnusedInteractionsError.description",
            "RequestMatching.description", "ServedRequest.description", "ServedRequest.target",
        ]) {
            let recorded = Fixture(request: .init(url: Planted.url, headerFields: Planted.fields), response: .init(body: Planted.body), source: "\(Planted.credential("ghp_"))\(Planted.escape)")
            let replay = FixtureReplay([recorded], options: .init(matching: [.methodAndPath, .query, .headers(.authorization, HTTPField.Name("X-Note")!)]))
            var texts: [String] = []
            let other = try #require(URL(string: Planted.url.absoluteString.replacingOccurrences(of: "token=", with: "token=x")))
            for request in [Fixture.Request(url: other, headerFields: Planted.fields), Fixture.Request(method: .post, url: Planted.url)] {
                do { _ = try replay.response(for: request) } catch let error as FixtureReplay.MissError { texts += [error.description] + error.nearest.flatMap(\.differences) }
            }
            do { try replay.verifyAllUsed() } catch { texts.append("\(error)") }
            texts.append(RequestMatching.custom("\(Planted.credential("ghp_"))\(Planted.escape)") { _, _ in true }.description)
            let served = ServedRequest(method: .get, target: "/users/\(Planted.credential("ghp_"))?token=\(Planted.queryToken)&state=\(Planted.queryToken)\(Planted.escape)", status: 404, outcome: .failed(reason: Planted.credential("xoxr-")))
            return texts + [served.description, served.target]
        },
        Channel(name: "cassette errors, record and playback modes, and cassette names", covers: [
            "CassetteRecording.MissingCassetteError.description", "CassetteRecording.MissingCassetteError.recordCommand",
            "RecordMode.InvalidNameError.description", "PlaybackMode.InvalidNameError.description", "CassetteTrait.NameError.description",
        ]) {
            let named = "\(Planted.credential("ghp_"))\(Planted.escape)"
            let missing = CassetteRecording.MissingCassetteError(file: URL(filePath: "/tmp/\(named).json"), test: named)
            var texts = [missing.description, missing.recordCommand]
            do { _ = try RecordMode.resolved(environment: [RecordMode.environmentVariable: named]) } catch { texts.append("\(error)") }
            do { _ = try PlaybackMode.resolved(environment: [PlaybackMode.environmentVariable: named]) } catch { texts.append("\(error)") }
            do { _ = try CassetteTrait.cassette("/\(named)").file() } catch { texts.append("\(error)") }
            return texts
        },
        Channel(name: "the cassette trait's issues", covers: ["CassetteTrait issue"]) {
            let folder = try Planted.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let name = "\(Planted.credential("ghp_"))\(Planted.escape)"
            try Cassette([Fixture(request: .init(url: Planted.url), response: .init(body: Planted.body))]).encoded().write(to: folder.appending(path: "\(name).json"))
            let trait: CassetteTrait = .cassette(name, in: folder.path(percentEncoded: false), mode: .replayOnly, playback: .strict)
            let test = try #require(Test.current)
            let testCase = Test.Case.current
            let issues = Locked<[String]>([])
            try await withKnownIssue("an interaction left unused is reported, and a request the cassette lacks") {
                try await trait.provideScope(for: test, testCase: nil) {
                    try await trait.provideScope(for: test, testCase: testCase) {
                        var request = URLRequest(url: Planted.url)
                        request.httpMethod = "POST"
                        for field in Planted.fields { request.setValue(field.value, forHTTPHeaderField: field.name.rawName) }
                        _ = try? await #require(CassetteRecording.current).session.data(for: request)
                    }
                }
            } matching: { issue in
                issues.withLock { $0.append(String(describing: issue)) }
                return true
            }
            return issues.withLock { $0 }
        },
        Channel(name: "recording diffs", covers: ["RecordingDiff.Change.description", "RecordingDiff.Change.interaction", "RecordingDiff.description"]) {
            let member = "\(Planted.credential("ghp_"))\(Planted.escape)"
            let old = Fixture(request: .init(url: Planted.url), response: .init(headerFields: [.contentType: "application/json"], body: Data(#"{"\#(member.debugDescription.dropFirst().dropLast())": 1, "token": "x"}"#.utf8)))
            let new = Fixture(request: .init(url: Planted.url), response: .init(status: .created, headerFields: [.contentType: "text/\(Planted.credential("xoxs-"))"], body: Data(#"{"token": 2}"#.utf8)))
            let gone = Fixture(request: .init(url: Planted.unprefixedURL), response: .init())
            let diff = RecordingDiff(old: [old, gone], new: [new])
            return [diff.description] + diff.changes.flatMap { [$0.description, $0.interaction] }
        },
        Channel(name: "mapping reports", covers: [
            "MappingReport.description", "MappingReport.Mapping.description", "MappingReport.Failure.description", "MappingReport.unreadableFiles",
        ]) {
            let serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Account.self), decoder: SculptJSONDecoder())
            let unread = Data(#"{"id": 1, "\#(Planted.credential("ghp_"))": "\#(Planted.credential("xoxe-"))"}"#.utf8)
            let fixtures = [
                Fixture(request: .init(url: Planted.url), response: .init(headerFields: [.contentType: "application/json"], body: unread)),
                Fixture(request: .init(url: Planted.url), response: .init(headerFields: [.contentType: "application/json"], body: Planted.body)),
            ]
            let report = MappingReport(fixtures: fixtures, serializer: serializer)
            let folder = try Planted.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try Data("not json \(Planted.credential("ghp_"))".utf8).write(to: folder.appending(path: "\(Planted.credential("ghp_"))\(Planted.escape).json"))
            let unreadable = try MappingReport(contentsOf: [folder], serializer: serializer)
            return [report.description, unreadable.description] + report.mappings.map(\.description) + report.failures.map(\.description) + unreadable.unreadableFiles
        },
        Channel(name: "secret scan findings", covers: ["SecretScan.Finding.path", "SecretScan.Finding.kind", "SecretScan.Finding.shown"]) {
            let findings = SecretScan.findings(inJSON: Planted.fixtureFile())
            #expect(!findings.isEmpty)
            return findings.flatMap { [$0.path, $0.kind, $0.shown] }
        },
        Channel(name: "sculpt check, diff and import-har", covers: ["sculpt check", "sculpt diff", "sculpt import-har"]) {
            let folder = try Planted.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let named = folder.appending(path: "\(Planted.credential("ghp_"))\(Planted.escape).json")
            try Planted.fixtureFile().write(to: named)
            let other = folder.appending(path: "other.json")
            try Fixture(request: .init(url: Planted.unprefixedURL), response: .init(body: Data("{}".utf8))).encoded().write(to: other)
            let archive = folder.appending(path: "\(Planted.credential("xoxb-")).har")
            try Planted.archive(status: 200).write(to: archive)
            var texts: [String] = []
            for arguments in [["check", named.path(percentEncoded: false)], ["diff", named.path(percentEncoded: false), other.path(percentEncoded: false)],
                              ["import-har", archive.path(percentEncoded: false), "--out", folder.appending(path: "out").path(percentEncoded: false)],
                              ["check", folder.appending(path: "\(Planted.credential("ghp_"))-missing").path(percentEncoded: false)]] {
                let run = try await CommandProcess.run(arguments)
                texts += [run.output, run.errors]
            }
            return texts
        },
        Channel(name: "sculpt serve and record logs, and a FixtureServer's miss", covers: ["sculpt serve", "sculpt record", "FixtureServer miss"]) {
            let folder = try Planted.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let fixture = Fixture(request: .init(url: Planted.url), response: .init(body: Planted.body))
            try fixture.encoded().write(to: folder.appending(path: "recorded.json"))
            let session = URLSession(configuration: .unhurried)
            defer { session.invalidateAndCancel() }
            let path = "users/\(Planted.credential("ghp_"))/x?token=\(Planted.queryToken)&note=\(Planted.credential("xoxb-"))"
            var texts: [String] = []
            let serve = try CommandProcess(["serve", folder.path(percentEncoded: false), "--port", "0"])
            let base = try await ServeCommandTests.baseURL(of: serve, after: "Serving")
            let (missBody, _) = try await session.data(from: try #require(URL(string: base.absoluteString + "/" + path)))
            texts += [String(decoding: missBody, as: UTF8.self), try await serve.line(containing: "missed")]
            serve.send(SIGINT)
            _ = await serve.exit()
            texts += [serve.standardOutput, serve.standardError]

            let target = FixtureServer(fixtures: [fixture])
            let targetURL = try await target.start()
            let record = try CommandProcess(["record", "--target", targetURL.absoluteString, "--out", folder.appending(path: "session.json").path(percentEncoded: false)])
            let proxy = try await ServeCommandTests.baseURL(of: record, after: "Recording")
            _ = try await session.data(from: try #require(URL(string: proxy.absoluteString + "/" + path)))
            texts.append(try await record.line(containing: "GET /users/"))
            record.send(SIGINT)
            _ = await record.exit()
            await target.stop()
            return texts + [record.standardOutput, record.standardError]
        },
    ]
}

/// The public declarations of text in Sources: every `public` property or function whose type is
/// `String`, `String?` or `[String]`, named `Type.member` by the types it is declared in.
enum PublicText {
    static func sources(under folder: String) throws -> [URL] {
        let root = Paths.packageRoot.appending(path: folder)
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "swift" }
    }

    static func declarations() throws -> Set<String> {
        let typeLine = /^(\s*)(?:(?:public|package|private|fileprivate|internal|final|@\w+) )*(?:struct|enum|class|actor|protocol|extension) ([A-Za-z_.]+)/
        let declaration = /^(\s*)public (?:static )?(?:var|let|func) ([A-Za-z_]+)\b(.*)$/
        let returnsText = /->\s*(\[String\]|String\??)\s*(\{|$|where)/
        let typedText = /^\s*:\s*(\[String\]|String\??)\s*(\{|=|$)/
        var names: Set<String> = []
        for file in try sources(under: "Sources") {
            var enclosing: [(indent: Int, name: String)] = []
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                if let type = line.firstMatch(of: typeLine) {
                    enclosing.removeAll { $0.indent >= type.1.count }
                    enclosing.append((type.1.count, String(type.2)))
                    continue
                }
                guard let member = line.firstMatch(of: declaration) else { continue }
                let rest = member.3
                guard rest.firstMatch(of: returnsText) != nil || rest.firstMatch(of: typedText) != nil else { continue }
                enclosing.removeAll { $0.indent >= member.1.count }
                names.insert((enclosing.map(\.name) + [String(member.2)]).joined(separator: "."))
            }
        }
        return names
    }
}

// MARK: - What the table plants

/// A model the planted routes give.
struct Account: Decodable, Sendable {
    var id: Int
}

/// A model whose own decoding throws an error with no coding path that quotes the body, as a
/// model's `init(from:)` may.
struct Refusing: Decodable, Sendable {
    init(from decoder: any Decoder) throws {
        let quoted = (try? decoder.singleValueContainer().decode([String: JSONValue].self)).map { "\($0)" } ?? "?"
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "refused \(quoted)"))
    }
}

/// A family whose tags the planted bodies do not register.
enum PlantedFamily: TypeFieldFamily {
    static let types: [String: any (Decodable & Sendable).Type] = ["account": Account.self]
    static var fallback: (any (Decodable & Sendable).Type)? { Account.self }
}

/// What the planted event body decodes to: every kind of loss an observer hears of.
struct LossEnvelope: Decodable, Sendable {
    var refused: LossyArray<Refusing>
    var dropped: Lossy<Refusing>
    var kinds: LossyPolymorphicArray<PlantedFamily>
    var fallbacks: PolymorphicArray<FallbackFamily>
}

/// A family whose fallback decodes anything.
enum FallbackFamily: TypeFieldFamily {
    static let types: [String: any (Decodable & Sendable).Type] = ["account": Account.self]
    static var fallback: (any (Decodable & Sendable).Type)? { JSONValue.self }
}

/// A matcher that states only its one requirement: the defaults describe it.
struct PlainMatcher: ModelMatcher {
    func modelType(for response: ResponseContext, data: Data) throws -> ModelType? { ModelType(Account.self) }
}

/// A matcher that throws an error quoting the body.
struct ThrowingMatcher: ModelMatcher {
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    func modelType(for response: ResponseContext, data: Data) throws -> ModelType? {
        throw Refused(description: "refused \(String(decoding: data, as: UTF8.self)) at \(response.url?.absoluteString ?? "")\(Planted.escape)")
    }
}

extension Planted {
    /// A URL matcher whose patterns hold credentials too.
    static func routes() throws -> URLModelMatcher {
        var routes = URLModelMatcher(pathPrefix: "/v3")
        try routes.add("/users/*/keys/*/*", Account.self)
        try routes.add("/users/*/keys/*/*", [Account].self, method: .post)
        try routes.add("/users/{login}/keys/\(credential("xoxb-"))/*", Account.self, status: .created)
        try routes.add("/users/*/keys/\(credential("xoxb-"))/{rest:**}", [Account].self)
        try routes.add("/users/*/\(credential("gho_"))", matcher: TypeFieldModelMatcher(field: "type"))
        return routes
    }

    /// The error `body` throws.
    static func failure(_ body: () throws -> some Any) -> SculptError {
        do {
            _ = try body()
        } catch let error as SculptError {
            return error
        } catch {}
        return SculptError(.emptyBody(expected: nil), response: ResponseContext(url: nil, status: .ok), body: Data())
    }

    /// A body with every kind of loss an observer hears of, its values and tags holding secrets.
    static let eventBody = Data("""
        {"refused": [\(String(decoding: body, as: UTF8.self)), {"id": 1}],
         "dropped": \(String(decoding: body, as: UTF8.self)),
         "kinds": [{"type": "\(credential("glpat-"))\\u001B]0;pwned"}, {"type": {"x": "\(credential("ghs_"))"}}, {"type": "account", "id": "\(credential("npm_"))"}],
         "fallbacks": [{"type": "\(credential("glpat-"))"}, {"type": ["\(credential("ghs_"))"]}]}
        """.utf8)

    /// A fixture file with secrets in its names and values.
    static func fixtureFile() -> Data {
        Data("""
            {"request": {"method": "POST", "url": "\(url.absoluteString)", "headers": [["Authorization", "Bearer \(bearer)"], ["\(credential("ghp_"))", "\(credential("xoxb-"))"]],
              "body": "--b1\\r\\nContent-Disposition: form-data; name=\\"password\\"\\r\\n\\r\\n\(password)\\r\\n--b1--"},
             "response": {"status": 200, "headers": [["Content-Type", "application/json"]], "body": \(String(decoding: body, as: UTF8.self))}}
            """.utf8)
    }

    /// A HAR archive of one entry with secrets in its URL, answered with `status`.
    static func archive(status: Int) -> Data {
        Data("""
            {"log": {"entries": [{"request": {"method": "GET", "url": "\(url.absoluteString)", "headers": [{"name": "Cookie", "value": "session=\(credential("SG."))"}]},
              "response": {"status": \(status), "headers": [], "content": {"text": "{}"}}}]}}
            """.utf8)
    }

    /// A folder of its own in the temporary folder.
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "sculpt-gate-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
