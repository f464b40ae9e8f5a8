import SwiftDiagnostics
import SwiftSyntax

/// Every problem `@Model` can find in a declaration, as compiler diagnostics.
public enum ModelDiagnostic: DiagnosticMessage, Equatable {
    case notAStructOrClass(kind: String)
    case genericModel(name: String)
    case duplicateIdentifier(name: String, first: String)
    case attributeOnComputedProperty(attribute: String, property: String)
    case attributeOnStaticProperty(attribute: String, property: String)
    case missingTypeAnnotation(property: String)
    case unfillableProperty(property: String)
    case constantInIdentifiedClass(property: String, model: String)
    case invalidKeyPath(path: String, reason: String)
    case defaultlessRecovery(property: String)
    case omitPolicyUnfit(property: String, reason: String)
    case unknownKeysUnfit(property: String, reason: String)
    case constraintsUnfit(property: String, reason: String)
    case presenceUnfit(property: String, reason: String)
    case identifiedGenericModel(name: String)
    case enumUnfit(name: String, reason: String)
    case lazyProperty(property: String)
    case transformOnTransient(property: String)
    case unownedProperty(property: String)
    case conflictingAttributes(property: String, first: String, second: String)
    case localType(name: String, function: String)
    case invalidIndex(argument: String, reason: String)
    case unknownIndexProperty(property: String, model: String)
    case unsearchableProperty(property: String, model: String, reason: String)
    case relationshipInStruct(property: String, model: String)
    case invalidDeleteRule(expression: String)
    case invalidRepresentation(expression: String)
    case invalidInverse(property: String, found: String, reason: String)

    public var message: String {
        switch self {
        case .notAStructOrClass(let kind):
            return "'@Model' applies to structs, classes and enums, not to \(kind) declarations"
        case .genericModel(let name):
            return "'@Model' applies to generic structs and final classes: a subclass of '\(name)' would extend one schema for every specialisation; make '\(name)' final"
        case .duplicateIdentifier(let name, let first):
            return "a model has one '@Identifier': '\(name)' is a second one after '\(first)'"
        case .attributeOnComputedProperty(let attribute, let property):
            return "'@\(attribute)' applies to stored properties; '\(property)' is computed"
        case .attributeOnStaticProperty(let attribute, let property):
            return "'@\(attribute)' applies to instance properties; '\(property)' is static"
        case .missingTypeAnnotation(let property):
            return "'\(property)' needs an explicit type for '@Model' to map it"
        case .unfillableProperty(let property):
            return "'\(property)' is not mapped, so no generated initializer can set it: give it a default value or make it optional"
        case .constantInIdentifiedClass(let property, let model):
            return "'\(property)' must be a 'var': '\(model)' has an '@Identifier', so its live instance is updated in place"
        case .omitPolicyUnfit(let property, let reason):
            return "'@Key(omit:)' does not fit '\(property)': \(reason)"
        case .unknownKeysUnfit(let property, let reason):
            return "'@UnknownKeys' cannot keep a payload's other keys in '\(property)': \(reason)"
        case .enumUnfit(let name, let reason):
            return "'@Model' cannot map the enum '\(name)': \(reason)"
        case .identifiedGenericModel(let name):
            return "'@Identifier' cannot apply in the generic model '\(name)': identity and store tables are kept per type, not per specialisation; identify the models it holds instead"
        case .presenceUnfit(let property, let reason):
            return "'@Presence' cannot keep what a payload gave in '\(property)': \(reason)"
        case .constraintsUnfit(let property, let reason):
            return "'@Validate' cannot constrain '\(property)': \(reason)"
        case .defaultlessRecovery(let property):
            return "'\(property)' needs an initial value (or an optional type) for '@Key(onError: .useDefault)' to fall back to"
        case .invalidKeyPath(let path, let reason):
            return "invalid remote key path '\(path)': \(reason)"
        case .lazyProperty(let property):
            return "lazy property '\(property)' cannot be mapped; mark it '@Transient'"
        case .transformOnTransient(let property):
            return "'@Transform' has no effect on '\(property)': transient properties are not mapped"
        case .unownedProperty(let property):
            return "unowned property '\(property)' cannot be mapped; use 'weak' or mark it '@Transient'"
        case .conflictingAttributes(let property, let first, let second):
            return "'\(property)' cannot be both '@\(first)' and '@\(second)'"
        case .invalidIndex(let argument, let reason):
            return "'@Model(\(argument):)' cannot be read: \(reason)"
        case .unknownIndexProperty(let property, let model):
            return "'\(property)' is not a stored property of '\(model)': an index names stored properties"
        case .unsearchableProperty(let property, let model, let reason):
            return "'@Model(search:)' cannot search '\(property)' of '\(model)': \(reason)"
        case .relationshipInStruct(let property, let model):
            return "'@Relationship' applies to properties of class models: '\(model)' is a struct, so '\(property)' "
                + "has no inverse to keep and no live instance to follow a delete; make '\(model)' a class"
        case .invalidDeleteRule(let expression):
            return "'\(expression)' is not a delete rule: write '.nullify', '.cascade', '.deny' or '.noAction'"
        case .invalidRepresentation(let expression):
            return "'\(expression)' is not a relationship representation: write '.nested' or '.identifiers'"
        case .invalidInverse(let property, let found, let reason):
            return "'\(found)' cannot be the inverse of '\(property)': \(reason)"
        case .localType(let name, let function):
            return "'@Model' cannot apply to '\(name)', a type declared inside \(function): Swift gives local types no "
                + "extension macros; declare '\(name)' at file scope or inside another type"
        }
    }

    public var diagnosticID: MessageID {
        let name: String
        switch self {
        case .defaultlessRecovery: name = "defaultlessRecovery"
        case .omitPolicyUnfit: name = "omitPolicyUnfit"
        case .unknownKeysUnfit: name = "unknownKeysUnfit"
        case .constraintsUnfit: name = "constraintsUnfit"
        case .presenceUnfit: name = "presenceUnfit"
        case .identifiedGenericModel: name = "identifiedGenericModel"
        case .enumUnfit: name = "enumUnfit"
        case .notAStructOrClass: name = "notAStructOrClass"
        case .genericModel: name = "genericModel"
        case .duplicateIdentifier: name = "duplicateIdentifier"
        case .attributeOnComputedProperty: name = "attributeOnComputedProperty"
        case .attributeOnStaticProperty: name = "attributeOnStaticProperty"
        case .missingTypeAnnotation: name = "missingTypeAnnotation"
        case .unfillableProperty: name = "unfillableProperty"
        case .constantInIdentifiedClass: name = "constantInIdentifiedClass"
        case .invalidKeyPath: name = "invalidKeyPath"
        case .lazyProperty: name = "lazyProperty"
        case .transformOnTransient: name = "transformOnTransient"
        case .unownedProperty: name = "unownedProperty"
        case .conflictingAttributes: name = "conflictingAttributes"
        case .localType: name = "localType"
        case .invalidIndex: name = "invalidIndex"
        case .unknownIndexProperty: name = "unknownIndexProperty"
        case .unsearchableProperty: name = "unsearchableProperty"
        case .relationshipInStruct: name = "relationshipInStruct"
        case .invalidDeleteRule: name = "invalidDeleteRule"
        case .invalidRepresentation: name = "invalidRepresentation"
        case .invalidInverse: name = "invalidInverse"
        }
        return MessageID(domain: "ModelKit", id: name)
    }

    public var severity: DiagnosticSeverity {
        switch self {
        case .transformOnTransient: return .warning
        default: return .error
        }
    }
}

/// The fix-its `@Model` offers with its diagnostics.
public enum ModelFixIt: FixItMessage, Equatable {
    case removeAttribute(String)
    case makeOptional(String)
    case makeVariable(String)
    case markTransient(String)
    case useInverseOf(String)

    public var message: String {
        switch self {
        case .removeAttribute(let attribute): return "remove '@\(attribute)'"
        case .makeOptional(let property): return "make '\(property)' optional"
        case .makeVariable(let property): return "make '\(property)' a 'var'"
        case .markTransient(let property): return "mark '\(property)' '@Transient'"
        case .useInverseOf(let model): return "use a property of '\(model)'"
        }
    }

    public var fixItID: MessageID {
        switch self {
        case .removeAttribute: return MessageID(domain: "ModelKit", id: "removeAttribute")
        case .makeOptional: return MessageID(domain: "ModelKit", id: "makeOptional")
        case .makeVariable: return MessageID(domain: "ModelKit", id: "makeVariable")
        case .markTransient: return MessageID(domain: "ModelKit", id: "markTransient")
        case .useInverseOf: return MessageID(domain: "ModelKit", id: "useInverseOf")
        }
    }
}
