import Foundation
import SculptShared
import Sculpt
import SculptTesting

/// Everything the command writes, a line at a time, unbuffered (a log read through a pipe, a
/// test, `tee`, sees each line when it is written), and through the gate every text of Sculpt's
/// passes (``ShownText``): secrets redacted, every control character written as an escape
/// (`\u{1B}`, `\n`), so a file name or a value cannot move the cursor, retitle the terminal or
/// forge a line, whatever printed it: a log line, a format error quoting a malformed value, a
/// refused argument.
enum Console {
    /// Writes `line` to standard output.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((printable(line) + "\n").utf8))
    }

    /// Writes `line` to standard error.
    static func warn(_ line: String) {
        FileHandle.standardError.write(Data((printable(line) + "\n").utf8))
    }

    /// Writes a message of several lines (usage, a parser's error) to standard output or error,
    /// each line escaped as ``say(_:)`` escapes one.
    static func write(lines message: String, toError: Bool) {
        for line in message.split(separator: "\n", omittingEmptySubsequences: false).dropLast(message.hasSuffix("\n") ? 1 : 0) {
            toError ? warn(String(line)) : say(String(line))
        }
    }

    /// `line` as it is written: through the gate, whole.
    static func printable(_ line: String) -> String {
        ShownText.line(line, limit: .max)
    }
}

extension Console {
    /// Writes a served request's log line to standard output.
    @Sendable static func log(_ request: ServedRequest) {
        say(request.description)
    }
}
