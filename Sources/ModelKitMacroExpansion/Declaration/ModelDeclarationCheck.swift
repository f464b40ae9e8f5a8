import SwiftSyntax

/// Whether a `@Model` declaration reads without errors, remembered for the declaration the
/// plugin last checked.
///
/// The member-attribute role is asked once per member of a class, each time with the whole
/// class: reading the declaration every time made a class of n properties cost n reads of it.
/// The compiler asks about the members of one declaration one after another, so the last
/// answer is the one asked for again.
enum ModelDeclarationCheck {
    /// The text of the last declaration checked and whether it read without errors.
    ///
    /// `nonisolated(unsafe)`: the plugin handles one message at a time, on its one thread
    /// (`CompilerPluginMessageListener.main()`), so nothing reads or writes this concurrently.
    private nonisolated(unsafe) static var last: (text: String, isWellFormed: Bool)?

    /// Whether `declaration`, with `attribute`, reads as a model without errors.
    static func isWellFormed(_ declaration: some DeclGroupSyntax, attribute: AttributeSyntax) -> Bool {
        // The attribute is part of the declaration's text, so the text identifies both.
        let text = declaration.description
        if let last, last.text == text { return last.isWellFormed }
        var parser = ModelDeclarationParser()
        let isWellFormed = parser.parse(declaration, attribute: attribute, missingConformances: []) != nil && !parser.hasErrors
        last = (text, isWellFormed)
        return isWellFormed
    }
}
