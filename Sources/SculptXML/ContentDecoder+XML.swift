import SculptShared
public import Sculpt

extension ContentDecoder {
    /// XML under its registered names (`application/xml`, `text/xml`) and any `+xml` structured
    /// suffix (`application/rss+xml`, `application/atom+xml`, `application/soap+xml`).
    ///
    /// ```swift
    /// let serializer = ModelResponseSerializer(matcher: routes, decoders: [.json(), .xml()])
    /// ```
    /// - Parameter decoder: The decoder, with its limits and key strategy set.
    public static func xml(_ decoder: XMLModelDecoder = XMLModelDecoder()) -> ContentDecoder {
        ContentDecoder(decoder, for: ["application/xml", "text/xml", "*/*+xml"])
    }
}
