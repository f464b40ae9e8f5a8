import ModelKitMacroSupport
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// The compiler plugin: thin entry points; the expansion logic and its diagnostics live in
/// ModelKitMacroSupport. ModelKitMacroSupportTests run this executable over the compiler plugin
/// protocol, as swiftc does.
@main
struct ModelKitMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ModelMacro.self, PropertyMarkerMacro.self]
}

/// `@Model`; see `ModelKitMacroSupport.ModelMacro`.
public enum ModelMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try ModelKitMacroSupport.ModelMacro.expansion(
            of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try ModelKitMacroSupport.ModelMacro.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}

/// `@Key`, `@Identifier`, `@Transient`, `@Transform`, `@Archive`: markers `@Model` reads.
public enum PropertyMarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try ModelKitMacroSupport.PropertyMarkerMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}
