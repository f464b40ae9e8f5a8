import ModelKitMacroSupport
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under test, as the compiler sees them: `@Model` with its conformances, and the
/// property markers.
let modelMacros: [String: MacroSpec] = [
    "Model": MacroSpec(type: ModelMacro.self, conformances: ["Model", "Hashable", "CustomStringConvertible"]),
    "Key": MacroSpec(type: PropertyMarkerMacro.self),
    "Identifier": MacroSpec(type: PropertyMarkerMacro.self),
    "Transient": MacroSpec(type: PropertyMarkerMacro.self),
    "Transform": MacroSpec(type: PropertyMarkerMacro.self),
    "Archive": MacroSpec(type: PropertyMarkerMacro.self),
]

/// `assertMacroExpansion` reporting through Swift Testing.
func assertModelExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    macros: [String: MacroSpec] = modelMacros,
    fixedSource: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(
        source, expandedSource: expandedSource, diagnostics: diagnostics, macroSpecs: macros,
        fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        })
}
