import Foundation
import SculptTesting
import Testing

/// A HAR body kept gzip-compressed is every member of it (RFC 1952 §2.2), or the entry is skipped
/// saying why: nothing after the first member is dropped silently.
@Suite("gzip members in HAR import")
struct GzipMembersTests {
    /// A compressed body and what importing it gives: the decompressed text, or a skip whose reason
    /// holds the words given.
    struct Row: Sendable, CustomTestStringConvertible {
        var name: String
        var body: Data
        var expected: Result<String, Reason>
        var testDescription: String { name }
    }

    /// Words a skip's reason must hold.
    struct Reason: Error, Equatable {
        var words: String
    }

    static let hello = GzipData.member("hello, ")
    static let world = GzipData.member("world")

    static let rows: [Row] = [
        Row(name: "two members", body: hello + world, expected: .success("hello, world")),
        Row(name: "three members, one of them empty", body: hello + GzipData.member("") + world, expected: .success("hello, world")),
        Row(name: "a member, then text", body: hello + Data("xyz".utf8), expected: .failure(Reason(words: "3 bytes after the compressed data are not a gzip member"))),
        Row(name: "a member, then zero padding", body: hello + Data(count: 8), expected: .failure(Reason(words: "8 bytes after the compressed data are not a gzip member"))),
        Row(name: "a member, then the start of one", body: hello + world.prefix(12), expected: .failure(Reason(words: "gzip: the stream is truncated"))),
        Row(name: "a member, then the first magic byte", body: hello + Data([0x1F]), expected: .failure(Reason(words: "gzip: the stream is truncated"))),
        Row(name: "a member, then a corrupt one", body: hello + world.prefix(10) + Data(repeating: 0xFF, count: 16), expected: .failure(Reason(words: "gzip: the stream is corrupt"))),
    ]

    @Test("every member decodes and joins; anything else after the first is a skip with its reason", arguments: rows)
    func members(_ row: Row) throws {
        let archive = try HARArchive(json: GzipData.archive([row.body]))
        switch row.expected {
        case .success(let text):
            #expect(archive.skipped.map(\.reason) == [])
            #expect(archive.fixtures.map { String(decoding: $0.data, as: UTF8.self) } == [text])
        case .failure(let reason):
            #expect(archive.fixtures.map { String(decoding: $0.data, as: UTF8.self) } == [])
            let skipped = try #require(archive.skipped.first)
            #expect(skipped.reason.contains(reason.words), "\(skipped)")
        }
    }
}
