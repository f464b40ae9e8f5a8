import Foundation

/// A macro as its declaration in ModelKit tells swiftc about it: the implementation, the roles,
/// the conformances it may add.
struct MacroDeclaration: Sendable {
    let name: String
    let reference: MacroReference
    let roles: [MacroRole]
    let conformances: [String]

    /// The macros Sources/ModelKit/ModelKit.swift declares: `@Model`, the property markers, and
    /// `@_ModelTracked` (which `@Model` puts on an observable class's properties).
    static let modelKit: [String: MacroDeclaration] = {
        let model = MacroDeclaration(
            name: "Model", typeName: "ModelMacro", roles: [.member, .memberAttribute, .extension],
            conformances: ["Model", "ObservableModel", "Hashable", "CustomStringConvertible"])
        let markers = ["Key", "Identifier", "Transient", "Transform", "Archive"].map {
            MacroDeclaration(name: $0, typeName: "PropertyMarkerMacro", roles: [.peer], conformances: [])
        }
        let tracked = MacroDeclaration(
            name: "_ModelTracked", typeName: "TrackedPropertyMacro", roles: [.accessor, .peer], conformances: [])
        return Dictionary(uniqueKeysWithValues: ([model, tracked] + markers).map { ($0.name, $0) })
    }()

    private init(name: String, typeName: String, roles: [MacroRole], conformances: [String]) {
        self.name = name
        reference = MacroReference(moduleName: "ModelKitMacros", typeName: typeName, name: name)
        self.roles = roles
        self.conformances = conformances
    }
}

/// One role of one macro attribute, expanded by the plugin.
struct RoleExpansion: Sendable {
    /// The macro's name (`Model`, `Key`).
    let macro: String
    /// The attribute as written (`@Model(keys: .snakeCase)`).
    let attribute: String
    let role: MacroRole
    /// The declaration the attribute is on (`struct Tag`, `var id`).
    let declaration: String
    let result: ExpansionResult
}

/// What the plugin made of every macro attribute of a test source.
struct SourceExpansion: Sendable {
    let outline: SourceOutline
    /// In the order the host asked: declarations in source order, each attribute's roles in order.
    let roles: [RoleExpansion]

    /// Every diagnostic of every expansion, in the order the plugin emitted them.
    var diagnostics: [PluginDiagnostic] { roles.flatMap(\.result.diagnostics) }
}

/// Plays swiftc's part for a test source: finds the attributes of ModelKit's macros and asks the
/// plugin to expand each of their roles, sending what swiftc sends.
///
/// For every declaration with a macro attribute, in source order: a member or extension role
/// (on types and extensions) gets the declaration's text with its attributes and trivia, the
/// conformances the macro declares that the inheritance clause does not name, and for the
/// extension role the type's name qualified by the types it is nested in; a peer role gets the
/// declaration it is on. Each gets the enclosing types as its lexical context.
struct MacroExpansionHost {
    let macros: [String: MacroDeclaration]
    /// Conformances of types declared elsewhere (a `@Model` superclass), which swiftc would know:
    /// a declaration inheriting from one of them does not miss what it already conforms to.
    let conformancesOfOtherTypes: [String: [String]]

    init(macros: [String: MacroDeclaration] = MacroDeclaration.modelKit, conformancesOfOtherTypes: [String: [String]] = [:]) {
        self.macros = macros
        self.conformancesOfOtherTypes = conformancesOfOtherTypes
    }

    /// Expands every macro attribute of `source` through `plugin`.
    func expand(_ source: String, with plugin: MacroPluginClient) throws -> SourceExpansion {
        let outline = try SourceOutline(source)
        var roles: [RoleExpansion] = []
        var counter = 0
        func visit(_ declaration: OutlinedDeclaration, enclosing: [OutlinedDeclaration]) throws {
            for attribute in declaration.attributes {
                guard let macro = macros[attribute.name] else { continue }
                let written = outline.file.text(in: outline.sourceRange(of: attribute.tokens))
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                for role in macro.roles where role == .peer || role == .accessor || declaration.isTypeOrExtension {
                    // A member-attribute role is asked once per member, as swiftc does.
                    let targets = role == .memberAttribute ? declaration.members : [declaration]
                    for target in targets {
                        counter += 1
                        var request = self.request(
                            role, of: macro, attribute: attribute, on: target, enclosing: enclosing, in: outline,
                            discriminator: "$s\(counter)\(macro.name)_\(role.rawValue)")
                        if role == .memberAttribute {
                            request.parentDeclSyntax = outline.payload(.declaration, tokens: declaration.tokens)
                            request.lexicalContext = (enclosing + [declaration]).reversed().compactMap(outline.lexicalContext)
                        }
                        roles.append(
                            RoleExpansion(
                                macro: macro.name, attribute: written, role: role, declaration: target.summary,
                                result: try plugin.expand(request)))
                    }
                }
            }
            for member in declaration.members { try visit(member, enclosing: enclosing + [declaration]) }
        }
        for declaration in outline.declarations { try visit(declaration, enclosing: []) }
        return SourceExpansion(outline: outline, roles: roles)
    }

    /// The request swiftc would send for one role of `attribute` on `declaration`.
    private func request(
        _ role: MacroRole, of macro: MacroDeclaration, attribute: OutlinedAttribute, on declaration: OutlinedDeclaration,
        enclosing: [OutlinedDeclaration], in outline: SourceOutline, discriminator: String
    ) -> AttachedExpansionRequest {
        var reference = macro.reference
        reference.name = attribute.writtenName
        var request = AttachedExpansionRequest(
            macro: reference, macroRole: role, discriminator: discriminator,
            attributeSyntax: outline.payload(.attribute, tokens: attribute.tokens),
            declSyntax: outline.payload(.declaration, tokens: declaration.tokens),
            lexicalContext: enclosing.reversed().compactMap(outline.lexicalContext))
        if role == .member || role == .extension {
            let inherited = declaration.inheritedNames.flatMap { [$0] + (conformancesOfOtherTypes[$0] ?? []) }
            let missing = macro.conformances.filter { !inherited.contains($0) }
            if !missing.isEmpty {
                request.conformanceListSyntax = SyntaxPayload(
                    kind: .declaration, source: "struct Placeholder: \(missing.joined(separator: ", ")) {}",
                    location: .synthesized)
            }
        }
        if role == .extension {
            let names = (enclosing + [declaration]).compactMap(\.name)
            request.extendedTypeSyntax = SyntaxPayload(
                kind: .type, source: names.joined(separator: "."), location: .synthesized)
        }
        return request
    }
}

extension AttachedExpansionRequest {
    init(
        macro: MacroReference, macroRole: MacroRole, discriminator: String, attributeSyntax: SyntaxPayload,
        declSyntax: SyntaxPayload, lexicalContext: [SyntaxPayload]
    ) {
        self.init(
            macro: macro, macroRole: macroRole, discriminator: discriminator, attributeSyntax: attributeSyntax,
            declSyntax: declSyntax, parentDeclSyntax: nil, extendedTypeSyntax: nil, conformanceListSyntax: nil,
            lexicalContext: lexicalContext)
    }
}
