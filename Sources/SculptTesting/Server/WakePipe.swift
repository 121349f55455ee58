import SculptShared
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe that wakes a thread waiting in ``Socket/accept(wakingOn:milliseconds:)``: writing a
/// byte makes its read end readable.
struct WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    /// A new pipe.
    static func make() throws(Socket.Failure) -> WakePipe {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Socket.Failure(call: "pipe", code: errno) }
        return WakePipe(readEnd: ends[0], writeEnd: ends[1])
    }

    /// Wakes the waiting thread. Call while the read end is open.
    func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Closes the read end, once nothing waits on it.
    func closeReadEnd() {
        _ = close(readEnd)
    }

    /// Closes the write end, once nothing signals.
    func closeWriteEnd() {
        _ = close(writeEnd)
    }
}
