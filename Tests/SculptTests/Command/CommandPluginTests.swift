import Foundation
import Testing

/// `swift package sculpt ...`: the command plugin builds `sculpt` and runs it in the package's
/// folder, its output and exit status passed through. It runs SwiftPM itself, in a build folder
/// of its own (`.build-plugin`), so it never waits on the build that runs the tests.
@Suite("The sculpt command plugin")
struct CommandPluginTests {
    static let swift = URL(filePath: "/usr/bin/env")

    @Test("swift package sculpt check runs the command on the package's fixtures; a failing command fails the plugin")
    func runsTheCommand() async throws {
        let scratch = Paths.packageRoot.appending(path: ".build-plugin").path
        let (status, output, errors) = try await CommandProcess.run(
            ["swift", "package", "--scratch-path", scratch, "sculpt", "check", "Tests/Fixtures/github"], executable: Self.swift)
        #expect(status == 0, "\(errors)")
        #expect(output.hasSuffix("Checked 9 files: 0 format errors, 0 possible secrets.\n"), "\(output)\n\(errors)")

        // SwiftPM passes on what the plugin's process writes to either stream as its own output.
        let (failed, written, message) = try await CommandProcess.run(
            ["swift", "package", "--scratch-path", scratch, "sculpt", "check", "Tests/Fixtures/nowhere"], executable: Self.swift)
        #expect(failed != 0)
        #expect((written + message).contains("Tests/Fixtures/nowhere: no such file or folder"), "\(written)\(message)")
        #expect((written + message).contains("sculpt exited with status 1"))
    }
}
