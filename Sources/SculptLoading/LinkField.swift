import Foundation
import Sculpt
import SculptShared
internal import HTTPTypes

/// The links of `Link` fields (RFC 8288): `<https://api.github.com/repositories/1/issues?page=2>;
/// rel="next", <...>; rel="last"`.
///
/// ```swift
/// LinkField.target(rel: "next", in: response.headerFields, base: response.url)   // .../issues?page=2
/// ```
enum LinkField {
    /// The target of the first link with relation type `rel` (compared case-insensitively, among
    /// the space-separated types of a `rel` parameter), resolved against `base`; `nil` when there
    /// is none or it is not an `http` or `https` URL.
    static func target(rel: String, in fields: HTTPFields, base: URL?) -> URL? {
        for value in fields[values: .literal("Link")] {
            for link in links(value) where link.relations.contains(ASCII.lowercased(rel)) {
                guard let url = URL(string: link.target, relativeTo: base)?.absoluteURL,
                    let scheme = url.scheme.map(ASCII.lowercased), scheme == "http" || scheme == "https"
                else { continue }
                return url
            }
        }
        return nil
    }

    /// Each `<target>; parameters` of one field value, with its lowercased relation types.
    private static func links(_ value: String) -> [(target: String, relations: Set<String>)] {
        var links: [(target: String, relations: Set<String>)] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
            // The parameters run to the next comma outside a quoted string.
            let end = outsideQuotes(rest, separators: [","]).first.map(\.endIndex) ?? rest.endIndex
            links.append((target, relations(in: rest[..<end])))
            rest = rest[end...]
        }
        return links
    }

    /// The relation types of a link's parameters (`; rel="next last"`); a `;` inside a quoted
    /// string (`title="a;rel=next"`) does not end a parameter. A link with an `anchor` is about
    /// another resource than the response's (RFC 8288, section 3.2): it has none here.
    private static func relations(in parameters: Substring) -> Set<String> {
        var relations: Set<String> = []
        for parameter in outsideQuotes(parameters, separators: [";"]) {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            let name = parts.first.map { ASCII.lowercased($0.trimmingCharacters(in: .whitespaces)) }
            if name == "anchor" { return [] }
            guard parts.count == 2, name == "rel", relations.isEmpty else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            relations = Set(ASCII.lowercased(value).split(separator: " ").map(String.init))
        }
        return relations
    }

    /// `text` split at each of `separators` outside a quoted string, where a backslash escapes
    /// the next character (RFC 9110, section 5.6.4: `title="a\", b"` is one string).
    private static func outsideQuotes(_ text: Substring, separators: Set<Character>) -> [Substring] {
        var pieces: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted, separators.contains(character) {
                pieces.append(text[start..<index])
                start = text.index(after: index)
            }
        }
        pieces.append(text[start...])
        return pieces
    }
}
