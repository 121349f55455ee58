import Foundation

/// Stops the fuzzer with a message when an invariant does not hold: libFuzzer records the input
/// that made it fail as a crash.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition() else { return }
    FileHandle.standardError.write(Data("\(file):\(line): invariant failed: \(message())\n".utf8))
    abort()
}

extension Data {
    /// The text before the first newline (decoded leniently as UTF-8) and the bytes after it.
    public var headAndRest: (head: String, rest: Data) {
        guard let newline = firstIndex(of: UInt8(ascii: "\n")) else { return (String(decoding: self, as: UTF8.self), Data()) }
        return (String(decoding: self[..<newline], as: UTF8.self), Data(self[(newline + 1)...]))
    }

    /// The input's lines, decoded leniently as UTF-8.
    public var lines: [String] {
        String(decoding: self, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
