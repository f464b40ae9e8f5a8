/// How a model turns property names into remote keys when no `@Key` says otherwise.
///
/// ```swift
/// @Model(keys: .snakeCase) struct Post { var createdAt: Date }   // "created_at"
/// @Model(keys: .custom { $0.uppercased() }) struct Shout { var text: String } // "TEXT"
/// ```
public struct KeyStrategy: Sendable {
    private let transform: @Sendable (String) -> String
    /// A short name for descriptions.
    public let name: String

    /// A strategy from a function of the property name.
    public static func custom(_ transform: @escaping @Sendable (String) -> String) -> KeyStrategy {
        KeyStrategy(transform: transform, name: "custom")
    }

    /// Remote keys are the property names.
    public static let propertyName = KeyStrategy(transform: { $0 }, name: "propertyName")

    /// `createdAt` -> `created_at`, `userID` -> `user_id`, `URLString` -> `url_string`.
    public static let snakeCase = KeyStrategy(transform: { convertCamelCase($0, separator: "_") }, name: "snakeCase")

    /// `createdAt` -> `created-at`.
    public static let kebabCase = KeyStrategy(transform: { convertCamelCase($0, separator: "-") }, name: "kebabCase")

    /// `createdAt` -> `CreatedAt`.
    public static let pascalCase = KeyStrategy(
        transform: { name in name.prefix(1).uppercased() + name.dropFirst() }, name: "pascalCase")

    /// The remote key for a property name.
    public func key(for propertyName: String) -> String {
        transform(propertyName)
    }
}

/// Splits camel case into lowercase words joined by `separator`, keeping acronyms together.
func convertCamelCase(_ name: String, separator: Character) -> String {
    let characters = Array(name)
    var result = ""
    result.reserveCapacity(characters.count + 4)
    for (index, character) in characters.enumerated() {
        if character.isUppercase, index > 0 {
            let previous = characters[index - 1]
            let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
            if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                if previous != separator { result.append(separator) }
            }
        }
        result += character.lowercased()
    }
    return result
}
