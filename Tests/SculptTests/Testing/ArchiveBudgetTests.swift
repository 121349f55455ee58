import Foundation
import SculptTesting
import Testing

/// HAR import decompresses at most 64 MB a body and 256 MB an archive: an archive of many gzip
/// bombs holds the archive's cap, not the body cap times the entries.
@Suite("HAR decompression budget")
struct ArchiveBudgetTests {
    @Test("bodies past the archive's 256 MB are skipped, naming the cap; a small one after still fits")
    func archiveCap() throws {
        // Four 60 MB bodies spend 240 MB; the fifth would pass 256 MB; 1 KB still fits in what is left.
        let bomb = GzipData.zeros(megabytes: 60)
        let archive = try HARArchive(json: GzipData.archive([bomb, bomb, bomb, bomb, bomb, GzipData.member(Data(count: 1_024))]))
        #expect(archive.fixtures.map(\.data.count) == [60 << 20, 60 << 20, 60 << 20, 60 << 20, 1_024])
        #expect(archive.skipped.map(\.index) == [4])
        let reason = try #require(archive.skipped.first?.reason)
        #expect(reason == "gzip: the archive's gzip bodies expand past 256 MB in all, the limit for one archive (\(16 << 20) bytes were left for this body)")
        #expect(archive.fixtures.reduce(0) { $0 + $1.data.count } <= 256 << 20)
    }

    @Test("a body past 64 MB is skipped, naming the per-body cap")
    func bodyCap() throws {
        let archive = try HARArchive(json: GzipData.archive([GzipData.zeros(megabytes: 65), GzipData.member("small")]))
        #expect(archive.fixtures.map(\.data) == [Data("small".utf8)])
        #expect(archive.skipped.map(\.reason) == ["gzip: the body expands past 64 MB, the limit for one body"])
    }
}
