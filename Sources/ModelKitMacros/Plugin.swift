import ModelKitMacroExpansion
import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// The compiler plugin: the macros `ModelKit` declares. Their expansion and diagnostics are in
/// ModelKitMacroExpansion, which the macro tests expand through as well; the types below only
/// give them the names `ModelKit` declares them by (`#externalMacro(module: "ModelKitMacros",
/// type: "ModelMacro")`: swiftc finds a macro by its module and type name).
@main
struct ModelKitMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ModelMacro.self, PropertyMarkerMacro.self, TrackedPropertyMacro.self]
}

/// `@Model`: see ``ModelKitMacroExpansion/ModelMacro``.
public enum ModelMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
    public static var formatMode: FormatMode { ModelKitMacroExpansion.ModelMacro.formatMode }

    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try ModelKitMacroExpansion.ModelMacro.expansion(
            of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        try ModelKitMacroExpansion.ModelMacro.expansion(
            of: node, attachedTo: declaration, providingAttributesFor: member, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol, conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try ModelKitMacroExpansion.ModelMacro.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }
}

/// `@Key`, `@Identifier`, `@Transient`, `@Transform`, `@Archive`: see
/// ``ModelKitMacroExpansion/PropertyMarkerMacro``.
public enum PropertyMarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try ModelKitMacroExpansion.PropertyMarkerMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}

/// `@_ModelTracked`: see ``ModelKitMacroExpansion/TrackedPropertyMacro``.
public enum TrackedPropertyMacro: AccessorMacro, PeerMacro {
    public static var formatMode: FormatMode { ModelKitMacroExpansion.TrackedPropertyMacro.formatMode }

    public static func expansion(
        of node: AttributeSyntax, providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        try ModelKitMacroExpansion.TrackedPropertyMacro.expansion(of: node, providingAccessorsOf: declaration, in: context)
    }

    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try ModelKitMacroExpansion.TrackedPropertyMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}
