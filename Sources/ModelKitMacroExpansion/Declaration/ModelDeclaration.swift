import SwiftDiagnostics
import SwiftSyntax

/// A `@Model` type as the macro reads it: kind, access, options, stored properties and hooks.
struct ModelDeclaration {
    enum Kind {
        case structure
        case finalClass
        case openableClass
    }

    var kind: Kind
    var name: String
    /// `public `, `package ` or empty: the access generated members need.
    var access: String
    /// `open ` for members subclasses outside the module may override, else `access`.
    var overridableAccess: String
    /// The class is a subclass of a `@Model` class (it already conforms to `Model`).
    var isSubclass: Bool
    /// Declared with generic parameters (`Page<Item>`): its statics are kept per specialisation.
    var isGeneric = false
    /// The superclass, for subclasses.
    var superclassName: String?
    /// `@Model(name:)`: the name errors, schemas and archives give the model.
    var displayName: String?
    /// `@Model(keys:)`, as written.
    var keyStrategy: String?
    /// `@Model(version:)`, as written.
    var version: String?
    /// `@Model(table:)`, as written.
    var table: String?
    /// `@Model(nulls: .useDefault)`.
    var nullsUseDefaults = false
    /// `@Model(unknownKeys:)`, as written.
    var unknownKeys: String?
    /// `@Model(indexes:unique:)`: each index's property names, whether unique, and where it is
    /// written (for diagnostics).
    var indexes: [(names: [String], unique: Bool, node: Syntax)] = []
    /// `@Model(search:)`: the text properties indexed for full-text search, and where each is
    /// written (for diagnostics).
    var search: [(name: String, node: Syntax)] = []
    /// `@Model(observable: false)` turns observation off for a class.
    var observableArgument = true
    /// The global actor the type is isolated to (`@MainActor`): its conformances are isolated too.
    var globalActor: String?
    var properties: [StoredProperty] = []
    /// `.rewritesJSON`, `.choosesType`, `.validates`.
    var hooks: [String] = []
    /// Protocols from the macro's list the type does not conform to yet.
    var missingConformances: Set<String> = []
    var declaresEquals = false
    var declaresHash = false
    var declaresDescription = false
    var declaresDecodingInit = false
    var declaresEncode = false
    var declaresInitializer = false
    var mentionsEquatable = false

    var isClass: Bool { kind != .structure }
    /// A class whose properties are observable (`ObservableModel`): every class, unless opted out.
    var isObservable: Bool { isClass && observableArgument }
    var isIdentified: Bool { properties.contains(where: \.isIdentifier) }
    /// The type `Equatable` is generated for: needs `==`.
    var generatesEquality: Bool {
        missingConformances.contains("Hashable") && !declaresEquals && !mentionsEquatable && !isSubclass
    }
    var generatesHash: Bool { (missingConformances.contains("Hashable") || isSubclass) && !declaresHash }
    var generatesDescription: Bool { missingConformances.contains("CustomStringConvertible") && !declaresDescription }
    /// A stored property is named `description` (Twitter's users have one): the type keeps it
    /// as data and is not made `CustomStringConvertible` (`modelDescription` still describes it).
    var storesDescription: Bool { properties.contains { $0.name == "description" } }
    var generatesCodable: Bool { !declaresDecodingInit }
}

/// Reads a declaration into a ``ModelDeclaration``, collecting diagnostics for misuse.
struct ModelDeclarationParser {
    var diagnostics: [Diagnostic] = []
    /// The `#sourceLocation(file:line:)` directive for a node of the user's source, or nil where
    /// the compiler gave no location.
    var locate: (Syntax) -> String? = { _ in nil }

    mutating func diagnose(_ node: some SyntaxProtocol, _ message: ModelDiagnostic, fixIts: [FixIt] = []) {
        diagnostics.append(Diagnostic(node: Syntax(node), message: message, fixIts: fixIts))
    }

    var hasErrors: Bool { diagnostics.contains { $0.diagMessage.severity == .error } }

    /// Parses `declaration`; nil (with diagnostics) when it cannot be a model at all.
    mutating func parse(
        _ declaration: some DeclGroupSyntax, attribute: AttributeSyntax, missingConformances: [TypeSyntax]
    ) -> ModelDeclaration? {
        let missing = Set(missingConformances.map { $0.trimmedDescription.split(separator: ".").last.map(String.init) ?? "" })
        var model: ModelDeclaration
        let modifiers = declaration.modifiers.map(\.name.text)
        let access = Self.access(modifiers)
        if let structure = declaration.as(StructDeclSyntax.self) {
            model = ModelDeclaration(
                kind: .structure, name: structure.name.text, access: access, overridableAccess: access,
                isSubclass: false)
            model.isGeneric = structure.genericParameterClause != nil
        } else if let type = declaration.as(ClassDeclSyntax.self) {
            let isFinal = modifiers.contains("final")
            let isSubclass = !missing.contains("Model")
            // A class whose schema a subclass's extends is one type, not one per specialisation.
            if type.genericParameterClause != nil && !isFinal {
                diagnose(type.name, .genericModel(name: type.name.text))
                return nil
            }
            model = ModelDeclaration(
                kind: isFinal ? .finalClass : .openableClass, name: type.name.text, access: access,
                overridableAccess: modifiers.contains("open") ? "open " : access, isSubclass: isSubclass,
                superclassName: isSubclass
                    ? type.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription : nil)
            model.isGeneric = type.genericParameterClause != nil
        } else {
            diagnose(attribute, .notAStructOrClass(kind: Self.kindName(declaration)))
            return nil
        }
        model.missingConformances = missing
        model.globalActor = Self.globalActor(declaration.attributes)
        readArguments(attribute, into: &model)
        model.mentionsEquatable =
            declaration.inheritanceClause?.inheritedTypes.contains {
                $0.type.trimmedDescription.hasSuffix("Equatable")
            } ?? false
        readMembers(declaration.memberBlock, into: &model)
        if !model.isSubclass {
            checkIndexes(of: model)
            checkSearch(of: model)
        }
        return model
    }

    /// `@MainActor` or another global actor attribute (a name ending in `Actor`), if any.
    private static func globalActor(_ attributes: AttributeListSyntax) -> String? {
        for element in attributes {
            guard let attribute = element.as(AttributeSyntax.self), attribute.arguments == nil else { continue }
            let name = attribute.attributeName.trimmedDescription
            if name.hasSuffix("Actor") { return "@" + name }
        }
        return nil
    }

    private static func access(_ modifiers: [String]) -> String {
        if modifiers.contains("public") || modifiers.contains("open") { return "public " }
        if modifiers.contains("package") { return "package " }
        return ""
    }

    private static func kindName(_ declaration: some DeclGroupSyntax) -> String {
        if declaration.is(EnumDeclSyntax.self) { return "enum" }
        if declaration.is(ActorDeclSyntax.self) { return "actor" }
        if declaration.is(ProtocolDeclSyntax.self) { return "protocol" }
        if declaration.is(ExtensionDeclSyntax.self) { return "extension" }
        return "these"
    }

    private mutating func readArguments(_ attribute: AttributeSyntax, into model: inout ModelDeclaration) {
        guard let arguments = attribute.arguments?.as(LabeledExprListSyntax.self) else { return }
        for argument in arguments {
            let value = argument.expression.trimmedDescription
            switch argument.label?.text {
            case "keys": model.keyStrategy = value
            case "name": model.displayName = value
            case "version": model.version = value
            case "table": model.table = value
            case "nulls": model.nullsUseDefaults = value.hasSuffix("useDefault")
            case "unknownKeys": model.unknownKeys = value
            case "observable": model.observableArgument = value != "false"
            case "indexes": readIndexes(argument.expression, unique: false, into: &model)
            case "unique": readIndexes(argument.expression, unique: true, into: &model)
            case "search": readSearch(argument.expression, into: &model)
            default: break
            }
        }
    }

    /// Reads `[["a", "b"], ["c"]]`: string literals only, so the names are known here.
    private mutating func readIndexes(_ expression: ExprSyntax, unique: Bool, into model: inout ModelDeclaration) {
        let argument = unique ? "unique" : "indexes"
        guard let outer = expression.as(ArrayExprSyntax.self) else {
            diagnose(expression, .invalidIndex(argument: argument, reason: "write an array of arrays of property names"))
            return
        }
        for element in outer.elements {
            guard let inner = element.expression.as(ArrayExprSyntax.self), !inner.elements.isEmpty else {
                diagnose(element, .invalidIndex(argument: argument, reason: "each index is a non-empty array of property names"))
                continue
            }
            var names: [String] = []
            for name in inner.elements {
                guard let literal = name.expression.as(StringLiteralExprSyntax.self),
                    let text = literal.representedLiteralValue
                else {
                    diagnose(name, .invalidIndex(argument: argument, reason: "a property name is a string literal"))
                    continue
                }
                names.append(text)
            }
            model.indexes.append((names, unique, Syntax(element)))
        }
    }

    /// Reads `["title", "body"]`: string literals only, so the names are known here.
    private mutating func readSearch(_ expression: ExprSyntax, into model: inout ModelDeclaration) {
        guard let array = expression.as(ArrayExprSyntax.self) else {
            diagnose(expression, .invalidIndex(argument: "search", reason: "write an array of property names"))
            return
        }
        for element in array.elements {
            guard let literal = element.expression.as(StringLiteralExprSyntax.self), let text = literal.representedLiteralValue else {
                diagnose(element, .invalidIndex(argument: "search", reason: "a property name is a string literal"))
                continue
            }
            model.search.append((text, Syntax(element)))
        }
    }

    /// Each property searched is a stored `String` (or `String?`), named once.
    mutating func checkSearch(of model: ModelDeclaration) {
        var seen: Set<String> = []
        for entry in model.search {
            guard let property = model.properties.first(where: { $0.name == entry.name && !$0.isTransient }) else {
                diagnose(entry.node, .unsearchableProperty(property: entry.name, model: model.name, reason: "it is not a stored property"))
                continue
            }
            if let written = property.typeText, !["String", "Swift.String"].contains(String(written.filter { $0 != "?" && $0 != " " })) {
                diagnose(entry.node, .unsearchableProperty(property: entry.name, model: model.name, reason: "full-text search reads text, and it is '\(written)'"))
            }
            if !seen.insert(entry.name).inserted {
                diagnose(entry.node, .invalidIndex(argument: "search", reason: "a property is named twice"))
            }
        }
    }

    /// Each index names stored properties, once each.
    mutating func checkIndexes(of model: ModelDeclaration) {
        let stored = Set(model.properties.filter { !$0.isTransient }.map(\.name))
        for index in model.indexes {
            for name in index.names where !stored.contains(name) {
                diagnose(index.node, .unknownIndexProperty(property: name, model: model.name))
            }
            if Set(index.names).count != index.names.count {
                diagnose(index.node, .invalidIndex(argument: index.unique ? "unique" : "indexes", reason: "a property is named twice"))
            }
        }
    }

    private mutating func readMembers(_ members: MemberBlockSyntax, into model: inout ModelDeclaration) {
        var validationMethods: Set<String> = []
        for member in members.members {
            let decl = member.decl
            if let function = decl.as(FunctionDeclSyntax.self) {
                readFunction(function, into: &model, validationMethods: &validationMethods)
            } else if let initializer = decl.as(InitializerDeclSyntax.self) {
                let labels = initializer.signature.parameterClause.parameters.map(\.firstName.text)
                if labels == ["from"] { model.declaresDecodingInit = true }
                if !initializer.modifiers.contains(where: { $0.name.text == "convenience" }) {
                    model.declaresInitializer = true
                }
            } else if let variable = decl.as(VariableDeclSyntax.self) {
                if variable.bindings.contains(where: { $0.pattern.trimmedDescription == "description" }) {
                    model.declaresDescription = true
                }
                readVariable(variable, into: &model)
            }
        }
        for index in model.properties.indices where validationMethods.contains(model.properties[index].capitalizedName) {
            model.properties[index].hasValidationMethod = true
        }
        checkIdentity(of: model)
    }

    private func readFunction(
        _ function: FunctionDeclSyntax, into model: inout ModelDeclaration, validationMethods: inout Set<String>
    ) {
        let name = function.name.text
        let isStatic = function.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        let labels = function.signature.parameterClause.parameters.map(\.firstName.text)
        switch (name, isStatic) {
        case ("==", true): model.declaresEquals = true
        case ("hash", false) where labels == ["into"]: model.declaresHash = true
        case ("encode", false) where labels == ["to"]: model.declaresEncode = true
        case ("rewriteJSON", true): model.hooks.append(".rewritesJSON")
        case ("modelType", true) where labels == ["for"]: model.hooks.append(".choosesType")
        case ("validate", false) where labels.isEmpty: model.hooks.append(".validates")
        default:
            if isStatic, name.hasPrefix("validate"), name.count > "validate".count, labels.count == 1 {
                validationMethods.insert(String(name.dropFirst("validate".count)))
            }
        }
    }
}
