import Foundation
import Sculpt
import SculptMatchers
import Testing

/// A property list is decoded within the limits or refused with a `SculptError`: a binary list
/// refers to its objects by number, so a few bytes can describe a value without end, and the
/// server chooses the body's content type.
@Suite("Property lists are read within bounds")
struct PropertyListBoundsTests {
    /// Any nesting of arrays, read to its end.
    struct Nest: Decodable, Sendable {
        let count: Int
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var count = 0
            while !container.isAtEnd {
                _ = try container.decode(Nest.self)
                count += 1
            }
            self.count = count
        }
    }

    /// One object of a binary property list written by ``binaryList(_:top:)``.
    enum Object {
        case array([Int])
        case dictionary([(key: Int, value: Int)])
        case string(String)
    }

    /// A `bplist00` of `objects`, references and offsets four bytes wide.
    static func binaryList(_ objects: [Object], top: Int = 0) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        func count(_ marker: UInt8, _ count: Int) {
            if count < 15 {
                bytes.append(marker << 4 | UInt8(count))
            } else {
                bytes += [marker << 4 | 0x0F, 0x12] + be(count, 4)
            }
        }
        for object in objects {
            offsets.append(bytes.count)
            switch object {
            case .array(let references):
                count(0xA, references.count)
                bytes += references.flatMap { be($0, 4) }
            case .dictionary(let entries):
                count(0xD, entries.count)
                bytes += entries.flatMap { be($0.key, 4) } + entries.flatMap { be($0.value, 4) }
            case .string(let text):
                count(0x5, text.utf8.count)
                bytes += Array(text.utf8)
            }
        }
        let table = bytes.count
        bytes += offsets.flatMap { be($0, 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4] + be(objects.count, 8) + be(top, 8) + be(table, 8)
        return Data(bytes)
    }

    static func be(_ value: Int, _ size: Int) -> [UInt8] {
        (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A chain of `count` arrays, each holding the next; the last holds nothing.
    static func chain(_ count: Int) -> Data {
        binaryList((0..<count).map { .array($0 == count - 1 ? [] : [$0 + 1]) })
    }

    static let context = ResponseContext(url: URL(string: "https://api.example.com/x"), method: .get, status: .ok, headerFields: [.contentType: "application/x-plist"])

    /// What the serializer makes of `body` as a ``Nest``, with `limit` as its maximumNestingDepth.
    static func result(_ body: Data, limit: Int? = nil) -> Result<Nest, SculptError> {
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher(Nest.self), decoders: [.json(), .propertyList()])
        serializer.maximumNestingDepth = limit
        return serializer.result(body, for: context, as: Nest.self)
    }

    /// The description of the decoding error `body` gives, checked to keep the body.
    static func decodingFailure(_ body: Data) -> String? {
        switch result(body) {
        case .success(let value):
            Issue.record("\(body.count) bytes decoded as \(value)")
            return nil
        case .failure(let error):
            guard case .decodingFailed = error.reason else {
                Issue.record("\(error)")
                return nil
            }
            #expect(error.body == body)
            return "\(error)"
        }
    }

    @Test("a binary list whose container holds itself is refused, with or without a limit, and never crashes", arguments: [
        ([Object.array([0])], 8),
        ([.array([1]), .array([2]), .array([0])], 8),
        ([.dictionary([(1, 2)]), .string("k"), .array([0])], 8),
        ([.array([1, 2]), .string("a"), .array([1, 1, 3]), .array([2])], 19),
    ] as [([Object], Int)])
    func holdsItself(objects: [Object], offset: Int) throws {
        let body = Self.binaryList(objects)
        let description = Self.decodingFailure(body)
        #expect(description?.contains("container at byte \(offset) holds itself") == true, "\(description ?? "")")
        guard case .failure(let error) = Self.result(body, limit: 64), case .nestingTooDeep(64, let found) = error.reason else {
            Issue.record("with a limit, not refused as too deep")
            return
        }
        #expect(found == offset)
    }

    @Test("a chain of containers each holding the next twice is refused before decoding visits 2^40 values")
    func doublingChain() throws {
        let body = Self.binaryList((0..<41).map { $0 == 40 ? .array([]) : .array([$0 + 1, $0 + 1]) })
        let description = Self.decodingFailure(body)
        #expect(description?.contains("decoding it would visit more than \(body.count) values") == true, "\(description ?? "")")
    }

    @Test("a binary list deeper than the limit is refused at the value past it; deeper than 512 levels, without one", arguments: [
        (100_000, nil, 513),
        (600, 64, 65),
        (62, 64, nil),
    ] as [(Int, Int?, Int?)])
    func deepBinaryList(depth: Int, limit: Int?, level: Int?) throws {
        let body = Self.chain(depth)
        // Array n is at level n + 2 (<plist> is level 1) and starts at byte 8 + 5n.
        let offset = level.map { 8 + 5 * ($0 - 2) }
        switch Self.result(body, limit: limit) {
        case .success(let nest):
            #expect(level == nil)
            #expect(nest.count == 1)
        case .failure(let error) where error.reason.name == "nestingTooDeep":
            guard case .nestingTooDeep(let maximum, let found) = error.reason else { return }
            #expect(maximum == limit)
            #expect(found == offset)
        case .failure(let error):
            #expect(limit == nil && "\(error)".contains("nests deeper than 512 levels: the value at byte \(offset ?? -1) is at level 513"), "\(error)")
        }
    }

    @Test("a reference past the last object or a count past the offset table is refused", arguments: [
        ([Object.array([7])], 8),
        ([.array([1]), .dictionary([(2, 9)]), .string("k")], 13),
    ] as [([Object], Int)])
    func unreadable(objects: [Object], offset: Int) throws {
        let description = Self.decodingFailure(Self.binaryList(objects))
        #expect(description?.contains("object at byte \(offset) does not fit the list") == true, "\(description ?? "")")
    }

    @Test("a count that claims more references than fit before the offset table is refused")
    func countPastTable() throws {
        var body = Self.binaryList([.array([1]), .string("abcde")])
        // The array's count follows its marker as a two-byte integer: 32,767 references.
        body.replaceSubrange(8..<12, with: [0xAF, 0x11, 0x7F, 0xFF])
        let description = Self.decodingFailure(body)
        #expect(description?.contains("object at byte 8 does not fit the list") == true, "\(description ?? "")")
    }

    @Test("lists an encoder writes, binary and XML, decode unchanged, shared strings and all", arguments: [true, false])
    func encodedLists(binary: Bool) throws {
        struct Repository: Codable, Sendable, Equatable {
            var name: String
            var owner: String
            var topics: [String]
            var forks: [[String]]
        }
        let repositories = (0..<200).map { Repository(name: "repo\($0 % 7)", owner: "octocat", topics: ["swift", "http"], forks: [["octocat", "main"], []]) }
        let encoder = PropertyListEncoder()
        encoder.outputFormat = binary ? .binary : .xml
        let body = try encoder.encode(repositories)
        var serializer = ModelResponseSerializer(matcher: StaticModelMatcher([Repository].self), decoders: [.propertyList()])
        // <plist>, the array, a repository, its forks, a fork, a name: six levels.
        serializer.maximumNestingDepth = 6
        #expect(try serializer.result(body, for: Self.context, as: [Repository].self).get() == repositories)
        serializer.maximumNestingDepth = 5
        guard case .failure(let error) = serializer.result(body, for: Self.context, as: [Repository].self), case .nestingTooDeep = error.reason else {
            Issue.record("six levels under a limit of five were not refused")
            return
        }
    }

    @Test("a binary list whose trailer gives references or offsets wider than 8 bytes, or another version, is refused, never decoded", arguments: [
        // A self-referencing array with 9-byte references.
        [0x62, 0x70, 0x6C, 0x69, 0x73, 0x74, 0x30, 0x30, 0xA1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x08, 0, 0, 0, 0, 0, 0, 0x01, 0x09,
         0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x12],
        Array("bplist15".utf8) + Array(Self.binaryList([.array([])]).dropFirst(8)),
    ] as [[UInt8]])
    func unreadableTrailer(bytes: [UInt8]) throws {
        let description = Self.decodingFailure(Data(bytes))
        #expect(description?.contains("trailer (its last 32 bytes) does not read") == true, "\(description ?? "")")
        guard case .failure = Self.result(Data(bytes), limit: 64) else {
            Issue.record("decoded with a limit")
            return
        }
    }

    @Test("a long string held in many places is refused before decoding copies it in each", arguments: [2_000, 20_000])
    func sharedLongString(count: Int) throws {
        let body = Self.binaryList([.array(Array(repeating: 1, count: count)), .string(String(repeating: "s", count: count))])
        let description = Self.decodingFailure(body)
        #expect(description?.contains("containers or long strings in so many places") == true, "\(description ?? "")")
    }

    @Test("an XML list's levels are counted as Foundation reads its tags, to the first >, quoted or not")
    func quotedGreaterThan() throws {
        let body = Data(("<plist version=\"1.0\"><array x=\">" + String(repeating: "<array>", count: 600) + String(repeating: "</array>", count: 600) + "<!-- \" --></array></plist>").utf8)
        guard case .failure(let error) = Self.result(body, limit: 64), case .nestingTooDeep(64, _) = error.reason else {
            Issue.record("600 levels behind a quoted > were not refused at 64")
            return
        }
        #expect(Self.decodingFailure(body)?.contains("nests deeper than 512 levels") == true)
    }
}
