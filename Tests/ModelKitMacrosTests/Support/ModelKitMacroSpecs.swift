import MacroTesting
import ModelKitMacroExpansion
import ModelKitTestSupport
import SwiftParser
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacros

/// The macros `ModelKit` declares, as the compiler plugin provides them, with the conformances
/// the extension role of `@Model` is asked for.
enum ModelKitMacros {
    /// What swiftc asks `@Model`'s extension role to add for a type that declares none of them.
    static let allConformances: [TypeSyntax] = ["Model", "ObservableModel", "Hashable", "CustomStringConvertible"]

    /// Every macro, `@Model`'s extension role asked for `conformances` (what swiftc passes: the
    /// ones the macro declares that the type does not already have, through its inheritance
    /// clause or a superclass).
    static func specs(conformances: [TypeSyntax] = allConformances, tracking: Bool = true) -> [String: MacroSpec] {
        var specs: [String: MacroSpec] = ["Model": MacroSpec(type: ModelMacro.self, conformances: conformances)]
        for marker in ["Identifier", "Key", "Transient", "Transform", "Archive", "Relationship"] {
            specs[marker] = MacroSpec(type: PropertyMarkerMacro.self)
        }
        if tracking { specs["_ModelTracked"] = MacroSpec(type: TrackedPropertyMacro.self) }
        return specs
    }

    /// `source` with its macros expanded in process by swift-syntax's macro system, and the
    /// diagnostics they reported: for checks on parts of an expansion (table-driven tests).
    static func expand(_ source: String, specs: [String: MacroSpec] = specs()) -> (source: String, diagnostics: [String]) {
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "Test.swift")])
        let expanded = file.expand(macroSpecs: specs, contextGenerator: { _ in context }, indentationWidth: .spaces(4))
        return (expanded.description, context.diagnostics.map(\.message))
    }
}

extension ModelKitMacros {
    /// The fix-its the macros offer for `source`: each one's message and the text of the nodes
    /// it puts in place of others, for checks on a fix without a snapshot of the whole expansion.
    static func fixIts(_ source: String, specs: [String: MacroSpec] = specs()) -> [(message: String, replacements: [String])] {
        let file = Parser.parse(source: source)
        let context = BasicMacroExpansionContext(sourceFiles: [file: .init(moduleName: "Test", fullFilePath: "Test.swift")])
        _ = file.expand(macroSpecs: specs, contextGenerator: { _ in context }, indentationWidth: .spaces(4))
        return context.diagnostics.flatMap(\.fixIts).map { fixIt in
            let replacements = fixIt.changes.compactMap { change -> String? in
                guard case .replace(_, let newNode) = change else { return nil }
                return newNode.trimmedDescription
            }
            return (fixIt.message.message, replacements)
        }
    }
}

/// The compiler plugin SwiftPM builds for the `ModelKitMacros` macro target, which the type-check
/// tests hand to swiftc.
let modelKitMacrosPlugin = BuiltExecutable(name: "ModelKitMacros-tool", environmentVariable: "MODELKIT_MACROS_PLUGIN")
