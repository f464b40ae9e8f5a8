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
        parser.locate = { sourceLocationDirective(of: $0, in: context) }
        let model = parser.parse(declaration, attribute: node, missingConformances: protocols)
        for diagnostic in parser.diagnostics { context.diagnose(diagnostic) }
        guard let model, !parser.hasErrors, model.isClass else { return [] }
        return ModelExpansion(model: model).members().map { DeclSyntax(stringLiteral: $0) }
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
        var parser = ModelDeclarationParser()
        guard parser.parse(declaration, attribute: node, missingConformances: []) != nil, !parser.hasErrors else {
            return []
        }
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
        parser.locate = { sourceLocationDirective(of: $0, in: context) }
        guard let model = parser.parse(declaration, attribute: node, missingConformances: protocols),
            !parser.hasErrors
        else { return [] }
        let expansion = ModelExpansion(model: model, typeName: type.trimmedDescription)
        let conformances = expansion.conformances()
        let members = expansion.extensionMembers()
        guard !conformances.isEmpty || !members.isEmpty else { return [] }
        let clause = conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")
        let source: DeclSyntax = """
            extension \(type.trimmed)\(raw: clause) {
            \(raw: expansion.indented(members.joined(separator: "\n\n")))
            }
            """
        guard let extensionDecl = source.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }
}

extension ModelMacro {
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

    /// `#sourceLocation(file: "/path/User.swift", line: 12)` for a node of the user's source.
    static func sourceLocationDirective(of node: Syntax, in context: some MacroExpansionContext) -> String? {
        guard let location = context.location(of: node, at: .afterLeadingTrivia, filePathMode: .filePath) else {
            return nil
        }
        return "#sourceLocation(file: \(location.file.trimmedDescription), line: \(location.line.trimmedDescription))"
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
