import Foundation
import SculptShared

extension OrderedJSON {
    /// The value as compact JSON: members in order, numbers as written.
    var compactData: Data {
        var text = ""
        write(to: &text, indent: nil, level: 0)
        return Data(text.utf8)
    }

    /// The value as readable JSON: two-space indents, and arrays of a few short scalars (a header's
    /// name and value) on one line.
    var prettyText: String {
        var text = ""
        write(to: &text, indent: "  ", level: 0)
        return text
    }

    private func write(to text: inout String, indent: String?, level: Int) {
        switch self {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let literal): text += literal
        case .string(let string): Self.writeString(string, to: &text)
        case .array(let elements):
            guard let indent, !elements.isEmpty, !isShortScalarArray else {
                text += "["
                for (position, element) in elements.enumerated() {
                    if position > 0 { text += indent == nil ? "," : ", " }
                    element.write(to: &text, indent: nil, level: 0)
                }
                text += "]"
                return
            }
            text += "[\n"
            for (position, element) in elements.enumerated() {
                text += String(repeating: indent, count: level + 1)
                element.write(to: &text, indent: indent, level: level + 1)
                text += position < elements.count - 1 ? ",\n" : "\n"
            }
            text += String(repeating: indent, count: level) + "]"
        case .object(let members):
            guard let indent, !members.isEmpty else {
                text += "{"
                for (position, member) in members.enumerated() {
                    if position > 0 { text += "," }
                    Self.writeString(member.key, to: &text)
                    text += ":"
                    member.value.write(to: &text, indent: nil, level: 0)
                }
                text += "}"
                return
            }
            text += "{\n"
            for (position, member) in members.enumerated() {
                text += String(repeating: indent, count: level + 1)
                Self.writeString(member.key, to: &text)
                text += ": "
                member.value.write(to: &text, indent: indent, level: level + 1)
                text += position < members.count - 1 ? ",\n" : "\n"
            }
            text += String(repeating: indent, count: level) + "}"
        }
    }

    /// Up to four scalars whose text fits on a line.
    private var isShortScalarArray: Bool {
        guard case .array(let elements) = self, elements.count <= 4 else { return false }
        var length = 0
        for element in elements {
            switch element {
            case .string(let text): length += text.count + 4
            case .number(let literal): length += literal.count + 2
            case .bool, .null: length += 6
            case .array, .object: return false
            }
        }
        return length <= 100
    }

    private static func writeString(_ string: String, to text: inout String) {
        JSONEscape.appendQuoted(string, to: &text)
    }
}
