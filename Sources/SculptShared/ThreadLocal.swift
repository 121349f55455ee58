import Foundation

/// A value of each thread's own: set for the duration of one synchronous call (``withValue(_:_:)``),
/// or made the first time a thread asks and kept until the thread exits (``value(orMaking:)``).
///
/// `RootDecoding` hands context to a `Decodable` type's initializer through one; `SharedScan` keeps
/// each thread's scan slot in one. It is not `@TaskLocal`: decoding is synchronous, and serializers
/// are called from plain threads (completion handlers, delegate queues) as often as from tasks.
package final class ThreadLocal<Value>: @unchecked Sendable {
    private final class Box {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private var key = pthread_key_t()

    package init() {
        // A thread that exits with a value kept releases it.
        pthread_key_create(&key) { box in
            #if canImport(Darwin)
            Unmanaged<AnyObject>.fromOpaque(box).release()
            #else
            if let box { Unmanaged<AnyObject>.fromOpaque(box).release() }
            #endif
        }
    }

    /// This thread's value: the innermost ``withValue(_:_:)``'s, or the one kept for the thread.
    @inline(__always)
    package var value: Value? {
        pthread_getspecific(key).map { Unmanaged<Box>.fromOpaque($0).takeUnretainedValue().value }
    }

    /// This thread's value, made by `make` the first time the thread asks and kept until it exits.
    @inline(__always)
    package func value(orMaking make: () -> Value) -> Value {
        if let value { return value }
        let value = make()
        pthread_setspecific(key, Unmanaged.passRetained(Box(value)).toOpaque())
        return value
    }

    /// Runs `body` with `value` visible on this thread, then restores what was there before.
    package func withValue<T, Failure: Error>(_ value: Value, _ body: () throws(Failure) -> T) throws(Failure) -> T {
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
