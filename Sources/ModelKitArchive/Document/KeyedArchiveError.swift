import ModelKitCore
import ModelKitPropertyList

/// An error in a keyed archive's structure, or an object the archive cannot hold: what is wrong,
/// and where (the object, the key, the model property, the classes involved).
///
/// Mapping problems inside well-formed archives (a string where an integer belongs, a number out
/// of range, a missing required value) are `ModelError`s instead. `description` is one
/// lowercase sentence, identifiers in quotes:
///
/// ```swift
/// do {
///     let document = try KeyedUnarchiver.unarchive(Document.self, from: data)
/// } catch let error as KeyedArchiveError {
///     print(error)
///     // cannot decode 'Document.author' (object 12): class 'Hacker' is not allowed; allowed: 'Person', 'NSNull'
///     if case .classNotAllowed(let found, _) = error.kind { print(found) }
/// }
/// ```
public struct KeyedArchiveError: Error, CustomStringConvertible, Sendable {
    /// What went wrong.
    ///
    /// Not frozen: kinds can be added in a minor release, so a `switch` over them needs a
    /// `default`.
    public enum Kind: Equatable, Sendable {
        /// The bytes are not a well-formed property list.
        case propertyList(PropertyListError)
        /// The property list's root is not a dictionary.
        case rootNotDictionary(found: String)
        /// The root dictionary has no `$archiver`.
        case missingArchiver
        /// `$archiver` is not `NSKeyedArchiver` (`found` describes what it is).
        case wrongArchiver(found: String)
        /// The root dictionary has no `$version`.
        case missingVersion
        /// `$version` is not 100000.
        case unsupportedVersion(found: String)
        /// The root dictionary has no `$top`.
        case missingTop
        /// `$top` is not a dictionary.
        case invalidTop(found: String)
        /// `$top` has no entry for the root key a one-shot read asked for (`root` unless the
        /// archive was written with other top-level keys).
        case missingRoot(key: String)
        /// The root dictionary has no `$objects`.
        case missingObjects
        /// `$objects` is not an array that starts with `$null` (`detail` says how).
        case invalidObjects(detail: String)
        /// A reference (`CF$UID`) points past the end of `$objects`.
        case referenceOutOfRange(UInt64, objects: Int)
        /// An object dictionary has no `$class` reference.
        case missingClass
        /// `$class` does not refer to a class description (`detail` says what it refers to).
        case invalidClassReference(detail: String)
        /// A class description lacks a string `$classname`, or its `$classes` is not a list of strings.
        case invalidClassDescription(detail: String)
        /// A class description or a non-object value sits where an object was expected.
        case notAnObject(found: String)
        /// The object's class is not one the declared type (or the registry) allows.
        case classNotAllowed(found: String, allowed: [String])
        /// The object's class is a subclass of the declared type that is not registered, and the
        /// delegate named no type for it (Apple's `cannotDecodeObjectOfClassName`): decoding it as
        /// its base class would lose what the subclass stores. `classes` is its archived chain.
        case unknownSubclass(name: String, classes: [String])
        /// An object of a known class lacks what its class stores (`detail` says what).
        case invalidObject(className: String, detail: String)
        /// An object refers back to itself where the cycle cannot be closed (`detail` says through what).
        case unresolvableCycle(detail: String)
        /// A limit of ``KeyedArchiveLimits`` was exceeded.
        case limitExceeded(KeyedArchiveLimits.Limit, limit: Int)
        /// A value cannot be written to an archive (`detail` says why).
        case unencodable(detail: String)
    }

    /// What went wrong.
    public let kind: Kind
    /// The object (its index in `$objects`) where the problem was found, when known.
    public internal(set) var objectID: Int?
    /// The key being read or written (an archive key, or a property key), when known.
    public internal(set) var key: String?
    /// The model type being decoded or encoded, when known.
    public internal(set) var modelName: String?
    /// Whether this error happened while writing.
    public let isEncoding: Bool

    /// Creates an error; the archiver and unarchiver create these, tests compare against them.
    public init(_ kind: Kind, objectID: Int? = nil, key: String? = nil, modelName: String? = nil, isEncoding: Bool = false) {
        self.kind = kind
        self.objectID = objectID
        self.key = key
        self.modelName = modelName
        self.isEncoding = isEncoding
    }

    /// The class found, for ``Kind/classNotAllowed(found:allowed:)`` and ``Kind/invalidObject(className:detail:)``.
    public var className: String? {
        switch kind {
        case .classNotAllowed(let found, _): return found
        case .unknownSubclass(let name, _): return name
        case .invalidObject(let name, _): return name
        default: return nil
        }
    }

    /// The classes allowed, for ``Kind/classNotAllowed(found:allowed:)``.
    public var allowedClasses: [String] {
        if case .classNotAllowed(_, let allowed) = kind { return allowed }
        return []
    }

    /// The same error with the model, key and object filled in where they are not known yet (the
    /// innermost context wins).
    /// What reading or writing property `index` of `schema` threw, as the archive reports it: its
    /// own errors keep their kind, with the model and key named; others are wrapped in a
    /// ``ModelError`` naming them, as every format wraps them.
    static func field(_ error: any Error, _ index: Int, of schema: ModelSchema, objectID: Int?) -> any Error {
        guard let error = error as? KeyedArchiveError else {
            return ModelError(.invalidValue, model: schema.modelName, property: schema.propertyName(at: index), underlying: error)
        }
        return error.inContext(model: schema.modelName, key: schema.propertyName(at: index), objectID: objectID)
    }

    func inContext(model: String?, key: String?, objectID: Int?) -> KeyedArchiveError {
        var copy = self
        if copy.key == nil && copy.modelName == nil {
            copy.key = key
            copy.modelName = model
        }
        if copy.objectID == nil { copy.objectID = objectID }
        return copy
    }

    /// One lowercase sentence: what was being done, where, and the problem.
    public var description: String {
        var subject: String
        switch kind {
        case .propertyList(let error): return "cannot read keyed archive: \(error)"
        case .rootNotDictionary, .missingArchiver, .wrongArchiver, .missingTop, .invalidTop, .missingObjects,
            .invalidObjects:
            subject = "not a keyed archive"
        case .missingVersion, .unsupportedVersion:
            subject = "unsupported keyed archive"
        case .referenceOutOfRange, .missingClass, .invalidClassReference, .invalidClassDescription:
            subject = "invalid keyed archive"
            if let objectID {
                subject += " at object \(objectID)" + (key.map { ", key '\($0)'" } ?? "")
            } else if let key {
                subject += " at '$top.\(key)'"
            }
        default:
            subject = isEncoding ? "cannot encode" : "cannot decode"
            if let modelName {
                subject += " '\(modelName)\(key.map { ".\($0)" } ?? "")'"
            } else if let key {
                subject += " '\(key)'"
            }
            if let objectID {
                subject += modelName == nil && key == nil ? " object \(objectID)" : " (object \(objectID))"
            }
        }
        return subject + ": " + kind.message
    }
}

extension KeyedArchiveError.Kind {
    /// The part of the message after the colon.
    ///
    /// ```swift
    /// KeyedArchiveError.Kind.missingTop.message   // "'$top' is missing"
    /// ```
    public var message: String {
        switch self {
        case .propertyList(let error): return error.description
        case .rootNotDictionary(let found): return "the root is \(found), not a dictionary"
        case .missingArchiver: return "'$archiver' is missing"
        case .wrongArchiver(let found): return "'$archiver' is \(found), expected 'NSKeyedArchiver'"
        case .missingVersion: return "'$version' is missing"
        case .unsupportedVersion(let found): return "'$version' is \(found), expected 100000"
        case .missingTop: return "'$top' is missing"
        case .invalidTop(let found): return "'$top' is \(found), not a dictionary"
        case .missingRoot(let key):
            return "'$top' has no '\(key)' (no root object; read the archive's other keys with a KeyedUnarchiver)"
        case .missingObjects: return "'$objects' is missing"
        case .invalidObjects(let detail): return detail
        case let .referenceOutOfRange(reference, objects):
            return "reference \(reference) is out of range (\(objects) objects)"
        case .missingClass: return "the object has no '$class'"
        case .invalidClassReference(let detail): return "'$class' \(detail), not a class description"
        case .invalidClassDescription(let detail): return "invalid class description: \(detail)"
        case .notAnObject(let found): return "expected an object, found \(found)"
        case let .classNotAllowed(found, allowed):
            let list = allowed.isEmpty ? "none" : allowed.map { "'\($0)'" }.joined(separator: ", ")
            return "class '\(found)' is not allowed; allowed: \(list)"
        case let .unknownSubclass(name, classes):
            return "class '\(name)' (\(classes.map { "'\($0)'" }.joined(separator: " < "))) is not registered; "
                + "register the model for it, or name a type in the delegate's cannotDecodeObjectOfClassName"
        case let .invalidObject(className, detail): return "invalid '\(className)' object: \(detail)"
        case .unresolvableCycle(let detail): return "reference cycle \(detail)"
        case let .limitExceeded(limit, value): return "\(limit.noun) exceeds the limit '\(limit)' (\(value))"
        case .unencodable(let detail): return detail
        }
    }
}
