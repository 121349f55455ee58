import Foundation

/// A child process started with `posix_spawn` and reaped with `waitpid` on a thread of its own.
///
/// Its end comes from the kernel: no notification that a busy process can miss or delay (many
/// children ending at once) stands between the child's exit and the test that waits for it. The
/// child inherits no descriptor of this process but the standard output and error it is given
/// (standard input is `/dev/null`), so a pipe or socket that another test holds never stays open
/// in it.
final class SpawnedProcess: @unchecked Sendable {
    /// How a child ended.
    struct Ending: Sendable, Equatable, CustomStringConvertible {
        /// The signal that ended it, if one did.
        var killedBySignal: Int32?
        /// Its exit status, if it exited.
        var exitStatus: Int32?

        /// Reads a status that `waitpid` wrote (`WIFEXITED`, `WEXITSTATUS`, `WTERMSIG`).
        init(waitStatus: Int32) {
            let signal = waitStatus & 0x7f
            killedBySignal = signal == 0 ? nil : signal
            exitStatus = signal == 0 ? (waitStatus >> 8) & 0xff : nil
        }

        var description: String {
            killedBySignal.map { "killed by signal \($0)" } ?? "exited with \(exitStatus ?? -1)"
        }
    }

    /// The child's process identifier.
    let id: pid_t
    /// Guards `ending`; signalled when it is set.
    private let ended = NSCondition()
    private var ending: Ending?

    /// Starts `executable` with `arguments` in `folder` (this process's own by default), with
    /// `environment`, writing to `output` and `errors` (descriptors; `/dev/null` when `nil`).
    ///
    /// - Throws: `POSIXError` when the child cannot be started.
    init(
        _ executable: URL, arguments: [String], in folder: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        output: Int32? = nil, errors: Int32? = nil
    ) throws {
        var path = executable.path(percentEncoded: false)
        var arguments = arguments
        if let folder {
            // posix_spawn's own change of directory is named differently on each platform; a
            // shell that changes it and then becomes the command keeps one way for all.
            arguments = ["-c", #"cd -- "$0" && exec "$@""#, folder.path(percentEncoded: false), path] + arguments
            path = "/bin/sh"
        }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (target, source) in [(Int32(1), output), (2, errors)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_WRONLY, 0)
            }
        }
        #if canImport(Darwin)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        if let closeFrom = Self.closeFrom { _ = closeFrom(&actions, 3) }
        #endif
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, path, &actions, &attributes, argv, envp)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
        id = child
        Thread { [self, child] in
            var status: Int32 = 0
            while waitpid(child, &status, 0) == -1, errno == EINTR {}
            ended.withLock {
                ending = Ending(waitStatus: status)
                ended.broadcast()
            }
        }.start()
    }

    #if !canImport(Darwin)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's `Glibc`
    /// module does not declare; without it, only descriptors marked close-on-exec stay out of the
    /// child.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }
    #endif

    /// True once the child has ended and been reaped.
    var hasEnded: Bool { ended.withLock { ending != nil } }

    /// Sends `signal` to the child unless it has been reaped (its identifier may then be another
    /// process's).
    func send(_ signal: Int32) {
        ended.withLock {
            if ending == nil { kill(id, signal) }
        }
    }

    /// Waits, blocking the calling thread, until the child has ended.
    func waitUntilEnded() -> Ending {
        ended.withLock {
            while true {
                if let ending { return ending }
                ended.wait()
            }
        }
    }

    /// Waits, off Swift's cooperative pool, until the child has ended.
    func end() async -> Ending {
        await withCheckedContinuation { (done: CheckedContinuation<Ending, Never>) in
            Thread { [self] in done.resume(returning: waitUntilEnded()) }.start()
        }
    }
}
