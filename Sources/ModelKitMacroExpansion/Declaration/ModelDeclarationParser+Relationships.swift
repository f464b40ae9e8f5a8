import SwiftDiagnostics
import SwiftSyntax

extension ModelDeclarationParser {
    /// Reads `@Relationship(deleteRule:inverse:representation:)`, diagnosing on the user's line what the macro
    /// can see cannot work: a relationship in a struct, a rule that is not one of the four, an
    /// inverse that is not a property of the related model. What only types tell (the inverse refers
    /// back to this model, is optional when the rule nullifies) the generated call checks.
    mutating func readRelationship(
        _ attribute: AttributeSyntax, of property: StoredProperty, in variable: VariableDeclSyntax,
        model: ModelDeclaration
    ) -> StoredProperty.RelationshipDeclaration? {
        let name = property.name
        guard model.isClass else {
            diagnose(
                attribute, .relationshipInStruct(property: name, model: model.name),
                fixIts: [removal(of: attribute, .relationship, from: variable)])
            return nil
        }
        if property.isTransient {
            diagnose(
                attribute, .conflictingAttributes(property: name, first: "Relationship", second: "Transient"),
                fixIts: [removal(of: attribute, .relationship, from: variable)])
            return nil
        }
        let arguments = attribute.arguments?.as(LabeledExprListSyntax.self).map(Array.init) ?? []
        var declaration = StoredProperty.RelationshipDeclaration(deleteRule: "nullify")
        if let rule = arguments.first(where: { $0.label?.text == "deleteRule" }) {
            let text = rule.expression.trimmedDescription
            let member = text.split(separator: ".").last.map(String.init) ?? ""
            guard ["nullify", "cascade", "deny", "noAction"].contains(member),
                text == "." + member || text.hasSuffix("DeleteRule." + member)
            else {
                diagnose(rule.expression, .invalidDeleteRule(expression: text))
                return nil
            }
            declaration.deleteRule = member
        }
        if let representation = arguments.first(where: { $0.label?.text == "representation" }) {
            let text = representation.expression.trimmedDescription
            let member = text.split(separator: ".").last.map(String.init) ?? ""
            guard ["nested", "identifiers"].contains(member),
                text == "." + member || text.hasSuffix("RelationshipRepresentation." + member)
            else {
                diagnose(representation.expression, .invalidRepresentation(expression: text))
                return nil
            }
            declaration.writesIdentifiers = member == "identifiers"
        }
        if let inverse = arguments.first(where: { $0.label?.text == "inverse" }) {
            guard let found = readInverse(inverse.expression, of: property) else { return nil }
            declaration.inverse = found
        }
        return declaration
    }

    /// The inverse `\Related.property`: its text and the property's name, or nil after a
    /// diagnostic.
    private mutating func readInverse(_ expression: ExprSyntax, of property: StoredProperty) -> (expression: String, name: String)? {
        let text = expression.trimmedDescription
        guard let keyPath = expression.as(KeyPathExprSyntax.self), let root = keyPath.root,
            keyPath.components.count == 1,
            let component = keyPath.components.first?.component.as(KeyPathPropertyComponentSyntax.self)
        else {
            diagnose(
                expression,
                .invalidInverse(
                    property: property.name, found: text,
                    reason: "write the related model's property that refers back, as '\\Model.property'"))
            return nil
        }
        if let related = RelationshipCandidate.relatedTypeName(property.typeText), root.trimmedDescription != related {
            let replaced = keyPath.with(\.root, TypeSyntax(IdentifierTypeSyntax(name: .identifier(related))))
            diagnose(
                expression,
                .invalidInverse(
                    property: property.name, found: text,
                    reason: "the inverse is a property of '\(related)', the model '\(property.name)' refers to"),
                fixIts: [
                    FixIt(
                        message: ModelFixIt.useInverseOf(related),
                        changes: [.replace(oldNode: Syntax(keyPath), newNode: Syntax(replaced))])
                ])
            return nil
        }
        return (text, component.declName.baseName.text)
    }
}
