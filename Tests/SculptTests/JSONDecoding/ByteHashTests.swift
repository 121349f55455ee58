import SculptShared
import Testing

/// Keys are hashed from their bytes in the text and, under snake case, from the bytes a
/// conversion yields one at a time: the two hashes must agree, or a converted key is not found.
@Suite("Key hashes agree however the bytes arrive")
struct ByteHashTests {
    @Test("a buffer and an iterator of the same bytes hash alike, at every length to three words", arguments: 0...24)
    func bufferAndIteratorAgree(length: Int) {
        let bytes = (0..<length).map { UInt8(truncatingIfNeeded: 0x41 + $0 * 7) }
        let seed: UInt64 = 0x0123_4567_89AB_CDEF
        let fromBuffer = bytes.withUnsafeBytes { ByteHash.hash($0, seed: seed) }
        #expect(fromBuffer == ByteHash.hash(bytes.makeIterator(), seed: seed))
    }

    @Test("bytes that differ in any one place hash apart", arguments: 1...24)
    func oneByteChanged(length: Int) {
        let bytes = [UInt8](repeating: 0x61, count: length)
        let hashes = Set((0..<length).map { place in
            var changed = bytes
            changed[place] = 0x62
            return changed.withUnsafeBytes { ByteHash.hash($0, seed: 1) }
        } + [bytes.withUnsafeBytes { ByteHash.hash($0, seed: 1) }])
        #expect(hashes.count == length + 1)
    }
}
