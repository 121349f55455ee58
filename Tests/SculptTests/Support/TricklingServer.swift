import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listener on 127.0.0.1 that answers one connection with a head at once and then a body of
/// `length` bytes, one byte every `interval`: for clients whose timeout must cover the whole
/// exchange. ``bytesSent()`` says how much of the body went out before the client left.
final class TricklingServer: Sendable {
    let port: UInt16
    private let descriptor: Int32
    private let done = NSCondition()
    nonisolated(unsafe) private var sent: Int?

    init(length: Int, interval: Duration) throws {
        (descriptor, port) = try LoopbackListener.open(backlog: 4)
        Thread { [self] in serve(length: length, interval: interval) }.start()
    }

    var url: String { "http://127.0.0.1:\(port)/v3/users/user5" }

    /// How many bytes of the body were written before the client closed (or all of them), once
    /// the exchange is over.
    func bytesSent() async -> Int {
        await withCheckedContinuation { (result: CheckedContinuation<Int, Never>) in
            Thread { [self] in
                result.resume(returning: done.withLock {
                    while sent == nil { done.wait() }
                    return sent ?? 0
                })
            }.start()
        }
    }

    private func serve(length: Int, interval: Duration) {
        var written = 0
        defer {
            done.withLock {
                sent = written
                done.broadcast()
            }
        }
        let connection = accept(descriptor, nil, nil)
        guard connection >= 0 else { return }
        defer { _ = closeTrickling(connection) }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while !head.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)), recv(connection, &byte, 1, 0) == 1 { head.append(byte) }
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(length)\r\n\r\n".utf8)
        guard answer.withUnsafeBytes({ send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == answer.count else { return }
        var space = UInt8(ascii: " ")
        while written < length {
            Thread.sleep(forTimeInterval: Double(interval.components.attoseconds) / 1e18 + Double(interval.components.seconds))
            guard send(connection, &space, 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
            written += 1
        }
    }

    deinit {
        _ = closeTrickling(descriptor)
    }

}

private func closeTrickling(_ descriptor: Int32) -> Int32 { close(descriptor) }
