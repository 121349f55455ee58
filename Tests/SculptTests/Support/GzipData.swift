import CZlib
import Foundation

/// gzip members made with zlib, and HAR archives whose bodies are kept gzip-compressed, for tests
/// of HAR import.
enum GzipData {
    /// `data` as one gzip member.
    static func member(_ data: Data) -> Data {
        // 15 window bits, +16: a gzip header and trailer.
        compressed(data, windowBits: 15 + 16)
    }

    /// `data` as a zlib stream: what `Content-Encoding: deflate` carries.
    static func zlib(_ data: Data) -> Data {
        compressed(data, windowBits: 15)
    }

    /// `data` as raw deflate, without the zlib wrapper: what some servers send as
    /// `Content-Encoding: deflate`.
    static func rawDeflate(_ data: Data) -> Data {
        compressed(data, windowBits: -15)
    }

    private static func compressed(_ data: Data, windowBits: Int32) -> Data {
        var stream = z_stream()
        guard deflateInit2_(&stream, 9, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return Data()
        }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))))
        let written = data.withUnsafeBytes { input -> Int in
            stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
            stream.avail_in = uInt(input.count)
            return output.withUnsafeMutableBufferPointer { buffer in
                stream.next_out = buffer.baseAddress
                stream.avail_out = uInt(buffer.count)
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { return 0 }
                return buffer.count - Int(stream.avail_out)
            }
        }
        return Data(output.prefix(written))
    }

    /// `text` as one gzip member.
    static func member(_ text: String) -> Data { member(Data(text.utf8)) }

    /// A member that expands to `megabytes` MB of zeros (about a thousandth of that compressed).
    static func zeros(megabytes: Int) -> Data { member(Data(count: megabytes << 20)) }

    /// A HAR archive with one `200` entry per body, each sent as `Content-Encoding: gzip` and
    /// stored in base64, at `https://x/0`, `https://x/1`, ...
    static func archive(_ bodies: [Data]) -> Data {
        let entries = bodies.enumerated().map { index, body in
            #"{"request":{"method":"GET","url":"https://x/\#(index)"},"response":{"status":200,"headers":[{"name":"Content-Encoding","value":"gzip"}],"content":{"mimeType":"text/plain","encoding":"base64","text":"\#(body.base64EncodedString())"}}}"#
        }
        return Data(#"{"log":{"entries":[\#(entries.joined(separator: ","))]}}"#.utf8)
    }
}
