/// A text read as ``EscapedText`` reads it, and that reading read so again, up to three readings
/// in all: a value escaped twice (`%2567hp_…`) reads `%67hp_…`, then `ghp_…`. What finds a secret
/// however many times it was escaped, and replaces it where it was written.
///
/// ```swift
/// let layers = EscapeLayers(Array("a%253Db".utf8))
/// layers.readings              // ["a%3Db", "a=b"] as bytes
/// layers.written(1..<2, atDepth: 1)   // 1..<6, the `%253D` it was read from
/// ```
package struct EscapeLayers {
    private let layers: [EscapedText]

    /// The readings of `bytes`, at most `count`; none when they hold no escape. Linear in the
    /// length of `bytes` for each reading.
    package init(_ bytes: [UInt8], upTo count: Int = 3) {
        var layers: [EscapedText] = []
        while layers.count < count, let view = EscapedText(layers.last?.decoded ?? bytes) { layers.append(view) }
        self.layers = layers
    }

    /// Each reading's bytes, the first read from the text, each next from the one before.
    package var readings: [[UInt8]] { layers.map(\.decoded) }

    /// Where the bytes `range` of the reading at `depth` were written in the text.
    package func written(_ range: Range<Int>, atDepth depth: Int) -> Range<Int> {
        layers[...depth].reversed().reduce(range) { range, layer in layer.written(range) }
    }
}
