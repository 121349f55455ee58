/// JSON's byte classes: for ``JSONLexer``, and for the serializer's look at a blank body.
package enum JSONBytes {
    /// Whether `byte` is JSON white space: space, tab, line feed or carriage return.
    package static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }
}
