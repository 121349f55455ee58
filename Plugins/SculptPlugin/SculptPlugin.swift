import Foundation
import PackagePlugin

/// `swift package sculpt <subcommand> ...`: the `sculpt` command, built from this package and run
/// in the package's folder, for a project that does not install the binary.
///
/// ```
/// swift package sculpt check Tests/Fixtures
/// swift package sculpt diff Tests/Fixtures/github recorded-today
/// ```
///
/// The plugin asks for no permissions, so reading commands (`check`, `diff`) run in SwiftPM's
/// sandbox. Commands that write files or use the network (`record`, `import-har`, `serve`) need
/// it lifted on macOS: `swift package --disable-sandbox sculpt record ...`.
@main
struct SculptPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        // The package manager builds the `sculpt` product as `swift build --product sculpt`
        // would, in the package's own build folder.
        let build = try packageManager.build(.product("sculpt"), parameters: .init(configuration: .debug, logging: .concise))
        guard build.succeeded, let tool = build.builtArtifacts.first(where: { $0.kind == .executable }) else {
            throw BuildFailure(log: build.logText)
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw Failure(status: process.terminationStatus)
        }
    }

    /// `sculpt` could not be built: the build's log says why.
    struct BuildFailure: Error, CustomStringConvertible {
        var log: String
        var description: String { "building sculpt failed:\n\(log)" }
    }

    /// `sculpt` ended with a status other than 0: its own output said why.
    struct Failure: Error, CustomStringConvertible {
        var status: Int32
        var description: String { "sculpt exited with status \(status)" }
    }
}
