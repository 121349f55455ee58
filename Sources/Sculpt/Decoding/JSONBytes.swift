/// JSON's byte classes, shared by the serializer, the discriminator scan (SculptMatchers) and the
/// fixture parser (SculptTesting).
@usableFromInline
package enum JSONBytes {
    /// Whether `byte` is JSON white space: space, tab, line feed or carriage return.
    @inlinable
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
