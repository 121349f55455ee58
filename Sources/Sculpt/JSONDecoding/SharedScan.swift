import Foundation

/// One scan of a body for both the type-field peek and a ``SculptJSONDecoder``, within one
/// serializer call: the peek scans the whole body into a ``JSONTape`` and finds its field there,
/// and the decode that follows reads the same tape instead of scanning again. A tag after a long
/// string then costs a walk of the tape, not a second pass over the string.
///
/// A serializer whose decoders include a `SculptJSONDecoder` opens the scope around each call
/// (``sharing(_:)``); outside one, the peek and the decoder scan on their own, as before. The scan
/// is kept for the body it was made of: the scope holds the `Data` (so its bytes stay where they
/// were scanned, unchanged) and a scan is used only for text at the same address and of the same
/// length. Only UTF-8 bodies read in place share a scan; a transcoded one is scanned by each.
@usableFromInline
enum SharedScan {
    /// The scan kept for a scope.
    final class Slot {
        /// The body scanned, held so that its storage is neither freed nor changed.
        var body: Data?
        /// Where the scanned text starts (after a byte order mark) and its length.
        var text: (start: UnsafePointer<UInt8>?, count: Int) = (nil, -1)
        var entries: UnsafeMutableBufferPointer<JSONTape.Entry>?

        /// Whether the scan kept is of `text`, the bytes of `body` after any byte order mark.
        /// The address tells for a body in storage of its own, which the slot holds; a body small
        /// enough to be stored inline is lent out as a copy on the stack, where another body of
        /// the same length may be lent later, so its bytes are compared too.
        func holds(_ text: UnsafeBufferPointer<UInt8>, of body: Data) -> Bool {
            guard entries != nil, self.text.start == text.baseAddress, self.text.count == text.count else { return false }
            return text.count > 64 || self.body == body
        }

        deinit {
            entries?.deallocate()
        }
    }

    private static let current = ThreadLocal<Slot>()

    /// Runs `body` with scans shared on this thread; the scan kept is freed at the end.
    @usableFromInline
    static func sharing<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try current.withValue(Slot()) { Result { () throws(E) in try body() } }.get()
    }

    /// The scan of `text` (a UTF-8 body's bytes after any byte order mark), made now when there
    /// is none yet; `nil` outside a scope, or when the text is not JSON (the caller then reads it
    /// as it would have).
    static func entries(for text: UnsafeBufferPointer<UInt8>, of body: Data) -> UnsafeMutableBufferPointer<JSONTape.Entry>? {
        guard let slot = current.value else { return nil }
        if slot.holds(text, of: body), let entries = slot.entries { return entries }
        guard let entries = try? JSONTape.scan(text) else { return nil }
        slot.entries?.deallocate()
        (slot.body, slot.text, slot.entries) = (body, (text.baseAddress, text.count), entries)
        return entries
    }

    /// Takes the scan of `text` (the bytes of `body`) for a decode, when the scope holds one: the
    /// decode owns it then.
    static func take(for text: UnsafeBufferPointer<UInt8>, of body: Data) -> UnsafeMutableBufferPointer<JSONTape.Entry>? {
        guard let slot = current.value, slot.holds(text, of: body), let entries = slot.entries else { return nil }
        (slot.body, slot.text, slot.entries) = (nil, (nil, -1), nil)
        return entries
    }
}
