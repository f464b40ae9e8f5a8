import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Model`: reads a struct or class declaration and generates its schema, its specialised
/// reading and writing functions, equality, hashing, description and `Codable`.
///
/// The member role generates what must live in a class body (required initializers, members
/// subclasses override); the extension role adds the conformances, and for structs everything
/// else, so their memberwise initializer survives. Diagnostics are reported once, by the member role.
public enum ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    /// Expansions go to the compiler as generated, already indented (see
    /// `ModelExpansion.indented`): formatting them in the plugin took a third of the time to
    /// compile a file of models in a debug build, where swift-syntax is unoptimized.
    public static var formatMode: FormatMode { .disabled }

    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        if let function = enclosingFunction(context) {
            context.diagnose(
                Diagnostic(node: node, message: ModelDiagnostic.localType(name: typeName(declaration), function: function)))
            return []
        }
        var parser = ModelDeclarationParser()
        if let enumeration = declaration.as(EnumDeclSyntax.self) {
            // The models of its cases' payloads go in the enum's body (a type nested in a
            // macro's extension gets no conformances of its own); its diagnostics are reported
            // here, once.
            let model = parser.parseEnum(enumeration, attribute: node)
            for diagnostic in parser.diagnostics { context.diagnose(diagnostic) }
            guard let model, !parser.hasErrors else { return [] }
            return ModelEnumExpansion(model: model, typeName: enumeration.name.text).payloadModels().map(GeneratedSyntax.declaration)
        }
        let locations = DeclarationLocations(of: declaration, in: context)
        parser.locate = { node in locations?.directive(for: node) }
        let model = parser.parse(declaration, attribute: node, missingConformances: protocols)
        for diagnostic in parser.diagnostics { context.diagnose(diagnostic) }
        guard let model, !parser.hasErrors, model.isClass else { return [] }
        return ModelExpansion(model: model).members().map(GeneratedSyntax.declaration)
    }

    /// Puts `@_ModelTracked` on each stored `var` of an observable class (see
    /// ``TrackedPropertyMacro``); structs and `@Model(observable: false)` classes get nothing.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self), enclosingFunction(context) == nil,
            TrackedProperty.isTrackable(member), !optsOutOfObservation(node)
        else { return [] }
        // A declaration with errors expands to nothing (the member role reports them).
        guard ModelDeclarationCheck.isWellFormed(declaration, attribute: node) else { return [] }
        return ["@_ModelTracked"]
    }

    /// `@Model(observable: false)`.
    static func optsOutOfObservation(_ node: AttributeSyntax) -> Bool {
        guard let arguments = node.arguments?.as(LabeledExprListSyntax.self) else { return false }
        return arguments.contains { $0.label?.text == "observable" && $0.expression.trimmedDescription == "false" }
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard enclosingFunction(context) == nil else { return [] }
        var parser = ModelDeclarationParser()
        if let enumeration = declaration.as(EnumDeclSyntax.self) {
            return enumExtensions(of: enumeration, attribute: node, type: type, parser: &parser, in: context)
        }
        let locations = DeclarationLocations(of: declaration, in: context)
        parser.locate = { node in locations?.directive(for: node) }
        guard let model = parser.parse(declaration, attribute: node, missingConformances: protocols),
            !parser.hasErrors
        else { return [] }
        let expansion = ModelExpansion(model: model, typeName: type.trimmedDescription)
        let conformances = expansion.conformances()
        let members = expansion.extensionMembers()
        guard !conformances.isEmpty || !members.isEmpty else { return [] }
        return [
            GeneratedSyntax.extensionDeclaration(
                of: type.trimmedDescription, conformances: conformances,
                members: expansion.indented(members.joined(separator: "\n\n")))
        ]
    }
}

extension ModelMacro {
    /// The `ModelEnum` extension of an enum (the member role reports its diagnostics).
    static func enumExtensions(
        of enumeration: EnumDeclSyntax, attribute: AttributeSyntax, type: some TypeSyntaxProtocol,
        parser: inout ModelDeclarationParser, in context: some MacroExpansionContext
    ) -> [ExtensionDeclSyntax] {
        guard let model = parser.parseEnum(enumeration, attribute: attribute), !parser.hasErrors else { return [] }
        let expansion = ModelEnumExpansion(model: model, typeName: type.trimmedDescription)
        return [
            GeneratedSyntax.extensionDeclaration(
                of: type.trimmedDescription, conformances: ["ModelKitCore.ModelEnum"],
                members: expansion.members().map { GeneratedSyntax.indented($0) }.joined(separator: "\n\n"))
        ]
    }

    /// The function or closure a local type is declared in (`'makeUser()'`, `a closure`): Swift
    /// attaches no extension macro to a local type, so `@Model` cannot work there.
    static func enclosingFunction(_ context: some MacroExpansionContext) -> String? {
        for scope in context.lexicalContext {
            if let function = scope.as(FunctionDeclSyntax.self) {
                let labels = function.signature.parameterClause.parameters.map { "\($0.firstName.text):" }
                return "'\(function.name.text)(\(labels.joined()))'"
            }
            if scope.is(InitializerDeclSyntax.self) { return "an initializer" }
            if scope.is(AccessorDeclSyntax.self) { return "an accessor" }
            if scope.is(ClosureExprSyntax.self) { return "a closure" }
        }
        return nil
    }

    static func typeName(_ declaration: some DeclGroupSyntax) -> String {
        declaration.as(StructDeclSyntax.self)?.name.text ?? declaration.as(ClassDeclSyntax.self)?.name.text ?? "the type"
    }
}

/// `@Key`, `@Identifier`, `@Transient`, `@Transform`, `@Archive`: markers that `@Model` reads;
/// they generate nothing themselves.
public enum PropertyMarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}
