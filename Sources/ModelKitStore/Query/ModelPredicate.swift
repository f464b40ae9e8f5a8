import Foundation
import ModelKitCore

/// A condition on a model's stored properties, written with key paths and operators, that a
/// store runs as SQL (or, in memory, with SQLite's rules).
///
/// Key paths name stored properties of the model (`\Status.lang`); values are encoded as the
/// store encodes the property (an identified model as its identifier, so `\Comment.post == post`
/// selects the comments of a post; a date as ISO 8601 text). `==`, `!=`, `<`, `<=`, `>`, `>=`,
/// ``Swift/KeyPath/in(_:)``, `contains(_:)` for strings, `&&`, `||` and `!` combine, and
/// `matching(_:)` goes through a to-one reference to a condition on the model it refers to.
///
/// ```swift
/// let popular = \Status.retweetCount > 10 && \Status.lang == "ja"
/// let replies = \Status.inReplyToScreenName != nil || (\Status.text).contains("@ada")
/// let some = (\Status.lang).in(["en", "fr"])
/// let byAda = (\Status.user).matching(\TwitterUser.name == "Ada")
/// ```
public struct ModelPredicate<M: Model>: Sendable {
    /// The condition, or why it cannot run (an unknown key path, a value the store cannot hold).
    let expression: Result<StoreExpression, StoreError>

    init(_ expression: Result<StoreExpression, StoreError>) {
        self.expression = expression
    }

    /// A predicate from a key path and how to build the condition on its column.
    init<V>(_ keyPath: KeyPath<M, V>, _ build: (String) throws -> StoreExpression) {
        do {
            let column = try Self.column(of: keyPath)
            expression = .success(try build(column))
        } catch let error as StoreError {
            expression = .failure(error)
        } catch {
            expression = .failure(
                StoreError(
                    .unencodableValue, table: M.modelSchema.modelName, reason: "\(error)", underlying: error))
        }
    }

    /// The column a key path names: a stored property of `M`.
    static func column(of keyPath: AnyKeyPath) throws -> String {
        let schema = M.modelSchema
        if let index = schema.index(of: keyPath), !schema.properties[index].isTransient {
            return schema.properties[index].name
        }
        throw StoreError(.unknownKeyPath, table: schema.modelName, reason: whyNotAColumn(keyPath))
    }

    /// Why a key path names no column, naming it as written as far as Swift can print it.
    static func whyNotAColumn(_ keyPath: AnyKeyPath) -> String {
        let schema = M.modelSchema
        let text = keyPathText(keyPath)
        if schema.index(of: keyPath) != nil {
            return "'\(text)' is '@Transient', so it has no column"
        }
        let printed = "\(keyPath)"
        for property in schema.properties where !property.isTransient {
            let stored = "\(property.keyPath)"
            guard printed.hasPrefix(stored + ".") || printed.hasPrefix(stored + "?.") else { continue }
            if let (type, isToMany) = property.valueKind.referencedIdentifiedClass, !isToMany {
                return "the key path '\(text)' goes through the reference '\(property.name)'; a condition on the "
                    + "'\(type.modelSchema.modelName)' it refers to is written "
                    + "'(\(keyPathText(property.keyPath))).matching(\\\(type.modelSchema.modelName).property == value)'"
            }
            return "the key path '\(text)' goes inside the stored property '\(property.name)'; "
                + "a query names a stored property itself, like '\(keyPathText(property.keyPath))'"
        }
        return "the key path '\(text)' is not one of its stored properties"
    }

    /// A key path as written as far as Swift can print it: properties of the schema, and of the
    /// models they hold, by name (an observable model's properties are computed, which Swift
    /// prints by getter address and type), then other computed components by their type.
    static func keyPathText(_ keyPath: AnyKeyPath) -> String {
        let printed = "\(keyPath)"
        let root = printed.prefix { $0 != "." }
        return root + namedComponents(printed.dropFirst(root.count), in: M.modelSchema)
    }

    /// `.user.name` for the printed components `rest`, each one that is a property of `schema`
    /// (or of the model a property holds, and so on) by the property's name.
    private static func namedComponents(_ rest: Substring, in schema: ModelSchema?) -> String {
        guard !rest.isEmpty else { return "" }
        for property in schema?.properties ?? [] {
            let printed = "\(property.keyPath)"
            let component = printed.dropFirst(printed.prefix { $0 != "." }.count)
            guard rest == component || rest.hasPrefix(component + ".") else { continue }
            let nested = (property.valueType as? any Model.Type)?.modelSchema
            return "." + property.name + namedComponents(rest.dropFirst(component.count), in: nested)
        }
        return componentsText(rest)
    }

    /// Key path text as Swift prints it, each computed component shown by its type: Linux prints
    /// `\Performance.prices.<computed 0x55cc2e774a30 (Int)>`, which becomes
    /// `\Performance.prices.<computed Int>` (a computed property's name is not kept at run time).
    static func componentsText(_ printed: Substring) -> String {
        var text = printed
        var result = ""
        while let start = text.range(of: "<computed ") {
            result += text[..<start.lowerBound]
            let rest = text[start.upperBound...]
            guard let open = rest.firstIndex(of: "("), let close = matchingParenthesis(in: rest, from: open),
                rest.index(after: close) < rest.endIndex, rest[rest.index(after: close)] == ">"
            else {
                result += text[start]
                text = rest
                continue
            }
            result += "<computed \(rest[rest.index(after: open)..<close])>"
            text = rest[rest.index(close, offsetBy: 2)...]
        }
        return result + text
    }

    private static func matchingParenthesis(in text: Substring, from open: String.Index) -> String.Index? {
        var depth = 0
        for index in text[open...].indices {
            switch text[index] {
            case "(": depth += 1
            case ")":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }

    /// Encodes a query operand as the store writes the property.
    static func encode<V: ModelValue>(_ value: V) throws -> StoreValue {
        do {
            return try StoreValue(encoding: value)
        } catch let error as ModelError {
            throw StoreError(.unencodableValue, table: M.modelSchema.modelName, reason: error.description)
        }
    }
}

// MARK: Comparisons

// The operators are static members of the types they take, not global functions, so the type
// checker meets them only where a key path or a predicate is involved.
extension KeyPath where Root: Model, Value: ModelValue {
    /// The rows whose property equals `value` (`IS NULL` for nil).
    @_disfavoredOverload
    public static func == (keyPath: KeyPath, value: Value) -> ModelPredicate<Root> {
        ModelPredicate(keyPath) { .compare(column: $0, .equal, try ModelPredicate<Root>.encode(value)) }
    }

    /// The rows whose property differs from `value`, nil included (SQL `IS NOT`).
    @_disfavoredOverload
    public static func != (keyPath: KeyPath, value: Value) -> ModelPredicate<Root> {
        ModelPredicate(keyPath) { .compare(column: $0, .notEqual, try ModelPredicate<Root>.encode(value)) }
    }
}

// Ordering comparisons only for values whose stored form orders as they do (``StoreOrderable``).
extension KeyPath where Root: Model, Value: StoreOrderable {
    /// The rows whose property is less than `value`.
    @_disfavoredOverload
    public static func < (keyPath: KeyPath, value: Value) -> ModelPredicate<Root> {
        ModelPredicate(keyPath) { .compare(column: $0, .less, try ModelPredicate<Root>.encode(value)) }
    }

    /// The rows whose property is at most `value`.
    @_disfavoredOverload
    public static func <= (keyPath: KeyPath, value: Value) -> ModelPredicate<Root> {
        ModelPredicate(keyPath) { .compare(column: $0, .lessOrEqual, try ModelPredicate<Root>.encode(value)) }
    }

    /// The rows whose property is greater than `value`.
    @_disfavoredOverload
    public static func > (keyPath: KeyPath, value: Value) -> ModelPredicate<Root> {
        ModelPredicate(keyPath) { .compare(column: $0, .greater, try ModelPredicate<Root>.encode(value)) }
    }

    /// The rows whose property is at least `value`.
    @_disfavoredOverload
    public static func >= (keyPath: KeyPath, value: Value) -> ModelPredicate<Root> {
        ModelPredicate(keyPath) { .compare(column: $0, .greaterOrEqual, try ModelPredicate<Root>.encode(value)) }
    }
}

// MARK: Combinations

extension ModelPredicate {
    /// The rows both predicates match.
    @_disfavoredOverload
    public static func && (lhs: ModelPredicate, rhs: ModelPredicate) -> ModelPredicate {
        ModelPredicate(lhs.expression.flatMap { left in rhs.expression.map { .and(left, $0) } })
    }

    /// The rows either predicate matches.
    @_disfavoredOverload
    public static func || (lhs: ModelPredicate, rhs: ModelPredicate) -> ModelPredicate {
        ModelPredicate(lhs.expression.flatMap { left in rhs.expression.map { .or(left, $0) } })
    }

    /// The rows the predicate does not match.
    @_disfavoredOverload
    public static prefix func ! (predicate: ModelPredicate) -> ModelPredicate {
        ModelPredicate(predicate.expression.map { .not($0) })
    }
}

// MARK: Membership and text

extension KeyPath where Root: Model, Value: ModelValue {
    /// The rows whose property is one of `values` (SQL `IN`).
    ///
    /// ```swift
    /// (\Status.lang).in(["en", "ja"])
    /// ```
    public func `in`(_ values: some Sequence<Value>) -> ModelPredicate<Root> {
        ModelPredicate(self) { column in .isIn(column: column, try values.map { try ModelPredicate<Root>.encode($0) }) }
    }
}

extension KeyPath where Root: Model, Value == String {
    /// The rows whose text contains `text`: byte for byte, or ignoring case with
    /// `.caseInsensitive` (Unicode lowercase forms on every store).
    ///
    /// ```swift
    /// (\Status.text).contains("swift", options: .caseInsensitive)   // "Swift", "SWIFT", ...
    /// ```
    public func contains(_ text: String, options: StoreTextOptions = []) -> ModelPredicate<Root> {
        textPredicate(.contains, text, options)
    }

    /// The rows whose text starts with `text`.
    ///
    /// ```swift
    /// (\User.screenName).hasPrefix("ada", options: .caseInsensitive)
    /// ```
    public func hasPrefix(_ text: String, options: StoreTextOptions = []) -> ModelPredicate<Root> {
        textPredicate(.prefix, text, options)
    }

    /// The rows whose text ends with `text`.
    ///
    /// ```swift
    /// (\User.email).hasSuffix("@example.com")
    /// ```
    public func hasSuffix(_ text: String, options: StoreTextOptions = []) -> ModelPredicate<Root> {
        textPredicate(.suffix, text, options)
    }
}

extension KeyPath where Root: Model, Value == String? {
    /// The rows whose text contains `text`; nil never does.
    public func contains(_ text: String, options: StoreTextOptions = []) -> ModelPredicate<Root> {
        textPredicate(.contains, text, options)
    }

    /// The rows whose text starts with `text`; nil never does.
    public func hasPrefix(_ text: String, options: StoreTextOptions = []) -> ModelPredicate<Root> {
        textPredicate(.prefix, text, options)
    }

    /// The rows whose text ends with `text`; nil never does.
    public func hasSuffix(_ text: String, options: StoreTextOptions = []) -> ModelPredicate<Root> {
        textPredicate(.suffix, text, options)
    }
}

extension KeyPath where Root: Model {
    /// The predicate of a text match on this property (a `String` or `String?` one).
    fileprivate func textPredicate(_ kind: StoreTextMatch.Kind, _ text: String, _ options: StoreTextOptions) -> ModelPredicate<Root> {
        ModelPredicate(self) { .text(column: $0, StoreTextMatch(kind, text, caseInsensitive: options.contains(.caseInsensitive))) }
    }
}

/// How a text predicate compares: byte for byte by default.
public struct StoreTextOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Compares the lowercase forms of both texts (Swift's Unicode `lowercased()`: "Straße"
    /// contains "STRASSE" does not hold, "ÄRGER" contains "ärg" does).
    public static let caseInsensitive = StoreTextOptions(rawValue: 1)
}
