import Foundation
import SculptShared
import HTTPTypes

extension ServerResponse {
    /// A recorded or received response as a server of ours sends it on: the framing and
    /// hop-by-hop fields left out (the server frames its own answer), the `Location` and each
    /// `Link` target passed through `moving` (to keep a client on this server), and the body
    /// the one a client sees, as every reader of recordings reads it (``RecordedBody``: a body
    /// stored compressed is sent decompressed, without the `Content-Encoding` of its stored bytes).
    init(relaying response: Fixture.Response, moving: (String) -> String) {
        let (body, recorded) = RecordedBody.decodedIfPossible(response.body, fields: response.headerFields)
        var fields = HTTPFields()
        for field in recorded where !Self.connectionFields.contains(field.name) {
            switch field.name {
            case .location:
                fields.append(HTTPField(name: .location, value: moving(field.value)))
            case let name where name.canonicalName == "link":
                fields.append(HTTPField(name: field.name, value: Self.links(field.value, moving: moving)))
            default:
                fields.append(field)
            }
        }
        let reason = String(response.status.reasonPhrase.unicodeScalars.filter { $0 == "\t" || (" "..."~").contains($0) }.map(Character.init))
        self.init(status: response.status.code, reason: reason, fields: fields, body: body)
    }

    /// A `Link` value with each `<target>` passed through `moving`, so a client that pages by
    /// `rel="next"` stays where `moving` sends it.
    static func links(_ value: String, moving: (String) -> String) -> String {
        var output = ""
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            output += rest[...open] + moving(String(rest[rest.index(after: open)..<close])) + ">"
            rest = rest[rest.index(after: close)...]
        }
        return output + rest
    }
}
