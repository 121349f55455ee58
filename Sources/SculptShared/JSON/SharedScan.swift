import Foundation

/// One scan of a body for both the type-field peek and a ``SculptJSONDecoder``, within one
/// serializer call: the peek scans the whole body into a ``JSONTape`` and finds its field there,
/// and the decode that follows reads the same tape instead of scanning again. A tag after a long
/// string then costs a walk of the tape, not a second pass over the string.
///
/// A serializer whose decoders include a `SculptJSONDecoder` opens the scope around each call
/// (``sharing(_:)``); outside one, the peek and the decoder scan on their own, as before. A call
/// made inside a scope (a serializer run by a matcher or by a type's initializer) shares the
/// outer scope, which frees what is left at its end. The scan is kept for the body it was made
/// of: the scope holds the `Data` (so its bytes stay where they were scanned, unchanged) and a
/// scan is used only for the same text (see ``Slot/holds(_:of:)``). Only UTF-8 bodies read in
/// place share a scan; a transcoded one is scanned by each.
///
/// Each thread has one slot (a ``ThreadLocal``), made the first time it opens a scope and freed
/// when it exits, so a scope costs two thread-local reads, not an allocation.
@usableFromInline
package enum SharedScan {
    /// A thread's scope: whether one is open, and the scan kept in it.
    package final class Slot {
        package var isOpen = false
        /// The body scanned, held so that its storage is neither freed nor changed.
        package var body: Data?
        /// Where the scanned text starts (after a byte order mark) and its length.
        package var text: (start: UnsafePointer<UInt8>?, count: Int) = (nil, -1)
        package var entries: JSONTape.Entries?

        /// Whether the scan kept is of `text`, the bytes of `body` after any byte order mark.
        /// The address tells for a body in storage of its own, which the slot holds; a body small
        /// enough to be stored inline is lent out as a copy on the stack, where another body of
        /// the same length may be lent later, so its bytes are compared too.
        package func holds(_ text: UnsafeBufferPointer<UInt8>, of body: Data) -> Bool {
            guard entries != nil, self.text.start == text.baseAddress, self.text.count == text.count else { return false }
            return text.count > 64 || self.body == body
        }

        /// Keeps `entries`, the scan of `text` in `body`, freeing the scan kept before.
        package func keep(_ entries: JSONTape.Entries, of text: UnsafeBufferPointer<UInt8>, in body: Data) {
            self.entries?.deallocate()
            (self.body, self.text, self.entries) = (body, (text.baseAddress, text.count), entries)
        }

        /// Gives up the scan kept, freeing it unless `freeing` is false (its new owner frees it).
        package func release(freeing: Bool = true) {
            if freeing { entries?.deallocate() }
            (body, text, entries) = (nil, (nil, -1), nil)
        }

        deinit {
            entries?.deallocate()
        }
    }

    /// Each thread's slot, released when the thread exits.
    private static let slots = ThreadLocal<Slot>()

    /// This thread's slot, made on first use.
    private static var slot: Slot { slots.value(orMaking: Slot.init) }

    /// This thread's slot when a scope is open.
    private static var openSlot: Slot? {
        guard let slot = slots.value, slot.isOpen else { return nil }
        return slot
    }

    /// Runs `body` with scans shared on this thread; the scan kept is freed at the end of the
    /// outermost scope.
    @usableFromInline
    package static func sharing<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let slot = slot
        if slot.isOpen { return try body() }
        slot.isOpen = true
        defer {
            slot.isOpen = false
            slot.release()
        }
        return try body()
    }

    /// The scan of `text` (a UTF-8 body's bytes after any byte order mark), made now when there
    /// is none yet; `nil` outside a scope, or when the text is not JSON (the caller then reads it
    /// as it would have).
    package static func entries(for text: UnsafeBufferPointer<UInt8>, of body: Data) -> JSONTape.Entries? {
        guard let slot = openSlot else { return nil }
        if slot.holds(text, of: body), let entries = slot.entries { return entries }
        guard let entries = try? JSONTape.scan(text) else { return nil }
        slot.keep(entries, of: text, in: body)
        return entries
    }

    /// Takes the scan of `text` (the bytes of `body`) for a decode, when the scope holds one: the
    /// decode owns it then.
    package static func take(for text: UnsafeBufferPointer<UInt8>, of body: Data) -> JSONTape.Entries? {
        guard let slot = openSlot, slot.holds(text, of: body), let entries = slot.entries else { return nil }
        slot.release(freeing: false)
        return entries
    }
}
