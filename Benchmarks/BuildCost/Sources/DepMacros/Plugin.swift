import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// A member macro that adds nothing: the plugin is built and loaded as ModelKit's is.
public struct NoopMacro: MemberMacro {
    public static func expansion(
        of node: AttributeSyntax, providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

@main struct Plugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [NoopMacro.self]
}
