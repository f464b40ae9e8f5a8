/// Swift names for JSON keys: property names, type names, and the words they must avoid.
///
/// Keys are split into words at every character that is not an ASCII letter or digit and at
/// camel-case boundaries; property names join the words in lowerCamelCase, type names in
/// UpperCamelCase. Names that are keywords or that `@Model` already gives a type are renamed,
/// never backticked.
///
/// ```swift
/// SwiftNames.propertyName(for: "screen_name")   // "screenName"
/// SwiftNames.typeName(for: "user_mentions", singular: true)  // "UserMention"
/// ```
package enum SwiftNames {
    /// The words of a key: runs of ASCII letters and digits, split again where a lowercase letter
    /// or digit meets an uppercase one (`userID` -> `user`, `ID`) and where an acronym meets a
    /// capitalised word (`URLString` -> `URL`, `String`).
    static func words(of key: String) -> [String] {
        var words: [String] = []
        for run in key.split(whereSeparator: { !isASCIIAlphanumeric($0) }) {
            let characters = Array(run)
            var current = ""
            for (index, character) in characters.enumerated() {
                if index > 0, character.isUppercase {
                    let previous = characters[index - 1]
                    let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                    if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                        words.append(current)
                        current = ""
                    }
                }
                current.append(character)
            }
            words.append(current)
        }
        return words
    }

    /// The lowerCamelCase property name for a key, before any renaming: `id_str` -> `idStr`,
    /// `URL` -> `url`, `3d` -> `_3d`; empty when the key has no letter or digit.
    package static func propertyName(for key: String) -> String {
        let parts = words(of: key)
        guard let first = parts.first else { return "" }
        let head = first.allSatisfy { $0.isUppercase || $0.isNumber } ? first.lowercased() : lowercasingFirst(first)
        return identifier(head + parts.dropFirst().map(capitalizingFirst).joined())
    }

    /// The UpperCamelCase type name for a key, before any renaming; with `singular`, the last word
    /// is made singular (`statuses` -> `Status`), or `Item` is added when it has no plural form
    /// (`media` -> `MediaItem`). Empty when the key has no letter or digit.
    package static func typeName(for key: String, singular: Bool) -> String {
        var parts = words(of: key).map(capitalizingFirst)
        guard let last = parts.last else { return "" }
        if singular {
            if let single = singularForm(of: last) {
                parts[parts.count - 1] = single
            } else {
                parts.append("Item")
            }
        }
        return identifier(parts.joined())
    }

    /// The singular of an English plural word, keeping its capitalisation, or nil when the word
    /// does not look plural (`Media`, `Status`).
    static func singularForm(of word: String) -> String? {
        let lower = word.lowercased()
        if let irregular = irregularPlurals[lower] {
            return String(word.prefix(1)) + irregular.dropFirst()
        }
        if lower.count > 4, lower.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
        for ending in ["sses", "shes", "ches", "xes", "zzes", "uses"] where lower.hasSuffix(ending) {
            return String(word.dropLast(2))
        }
        if lower.count > 1, lower.hasSuffix("s"), !lower.hasSuffix("ss"), !lower.hasSuffix("us"), !lower.hasSuffix("is") {
            return String(word.dropLast())
        }
        return nil
    }

    /// Plurals the suffix rules get wrong.
    static let irregularPlurals: [String: String] = [
        "children": "child", "people": "person", "men": "man", "women": "woman", "indices": "index",
        "movies": "movie", "cookies": "cookie", "series": "series", "species": "species",
        "caches": "cache", "leaves": "leaf", "lives": "life", "feet": "foot", "teeth": "tooth",
    ]

    /// Whether `name` may be used as a property name as it is: a valid identifier that is not a
    /// keyword and that `@Model` or the model protocols do not use themselves.
    package static func isUsableProperty(_ name: String) -> Bool {
        !name.isEmpty && !keywords.contains(name) && !modelMembers.contains(name)
    }

    /// Whether `name` may name a generated type: not a keyword and not a type the generated code
    /// or the caller's code would refer to (`Date`, `Data`, `Key`, ...).
    package static func isUsableType(_ name: String) -> Bool {
        !name.isEmpty && !keywords.contains(name) && !reservedTypes.contains(name)
    }

    /// Whether `name` is a Swift identifier that needs no backticks: ASCII letters, digits and
    /// underscores, not starting with a digit, not a keyword.
    package static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.first, !first.isNumber, !keywords.contains(name) else { return false }
        return name.allSatisfy { isASCIIAlphanumeric($0) || $0 == "_" }
    }

    /// `name` with an underscore in front when it starts with a digit.
    static func identifier(_ name: String) -> String {
        guard let first = name.first, first.isNumber else { return name }
        return "_" + name
    }

    static func isASCIIAlphanumeric(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber)
    }

    static func capitalizingFirst(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    static func lowercasingFirst(_ word: String) -> String {
        word.prefix(1).lowercased() + word.dropFirst()
    }

    /// Swift keywords, including those that are only contextual in some positions but cannot
    /// name a stored property or a type without backticks.
    static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
        "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
        "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if",
        "in", "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false", "is", "nil",
        "self", "Self", "super", "throws", "true", "try", "async", "some", "any", "Type", "Protocol", "_",
    ]

    /// Members that `@Model` generates, that the model protocols and their extensions declare,
    /// and the local names of the generated initializers (a property named `fields` or `reader`
    /// would be shadowed there).
    static let modelMembers: Set<String> = [
        "description", "debugDescription", "hash", "hashValue", "copy", "merge", "validate",
        "setValue", "setValuesForKeys", "dictionaryWithValues", "jsonObject", "jsonData", "jsonBytes", "jsonString",
        "dictionaryValue", "modelSchema", "modelDescription", "shortModelDescription", "modelIdentifier",
        "dynamicModelSchema", "propertyKeys", "modelValueKind", "read", "write", "encode", "decode",
        "encodeModelField", "decodeModelField", "decodeField", "hasValue", "hasValues", "isModelEqual",
        "archiveClassName", "archiveSuperclassNames", "rewriteJSON", "modelType", "fields", "mapping", "missing",
        "index", "reader", "writer", "hasher", "decoder", "encoder", "other", "lhs", "rhs", "_super",
    ]

    /// Type names the generated code or its users' code refer to: standard library, Foundation
    /// and ModelKit types, and the macro attributes (a type named `Key` would hide `@Key`).
    static let reservedTypes: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Character", "Codable", "Data", "Date", "Decimal", "Decoder", "Dictionary",
        "Double", "Encoder", "Equatable", "Error", "Float", "Foundation", "Hashable", "Identifier", "Int", "Int8",
        "Int16", "Int32", "Int64", "JSONMember", "JSONValue", "Key", "Locale", "Model", "ModelKit", "ModelKitCore",
        "Never", "Optional", "Range", "Result", "Sendable", "Set", "String", "Substring", "TimeZone", "Transform",
        "Transient", "UInt", "UInt8", "UInt16", "UInt32", "UInt64", "URL", "UUID", "Void", "Calendar", "Bundle",
        "Notification", "Process", "Thread", "Timer", "Unit", "Measurement", "Task", "Actor", "MainActor",
    ]
}
