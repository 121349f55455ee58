import Foundation
import SculptShared
import HTTPTypes

extension ServerResponse {
    /// A recorded or received response as a server of ours sends it on: the framing and
    /// hop-by-hop fields left out (the server frames its own answer), the `Location` and each
    /// `Link` target passed through `moving` (to keep a client on this server), and a
    /// `Content-Encoding` dropped unless the body really is gzip: fixtures, like `URLSession`,
    /// hold the body a client sees, and announcing the wire's coding would make a client decode
    /// it again.
    init(relaying response: Fixture.Response, moving: (String) -> String) {
        var fields = HTTPFields()
        for field in response.headerFields where !Self.connectionFields.contains(field.name) {
            switch field.name {
            case .location:
                fields.append(HTTPField(name: .location, value: moving(field.value)))
            case let name where name.canonicalName == "link":
                fields.append(HTTPField(name: field.name, value: Self.links(field.value, moving: moving)))
            case .contentEncoding where !(Gzip.isCompressed(response.body) && ASCII.lowercased(field.value) == "gzip"):
                continue
            default:
                fields.append(field)
            }
        }
        let reason = String(response.status.reasonPhrase.unicodeScalars.filter { $0 == "\t" || (" "..."~").contains($0) }.map(Character.init))
        self.init(status: response.status.code, reason: reason, fields: fields, body: response.body)
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
