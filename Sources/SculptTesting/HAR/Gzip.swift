import CZlib
import Foundation

/// Decompression of gzip (and zlib) bodies that a recorder kept compressed.
enum Gzip {
    /// Why a body could not be decompressed.
    struct Failure: Error, CustomStringConvertible {
        var reason: String
        var description: String { "gzip: \(reason)" }
    }

    /// The largest decompressed body accepted, so a small archive cannot expand without bound.
    static let maximumSize = 64 << 20

    /// Whether `data` starts with the gzip magic bytes.
    static func isCompressed(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
    }

    /// The decompressed bytes of a gzip or zlib stream.
    ///
    /// - Throws: ``Failure`` for a corrupt or truncated stream, or one larger than ``maximumSize``.
    static func decompress(_ data: Data) throws(Failure) -> Data {
        var stream = z_stream()
        // 15 window bits, +32: detect gzip or zlib headers.
        guard inflateInit2_(&stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(reason: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let status: Int32 = data.withUnsafeBytes { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            var status = Z_OK
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return Z_BUF_ERROR }
                    stream.next_out = base
                    stream.avail_out = uInt(buffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    output.append(base, count: buffer.count - Int(stream.avail_out))
                    return status
                }
            } while status == Z_OK && output.count <= maximumSize && (stream.avail_in > 0 || stream.avail_out == 0)
            return status
        }
        guard output.count <= maximumSize else { throw Failure(reason: "the body expands past \(maximumSize) bytes") }
        guard status == Z_STREAM_END else { throw Failure(reason: status == Z_OK || status == Z_BUF_ERROR ? "the stream is truncated" : "the stream is corrupt (zlib status \(status))") }
        return output
    }
}
