import Foundation
import SculptTesting

/// Lines written to standard output or standard error as they happen, unbuffered: a log read
/// through a pipe (a test, `tee`) sees each line when it is written.
enum Console {
    /// Writes `line` to standard output.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes `line` to standard error.
    static func warn(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

extension Console {
    /// Writes a served request's log line to standard output, with any credential of a known
    /// shape in it (a token in a path or under a parameter name redaction does not know) shown
    /// as `check` shows one.
    @Sendable static func log(_ request: ServedRequest) {
        var line = request.description
        for finding in SecretScan.findings(in: line, name: nil, path: "") where finding.kind != "a long random value" {
            line = line.replacingOccurrences(of: finding.needle, with: finding.shown)
        }
        say(line)
    }
}
