import CZlib
import Foundation
import SculptShared

/// Decompression of gzip (and zlib) bodies that a recorder kept compressed.
package enum Gzip {
    /// Why a body could not be decompressed.
    package struct Failure: Error, CustomStringConvertible {
        /// What was wrong, e.g. `the stream is truncated`.
        package var reason: String
        /// Whether the body expanded past the limit it was given (rather than being damaged).
        package var isOverLimit = false
        /// What was decompressed before the failure.
        package var partial = Data()
        /// E.g. `gzip: the stream is truncated`.
        package var description: String { "gzip: \(reason)" }
    }

    /// The largest decompressed body accepted, so a small archive cannot expand without bound.
    package static let maximumSize = 64 << 20

    /// Whether `data` starts with the gzip magic bytes.
    package static func isCompressed(_ data: Data) -> Bool {
        data.count >= 2 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
    }

    /// The decompressed bytes of a gzip or zlib stream; the members of a gzip stream that has
    /// several (RFC 1952 §2.2: gzip files concatenate) are decompressed and joined.
    ///
    /// - Parameters:
    ///   - limit: the most bytes the result may have; past it, decompression stops.
    ///   - raw: whether `data` is raw deflate, with no gzip or zlib header (some servers send
    ///     `Content-Encoding: deflate` so).
    /// - Throws: ``Failure`` for a corrupt or truncated member, bytes after the last member that
    ///   are not a gzip member, or a result larger than `limit` (``Failure/isOverLimit``).
    package static func decompress(_ data: Data, limit: Int = maximumSize, raw: Bool = false) throws(Failure) -> Data {
        var stream = z_stream()
        // 15 window bits, +32: detect gzip or zlib headers; negative: raw deflate.
        guard inflateInit2_(&stream, raw ? -15 : 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Failure(reason: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        let outcome: Outcome = data.withUnsafeBytes { input in
            guard let start = input.bindMemory(to: Bytef.self).baseAddress else { return .truncated }
            stream.next_in = UnsafeMutablePointer(mutating: start)
            stream.avail_in = uInt(input.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return Z_BUF_ERROR }
                    stream.next_out = base
                    stream.avail_out = uInt(buffer.count)
                    let status = inflate(&stream, Z_NO_FLUSH)
                    output.append(base, count: buffer.count - Int(stream.avail_out))
                    return status
                }
                guard output.count <= limit else { return .overLimit }
                switch status {
                case Z_STREAM_END:
                    let rest = input[(input.count - Int(stream.avail_in))...]
                    if rest.isEmpty { return .complete }
                    // Another member follows, or bytes that are not one.
                    guard rest.starts(with: [0x1F, 0x8B].prefix(rest.count)) else { return .trailing(rest.count) }
                    guard inflateReset(&stream) == Z_OK else { return .corrupt(Z_STREAM_ERROR) }
                case Z_OK where stream.avail_in > 0 || stream.avail_out == 0:
                    continue
                case Z_OK, Z_BUF_ERROR:
                    // All input read and the member not finished.
                    return .truncated
                default:
                    return .corrupt(status)
                }
            }
        }
        switch outcome {
        case .complete: return output
        case .overLimit: throw Failure(reason: "the body expands past \(limit) bytes", isOverLimit: true, partial: output)
        case .truncated: throw Failure(reason: "the stream is truncated", partial: output)
        case .trailing(let count): throw Failure(reason: "\(count) bytes after the compressed data are not a gzip member", partial: output)
        case .corrupt(let status): throw Failure(reason: "the stream is corrupt (zlib status \(status))", partial: output)
        }
    }

    /// How a decompression ended.
    private enum Outcome {
        case complete, overLimit, truncated
        case trailing(Int)
        case corrupt(Int32)
    }
}
