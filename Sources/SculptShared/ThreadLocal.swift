import Foundation

/// A value visible to code running on the same thread, for the duration of one synchronous call.
///
/// `RootDecoding` uses it to hand context to a `Decodable` type's initializer. It does not use
/// `@TaskLocal`: decoding is synchronous, serializers are called from plain threads (completion
/// handlers, delegate queues) as often as from tasks, and a task-local read outside a task crashed
/// in optimized builds of this toolchain.
package final class ThreadLocal<Value>: @unchecked Sendable {
    private final class Box {
        package let value: Value
        package init(_ value: Value) { self.value = value }
    }

    private var key = pthread_key_t()

    package init() {
        pthread_key_create(&key, nil)
    }

    /// The value set by the innermost ``withValue(_:_:)`` on this thread.
    package var value: Value? {
        pthread_getspecific(key).map { Unmanaged<Box>.fromOpaque($0).takeUnretainedValue().value }
    }

    /// Runs `body` with `value` visible on this thread, then restores what was there before.
    package func withValue<T>(_ value: Value, _ body: () throws -> T) rethrows -> T {
        let previous = pthread_getspecific(key)
        let box = Unmanaged.passRetained(Box(value))
        pthread_setspecific(key, box.toOpaque())
        defer {
            pthread_setspecific(key, previous)
            box.release()
        }
        return try body()
    }
}
