import ModelKitShared
import SwiftDiagnostics
import SwiftSyntax

extension ModelDeclarationParser {
    /// Reads the stored properties of one `var`/`let` declaration.
    mutating func readVariable(_ variable: VariableDeclSyntax, into model: inout ModelDeclaration) {
        let modifiers = variable.modifiers.map(\.name.text)
        let found = PropertyAttribute.allCases.compactMap { kind in kind.find(in: variable.attributes).map { (kind, $0) } }
        let firstName = variable.bindings.first?.pattern.trimmedDescription ?? "?"
        if modifiers.contains("static") || modifiers.contains("class") {
            for (kind, attribute) in found {
                diagnose(
                    attribute, .attributeOnStaticProperty(attribute: kind.rawValue, property: firstName),
                    fixIts: [removal(of: attribute, kind, from: variable)])
            }
            return
        }
        let isTransient = PropertyAttribute.transient.find(in: variable.attributes) != nil
        let bindings = Array(variable.bindings)
        for (position, binding) in bindings.enumerated() {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            if Self.isComputed(binding) {
                for (kind, attribute) in found {
                    diagnose(
                        attribute, .attributeOnComputedProperty(attribute: kind.rawValue, property: name),
                        fixIts: [removal(of: attribute, kind, from: variable)])
                }
                continue
            }
            if modifiers.contains("lazy") && !isTransient {
                diagnose(variable, .lazyProperty(property: name), fixIts: [markingTransient(variable, name)])
                continue
            }
            if modifiers.contains("unowned") && !isTransient {
                diagnose(variable, .unownedProperty(property: name), fixIts: [markingTransient(variable, name)])
                continue
            }
            // `var a, b: Int`: `a` takes the type of the next binding that has one.
            let annotated = bindings[position...].first(where: { $0.typeAnnotation != nil })?.typeAnnotation?.type
            let type = binding.typeAnnotation?.type ?? (binding.initializer == nil ? annotated : nil)
            let typeText = type.map(Self.normalizedType) ?? binding.initializer.flatMap { Self.literalType($0.value) }
            var property = StoredProperty(
                name: name, typeText: typeText, isOptional: type.map(Self.isOptional) ?? false,
                isLet: variable.bindingSpecifier.tokenKind == .keyword(.let),
                initializer: binding.initializer?.value.trimmedDescription, isWeak: modifiers.contains("weak"),
                isTransient: isTransient,
                isIdentifier: PropertyAttribute.identifier.find(in: variable.attributes) != nil,
                remoteKeyPaths: nil, transformer: nil, declaration: variable)
            if typeText == nil && property.isMappedIn && PropertyAttribute.presence.find(in: variable.attributes) == nil {
                diagnose(binding.pattern, .missingTypeAnnotation(property: name))
                continue
            }
            property.sourceLocation = locate(Syntax(binding))
            readPropertyAttributes(variable, into: &property, model: model)
            if property.isTransient && property.initializer == nil && !(property.isOptional && !property.isLet) {
                var fixIts: [FixIt] = []
                if !property.isOptional, let type { fixIts.append(makingOptional(type, name)) }
                diagnose(binding.pattern, .unfillableProperty(property: name), fixIts: fixIts)
            }
            model.properties.append(property)
        }
    }

    private mutating func readPropertyAttributes(
        _ variable: VariableDeclSyntax, into property: inout StoredProperty, model: ModelDeclaration
    ) {
        let name = property.name
        if let key = PropertyAttribute.key.find(in: variable.attributes) {
            readKey(key, into: &property, model: model)
        }
        if let transform = PropertyAttribute.transform.find(in: variable.attributes) {
            property.transformer = transform.arguments?.as(LabeledExprListSyntax.self)?.first?.expression.trimmedDescription
            if property.isTransient {
                diagnose(
                    transform, .transformOnTransient(property: name),
                    fixIts: [removal(of: transform, .transform, from: variable)])
            }
        }
        if let archive = PropertyAttribute.archive.find(in: variable.attributes) {
            property.archiveBehavior = archive.arguments?.as(LabeledExprListSyntax.self)?.first?.expression
                .trimmedDescription
        }
        if let marker = PropertyAttribute.unknownKeys.find(in: variable.attributes) {
            let type = property.typeText.map { String($0.filter { $0 != " " }) }
            if model.isSubclass {
                diagnose(marker, .unknownKeysUnfit(property: name, reason: "a subclass inherits its parent's reading"))
            } else if type != "[String:JSONValue]" || property.initializer == nil || property.isLet {
                diagnose(marker, .unknownKeysUnfit(property: name, reason: "declare it 'var \(name): [String: JSONValue] = [:]'"))
            } else if let first = model.properties.first(where: \.keepsUnknownKeys) {
                diagnose(marker, .unknownKeysUnfit(property: name, reason: "'\(first.name)' keeps them already"))
            } else {
                property.keepsUnknownKeys = true
            }
        }
        if let marker = PropertyAttribute.presence.find(in: variable.attributes) {
            readPresence(marker, into: &property, model: model)
        }
        if let relationship = PropertyAttribute.relationship.find(in: variable.attributes) {
            property.relationship = readRelationship(relationship, of: property, in: variable, model: model)
        }
        if let validate = PropertyAttribute.validate.find(in: variable.attributes) {
            readConstraints(validate, into: &property, in: variable)
        }
        if property.isIdentifier, let identifier = PropertyAttribute.identifier.find(in: variable.attributes) {
            if model.isGeneric {
                diagnose(
                    identifier, .identifiedGenericModel(name: model.name),
                    fixIts: [removal(of: identifier, .identifier, from: variable)])
                property.isIdentifier = false
            } else if property.isTransient {
                diagnose(
                    identifier, .conflictingAttributes(property: name, first: "Identifier", second: "Transient"),
                    fixIts: [removal(of: identifier, .identifier, from: variable)])
                property.isIdentifier = false
            } else if let first = model.properties.first(where: \.isIdentifier) {
                diagnose(
                    identifier, .duplicateIdentifier(name: name, first: first.name),
                    fixIts: [removal(of: identifier, .identifier, from: variable)])
                property.isIdentifier = false
            }
        }
    }

    /// Reads `@Presence`: a `var` of type `ModelPresence` with an initial value, one per model,
    /// not mapped itself (transient).
    private mutating func readPresence(_ marker: AttributeSyntax, into property: inout StoredProperty, model: ModelDeclaration) {
        let name = property.name
        let type = property.typeText.map { String($0.filter { $0 != " " }) }
        let reason: String? =
            if model.isSubclass { "a subclass inherits its parent's reading" }
            else if !(type == "ModelPresence" || type == "ModelKit.ModelPresence" || (type == nil && property.initializer == "ModelPresence()"))
                || property.initializer == nil || property.isLet
            { "declare it 'var \(name) = ModelPresence()'" }
            else if let first = model.properties.first(where: \.tracksPresence) { "'\(first.name)' keeps it already" }
            else { nil }
        if let reason {
            diagnose(marker, .presenceUnfit(property: name, reason: reason))
            return
        }
        property.tracksPresence = true
        property.isTransient = true
        if property.typeText == nil { property.typeText = "ModelPresence" }
    }

    /// Reads `@Validate`'s constraints, unless the property is one no reader fills.
    private mutating func readConstraints(
        _ validate: AttributeSyntax, into property: inout StoredProperty, in variable: VariableDeclSyntax
    ) {
        let expressions = validate.arguments?.as(LabeledExprListSyntax.self)?.map(\.expression.trimmedDescription) ?? []
        let reason: String? =
            if expressions.isEmpty { "name at least one constraint, such as '.range(1...5)' or '.nonEmpty'" }
            else if property.isTransient { "transient properties are not mapped" }
            else if property.isReadOnly { "a 'let' with an initial value is never read" }
            else if property.keepsUnknownKeys { "it keeps the payload's other keys" }
            else if property.relationship != nil { "it is a relationship; constrain the related model's properties" }
            else { nil }
        guard let reason else {
            property.constraints = expressions
            return
        }
        diagnose(
            validate, .constraintsUnfit(property: property.name, reason: reason),
            fixIts: [removal(of: validate, .validate, from: variable)])
    }

    /// Reads `@Key`'s paths and its labelled arguments (`encode:`, `null:`, `onError:`, `omit:`),
    /// checking each against the property.
    private mutating func readKey(_ key: AttributeSyntax, into property: inout StoredProperty, model: ModelDeclaration) {
        let name = property.name
        let arguments = key.arguments?.as(LabeledExprListSyntax.self).map(Array.init) ?? []
        func argument(_ label: String) -> LabeledExprSyntax? { arguments.first { $0.label?.text == label } }
        property.remoteKeyPaths = readKeyPaths(key)
        if let encode = argument("encode") {
            property.encodeKeyPath = splitKeyPaths([encode])?.first
        }
        property.nullPolicy = argument("null").map {
            $0.expression.trimmedDescription.hasSuffix("useDefault") ? .useDefault : .error
        }
        if let onError = argument("onError"), onError.expression.trimmedDescription.hasSuffix("useDefault") {
            if property.initializer == nil && !property.isOptional {
                diagnose(onError, .defaultlessRecovery(property: name))
            } else {
                property.invalidUsesDefault = true
            }
        }
        if let omit = argument("omit") {
            let ifNil = omit.expression.trimmedDescription.hasSuffix("ifNil")
            if model.isSubclass {
                diagnose(omit, .omitPolicyUnfit(property: name, reason: "'\(model.name)' is a subclass, whose writing is inherited (not supported yet)"))
            } else if ifNil && !property.isOptional {
                diagnose(omit, .omitPolicyUnfit(property: name, reason: "'.ifNil' needs an optional type"))
            } else if !ifNil && property.initializer == nil {
                diagnose(omit, .omitPolicyUnfit(property: name, reason: "'.ifDefault' needs an initial value"))
            } else {
                property.omitPolicy = ifNil ? .ifNil : .ifDefault
            }
        }
    }

    /// Splits and checks the string literals of `@Key("a.b", "c")` (or `@Key(decode: "a.b", "c",
    /// encode: "d")`): the paths a property reads.
    private mutating func readKeyPaths(_ attribute: AttributeSyntax) -> [[String]]? {
        let arguments = attribute.arguments?.as(LabeledExprListSyntax.self).map(Array.init) ?? []
        let paths = arguments.filter { !["null", "encode", "onError", "omit"].contains($0.label?.text) }
        // `@Key(null: .useDefault)` (or `onError:`) alone keeps the key the strategy gives.
        if paths.isEmpty && paths.count < arguments.count { return nil }
        guard !paths.isEmpty else {
            diagnose(attribute, .invalidKeyPath(path: "", reason: "'@Key' needs at least one path"))
            return nil
        }
        return splitKeyPaths(paths)
    }

    /// Splits and checks `@Key`'s path literals.
    private mutating func splitKeyPaths(_ arguments: [LabeledExprSyntax]) -> [[String]]? {
        var paths: [[String]] = []
        for argument in arguments {
            guard let literal = argument.expression.as(StringLiteralExprSyntax.self),
                let text = literal.representedLiteralValue
            else {
                diagnose(argument.expression, .invalidKeyPath(path: argument.expression.trimmedDescription, reason: "write it as a string literal"))
                continue
            }
            let segments = KeyPathSyntax.split(text)
            if segments.contains(where: \.isEmpty) {
                diagnose(literal, .invalidKeyPath(path: text, reason: "a segment is empty"))
                continue
            }
            paths.append(segments)
        }
        return paths.isEmpty ? nil : paths
    }

    /// Reports `let` properties of an identified class: its live instance is updated in place.
    mutating func checkIdentity(of model: ModelDeclaration) {
        guard model.isClass, model.isIdentified else { return }
        for property in model.properties where property.isLet && !property.isReadOnly && !property.isIdentifier {
            let specifier = property.declaration.bindingSpecifier
            let fixIt = FixIt(
                message: ModelFixIt.makeVariable(property.name),
                changes: [.replace(oldNode: Syntax(specifier), newNode: Syntax(specifier.with(\.tokenKind, .keyword(.var))))])
            diagnose(specifier, .constantInIdentifiedClass(property: property.name, model: model.name), fixIts: [fixIt])
        }
    }

    // MARK: Syntax helpers

    static func isComputed(_ binding: PatternBindingSyntax) -> Bool {
        guard let accessors = binding.accessorBlock?.accessors else { return false }
        switch accessors {
        case .getter: return true
        case .accessors(let list):
            return list.contains { accessor in
                let kind = accessor.accessorSpecifier.tokenKind
                return kind != .keyword(.willSet) && kind != .keyword(.didSet)
            }
        }
    }

    static func isOptional(_ type: TypeSyntax) -> Bool {
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Optional" && identifier.genericArgumentClause != nil
        }
        if let member = type.as(MemberTypeSyntax.self) {
            return member.name.text == "Optional" && member.genericArgumentClause != nil
        }
        return false
    }

    /// The type of a plain literal: `"a"` is a `String`, `1` an `Int`, `1.5` a `Double`, `true` a `Bool`.
    static func literalType(_ expression: ExprSyntax) -> String? {
        if expression.is(StringLiteralExprSyntax.self) { return "String" }
        if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return literalType(prefix.expression).flatMap { $0 == "Int" || $0 == "Double" ? $0 : nil }
        }
        return nil
    }

    /// The type as it can be written in generated code: `T!` becomes `T?`.
    static func normalizedType(_ type: TypeSyntax) -> String {
        if let unwrapped = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return unwrapped.wrappedType.trimmedDescription + "?"
        }
        return type.trimmedDescription
    }

    func removal(of attribute: AttributeSyntax, _ kind: PropertyAttribute, from variable: VariableDeclSyntax)
        -> FixIt
    {
        let remaining = variable.attributes.filter { element in
            element.as(AttributeSyntax.self).map { $0.id != attribute.id } ?? true
        }
        // The declaration's leading trivia (newline, indentation) stays in front of what is left.
        let updated = variable.with(\.attributes, remaining).with(\.leadingTrivia, variable.leadingTrivia)
        return FixIt(
            message: ModelFixIt.removeAttribute(kind.rawValue),
            changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(updated))])
    }

    private func makingOptional(_ type: TypeSyntax, _ name: String) -> FixIt {
        let optional = OptionalTypeSyntax(wrappedType: type.trimmed).with(\.trailingTrivia, type.trailingTrivia)
        return FixIt(
            message: ModelFixIt.makeOptional(name),
            changes: [.replace(oldNode: Syntax(type), newNode: Syntax(optional))])
    }

    private func markingTransient(_ variable: VariableDeclSyntax, _ name: String) -> FixIt {
        let attribute = AttributeSyntax(
            atSign: .atSignToken(leadingTrivia: variable.leadingTrivia),
            attributeName: IdentifierTypeSyntax(name: .identifier("Transient")), trailingTrivia: .space)
        var attributes = AttributeListSyntax([.attribute(attribute)])
        attributes.append(contentsOf: variable.attributes)
        let updated = variable.with(\.leadingTrivia, []).with(\.attributes, attributes)
        return FixIt(
            message: ModelFixIt.markTransient(name),
            changes: [.replace(oldNode: Syntax(variable), newNode: Syntax(updated))])
    }
}
