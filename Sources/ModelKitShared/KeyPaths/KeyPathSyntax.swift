/// The syntax of dotted key paths (`user.address.city`), shared by the macros, which split declared
/// paths at compile time, and the runtime, which splits paths given as strings: one definition, so
/// the two can never disagree.
///
/// `\.` is a literal dot and `\\` a literal backslash:
///
/// ```swift
/// KeyPathSyntax.split(#"a\.b.c"#)   // ["a.b", "c"]
/// KeyPathSyntax.join(["a.b", "c"])  // #"a\.b.c"#
/// ```
package enum KeyPathSyntax {
    /// Splits a dotted path into its segments.
    package static func split(_ path: String) -> [String] {
        var segments: [String] = []
        var current = ""
        var escaping = false
        for character in path {
            if escaping {
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "." {
                segments.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { current.append("\\") }
        segments.append(current)
        return segments
    }

    /// Joins segments into a dotted path, escaping dots and backslashes inside them.
    package static func join(_ segments: [String]) -> String {
        segments.map { segment in
            var escaped = ""
            for character in segment {
                if character == "." || character == "\\" { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped
        }.joined(separator: ".")
    }
}
