import Foundation
import Sculpt
import SculptMatchers
import Testing

/// One file of nst/JSONTestSuite's `test_parsing` (`y_` must parse, `n_` must not, `i_` either).
struct JSONTestFile: CustomTestStringConvertible, Sendable {
    var name: String
    var data: Data
    var testDescription: String { name }

    static func all() throws -> [JSONTestFile] {
        let folder = Paths.corpus.appending(path: "jsontestsuite/test_parsing")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().filter { $0.hasSuffix(".json") }.map {
            JSONTestFile(name: $0, data: try Data(contentsOf: folder.appending(path: $0)))
        }
    }
}

@Suite("JSONTestSuite")
struct JSONTestSuiteTests {
    /// What the matcher reports at `key`: the `found` of its unknown-discriminator error (`nil` for
    /// missing), or the invalid-JSON error.
    private func peek(_ key: String, in data: Data) -> Result<String?, SculptError> {
        let escaped = key.reduce(into: "") { text, character in
            if "\\.[]".contains(character) { text.append("\\") }
            text.append(character)
        }
        let matcher = TypeFieldModelMatcher(field: key.isEmpty ? "" : escaped)
        do {
            _ = try matcher.modelType(for: response(), data: data)
            return .success(nil)
        } catch let error as SculptError {
            if case .unknownDiscriminator(_, let found, _) = error.reason { return .success(found) }
            return .failure(error)
        } catch {
            Issue.record("unexpected error \(error)")
            return .success(nil)
        }
    }

    /// How `JSONDecoder` sees a value, written as the matcher writes what it found.
    private func agrees(_ found: String?, with value: AnyJSON) -> Bool {
        switch value {
        case .string(let text): found == "\"\(text)\""
        case .number(let number): found.flatMap(Double.init) == number
        case .bool(let flag): found == String(flag)
        case .null: found == "null"
        case .array: found == "an array"
        case .object: found == "an object"
        }
    }

    @Test("the peek agrees with JSONDecoder on every top-level field of every file it accepts, and never crashes", arguments: try JSONTestFile.all())
    func agreement(_ file: JSONTestFile) throws {
        let absent = peek("\u{1F}absent", in: file.data)
        guard let decoded = try? JSONDecoder().decode(AnyJSON.self, from: file.data) else {
            try refused(file, absent: absent)
            return
        }
        guard case .object(let members) = decoded else {
            #expect(try absent.get() == nil, "a non-object has no fields")
            return
        }
        #expect(try absent.get() == nil)
        for (key, value) in members {
            let found = try peek(key, in: file.data).get()
            #expect(agrees(found, with: value), "key \(key.debugDescription): peek found \(found ?? "missing"), JSONDecoder \(value)")
        }
    }

    /// A file JSONDecoder refuses: the peek reports the fault as invalid JSON where it reads it (an
    /// offset inside the body, a reason), and answers "missing" only where the fault lies in what it
    /// skips; either way a serializer never makes a model of it (the decode that follows fails).
    private func refused(_ file: JSONTestFile, absent: Result<String?, SculptError>) throws {
        switch absent {
        case .success(let found):
            #expect(found == nil, "an absent key is missing, if anything")
        case .failure(let error):
            #expect(error.reason.name == "invalidJSON")
            if case .invalidJSON(let reason, let offset) = error.reason {
                #expect(!reason.isEmpty)
                #expect((0...file.data.count).contains(offset), "\(reason) at \(offset) of \(file.data.count) bytes")
            }
        }
        var matcher = TypeFieldModelMatcher(field: "\u{1F}absent")
        matcher.fallback = ModelType(AnyJSON.self)
        let error = #expect(throws: SculptError.self) { try ModelResponseSerializer(matcher: matcher).serialize(file.data, for: response()) }
        let expected: Set<String> = ["invalidJSON", "decodingFailed", "emptyBody"]
        #expect(error.map { expected.contains($0.reason.name) } == true, "\(String(describing: error?.reason.name))")
        if case .failure(let peekError) = absent { #expect(error?.reason.name == peekError.reason.name) }
    }

    @Test("embedded as the tag's value, every document reads as JSONDecoder reads it", arguments: try JSONTestFile.all())
    func valueAgreement(_ file: JSONTestFile) throws {
        guard (try? JSONDecoder().decode(AnyJSON.self, from: file.data)) != nil, !file.data.starts(with: [0xEF, 0xBB, 0xBF]),
            String(data: file.data, encoding: .utf8) != nil
        else { return }
        let body = Data(#"{"pad":[1,{"type":"}"}],"type":"#.utf8) + file.data + Data(#","type":"second"}"#.utf8)
        struct Tagged: Decodable { let type: AnyJSON }
        guard let decoded = try? JSONDecoder().decode(Tagged.self, from: body) else { return }
        let found = try peek("type", in: body).get()
        #expect(agrees(found, with: decoded.type), "peek found \(found ?? "missing"), JSONDecoder \(decoded.type)")
    }
}
