import CLibFuzzer
import Foundation

/// The target's check, called by libFuzzer for each input.
nonisolated(unsafe) private var check: (Data) -> Void = { _ in }

/// Hands the process to libFuzzer, which calls `body` with each input it generates and exits when
/// done (its flags come from the command line). SwiftPM gives every executable a `main`, so the
/// targets start libFuzzer themselves rather than using libFuzzer's.
public func runFuzzer(_ body: @escaping (Data) -> Void) -> Never {
    check = body
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { bytes, count in
        check(bytes.map { Data(bytes: $0, count: count) } ?? Data())
        return 0
    }
    exit(status)
}
