import SwiftSyntax
import SwiftSyntaxMacros

/// `@_ModelTracked`, which `@Model` puts on each stored `var` of an observable class: moves the
/// value to a private `_name` peer and gives the property accessors that report reads and writes
/// to the class's registrar (`ObservableModel`), as `@Observable`'s tracked properties do.
///
/// ```swift
/// @_ModelTracked var name: String
/// // becomes
/// var name: String {
///     @storageRestrictions(initializes: _name) init(initialValue) { _name = initialValue }
///     get { _modelKitAccess(\.name); return _name }
///     set { ... _modelKitMutate(\.name) { _name = newValue } }
///     _modify { ... yield &_name }
/// }
/// private var _name: String
/// ```
public enum TrackedPropertyMacro: AccessorMacro, PeerMacro {
    /// Accessors go to the compiler as written (see `ModelMacro.formatMode`).
    public static var formatMode: FormatMode { .disabled }

    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard let property = TrackedProperty(declaration) else { return [] }
        let name = property.name
        let storage = "_\(name)"
        let keyPath = "\\.\(name)"
        // A type that may be a relationship (`Author?`, `[Comment]`) keeps its inverse after each
        // write (`modelInverseChanged`, which does nothing for a type that turns out not to be one).
        let keepsInverse = RelationshipCandidate.mayBeRelationship(property.type)
        let before = keepsInverse ? ["let oldValue = \(storage)"] : []
        let after = keepsInverse ? ["ModelKitCore.modelInverseChanged(self, \(keyPath), from: oldValue, to: \(storage))"] : []
        // A relationship the store left for later loads before any access: a write or an
        // in-place change must start from what is stored, as a read does.
        let fault = keepsInverse ? ["_modelKitFault(\(keyPath))"] : []
        let set = fault + [
            "guard ModelKitCore.modelValueChanges(\(storage), newValue) else {",
            "    \(storage) = newValue",
            "    return",
            "}",
        ] + before + ["_modelKitMutate(\(keyPath)) {", "    \(storage) = newValue", "}"] + after
        let modify =
            fault + ["_modelKitAccess(\(keyPath))", "_modelKitWillModify(\(keyPath))"] + before
            + ["defer {", "    _modelKitDidModify(\(keyPath))"] + after.map { "    " + $0 } + ["}", "yield &\(storage)"]
        return readingAccessors(storage: storage, keyPath: keyPath, fault: fault) + [
            GeneratedSyntax.accessor(.set, body: set.joined(separator: "\n")),
            GeneratedSyntax.accessor(._modify, body: modify.joined(separator: "\n")),
        ]
    }

    /// `init` (into the storage) and `get` (reporting the read), the same for every property.
    static func readingAccessors(storage: String, keyPath: String, fault: [String] = []) -> [AccessorDeclSyntax] {
        [
            GeneratedSyntax.accessor(
                .`init`, parameter: "initialValue", attribute: "storageRestrictions(initializes: \(storage))",
                body: "\(storage) = initialValue"),
            GeneratedSyntax.accessor(
                .get,
                body: (fault + ["_modelKitAccess(\(keyPath))", "return \(storage)"]).joined(separator: "\n")),
        ]
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard let property = TrackedProperty(declaration) else { return [] }
        let initializer = property.initializer.map { " = \($0)" } ?? ""
        return [GeneratedSyntax.declaration("private var _\(property.name): \(property.type)\(initializer)")]
    }
}

/// The parts of a tracked property the expansion needs: one binding, a name, a declared type.
struct TrackedProperty {
    let name: String
    let type: String
    let initializer: String?

    init?(_ declaration: some DeclSyntaxProtocol) {
        guard let variable = declaration.as(VariableDeclSyntax.self), variable.bindings.count == 1,
            let binding = variable.bindings.first,
            let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
            let type = binding.typeAnnotation?.type
        else { return nil }
        self.name = name
        self.type = type.trimmedDescription
        self.initializer = binding.initializer?.value.trimmedDescription
    }

    /// Whether `@Model` tracks a member: a single stored instance `var` with a declared type, no
    /// accessors or observers, and no attribute but ModelKit's markers (a property wrapper or
    /// another macro owns its storage); not `lazy`, `weak` or `unowned`.
    static func isTrackable(_ member: some DeclSyntaxProtocol) -> Bool {
        guard let variable = member.as(VariableDeclSyntax.self),
            variable.bindingSpecifier.tokenKind == .keyword(.var),
            variable.bindings.count == 1, let binding = variable.bindings.first,
            binding.pattern.is(IdentifierPatternSyntax.self), binding.typeAnnotation != nil,
            binding.accessorBlock == nil
        else { return false }
        let excluded: Set = ["static", "class", "lazy", "weak", "unowned", "override"]
        if variable.modifiers.contains(where: { excluded.contains($0.name.text) }) { return false }
        for element in variable.attributes {
            guard let attribute = element.as(AttributeSyntax.self) else { return false }
            let name = attribute.attributeName.trimmedDescription
            let marker = PropertyAttribute.allCases.contains { name == $0.rawValue || name.hasSuffix("." + $0.rawValue) }
            if !marker { return false }
        }
        return true
    }
}

/// What a declared type says of a relationship, read from its spelling: a type name, an optional
/// of one, or an array of one (`Author`, `Author?`, `[Comment]`).
enum RelationshipCandidate {
    static let standardValues: Set<String> = [
        "String", "Substring", "Character", "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16",
        "UInt32", "UInt64", "Double", "Float", "Decimal", "Date", "Data", "URL", "UUID", "JSONValue", "CGFloat",
    ]

    /// The model type a relationship's declared type names: `Author?`, `Optional<Author>`,
    /// `[Comment]` or `Array<Comment>` name `Author` and `Comment`; nil for a type not spelled so
    /// (the generated code still checks it).
    static func relatedTypeName(_ typeText: String?) -> String? {
        guard var text = typeText?.filter({ !$0.isWhitespace }) else { return nil }
        if text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
        for (open, close) in [("[", "]"), ("Optional<", ">"), ("Array<", ">")] where text.hasPrefix(open) && text.hasSuffix(close) {
            text = String(text.dropFirst(open.count).dropLast(close.count))
            break
        }
        if text.hasSuffix("?") { text.removeLast() }
        let isName = text.first.map { $0.isLetter || $0 == "_" } == true
            && text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
        return isName ? text : nil
    }

    /// Whether a declared type may hold a relationship: it names a type, capitalized, that is not
    /// one of the standard values. Only those properties pay for keeping an inverse.
    static func mayBeRelationship(_ type: String) -> Bool {
        guard let name = relatedTypeName(type), let first = name.first, first.isUppercase || first == "_" else { return false }
        let last = name.split(separator: ".").last.map(String.init) ?? name
        return !standardValues.contains(last)
    }
}
