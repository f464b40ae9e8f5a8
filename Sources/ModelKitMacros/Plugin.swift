import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin: the macros `ModelKit` declares. Their expansion and diagnostics are in
/// this module (`ModelMacro`, `PropertyMarkerMacro`); ModelKitMacrosTests run this executable
/// over the compiler plugin protocol, as swiftc does.
@main
struct ModelKitMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ModelMacro.self, PropertyMarkerMacro.self, TrackedPropertyMacro.self]
}
