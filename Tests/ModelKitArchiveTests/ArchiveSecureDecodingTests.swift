import Foundation
import ModelKit
import Testing
import ModelKitTestSupport

/// Secure decoding: types come only from the declared types and the registry; anything else is
/// a typed error naming the key, the class found and the classes allowed. Limits bound the work.
struct ArchiveSecureDecodingTests {
    @Test func aClassTheDeclaredTypeDoesNotAllowIsRejected() throws {
        let canvas = Canvas(shapes: [])
        canvas.owner = Person(name: "Mallory")
        let archiver = KeyedArchiver()
        archiver.setClassName("Hacker", for: Person.self)
        try archiver.encode(canvas, forKey: "root")
        let unarchiver = try KeyedUnarchiver(data: try archiver.finishEncoding())
        let error = try #require(throws: KeyedArchiveError.self) { try unarchiver.decode(Canvas.self, forKey: "root") }
        expectEqual(error.kind, .classNotAllowed(found: "Hacker", allowed: ["Person", "NSNull"]))
        #expect(error.key == "owner" && error.modelName == "Canvas" && error.className == "Hacker")
        expectEqual(error.allowedClasses, ["Person", "NSNull"])
        let object = try #require(error.objectID)
        #expect(unarchiver.document.archivedClass(of: object)?.name == "Hacker")
        expectEqual(error.description, "cannot decode 'Canvas.owner' (object \(object)): class 'Hacker' is not allowed; allowed: 'Person', 'NSNull'")
    }

    @Test func aRootOfTheWrongClassIsRejected() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Person(name: "P"))
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchive(Team.self, from: data) }
        expectEqual(error.description, "cannot decode 'root' (object 1): class 'Person' is not allowed; allowed: 'Team'")
    }

    @Test func registeredSubclassesDecodeAsThemselves() throws {
        let canvas = Canvas(shapes: [Circle(name: "c", radius: 2), Shape(name: "s")])
        let data = try KeyedArchiver.archivedData(withRootObject: canvas)
        var registry = ArchiveClassRegistry()
        registry.register(Circle.self)
        let decoded = try KeyedUnarchiver.unarchive(Canvas.self, from: data, registry: registry)
        #expect((decoded.shapes[0] as? Circle)?.radius == 2)
        #expect(type(of: decoded.shapes[1]) == Shape.self)
    }

    /// An unregistered subclass is never decoded as its base class (which would drop what the
    /// subclass stores): it is an error naming it, unless the delegate names a type for it.
    @Test func unregisteredSubclassesAreErrorsOrWhatTheDelegateNames() throws {
        let canvas = Canvas(shapes: [Circle(name: "c", radius: 2), Shape(name: "s")])
        let data = try KeyedArchiver.archivedData(withRootObject: canvas)
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchive(Canvas.self, from: data) }
        expectEqual(error.kind, .unknownSubclass(name: "Circle", classes: ["Circle", "Shape", "NSObject"]))
        expectEqual(error.className, "Circle")
        #expect(error.description.hasPrefix("cannot decode 'Shape' (object "))
        #expect(error.description.hasSuffix(
            "class 'Circle' ('Circle' < 'Shape' < 'NSObject') is not registered; register the model for it, or name a type in the delegate's cannotDecodeObjectOfClassName"))

        final class Namer: KeyedUnarchiverDelegate {
            var asked: [(String, [String])] = []
            func unarchiver(
                _ unarchiver: KeyedUnarchiver, cannotDecodeObjectOfClassName name: String, originalClasses classes: [String]
            ) -> (any Model.Type)? {
                asked.append((name, classes))
                return name == "Circle" ? Circle.self : nil
            }
        }
        let namer = Namer()
        let unarchiver = try KeyedUnarchiver(data: data)
        unarchiver.delegate = namer
        let decoded = try unarchiver.decode(Canvas.self, forKey: "root")
        #expect((decoded.shapes[0] as? Circle)?.radius == 2 && decoded.shapes[1].name == "s")
        #expect(namer.asked.map(\.0) == ["Circle"] && namer.asked.first?.1 == ["Circle", "Shape", "NSObject"])
        // A delegate that names nothing, or a type that is not a 'Shape', leaves the error.
        final class Refuser: KeyedUnarchiverDelegate {
            func unarchiver(
                _ unarchiver: KeyedUnarchiver, cannotDecodeObjectOfClassName name: String, originalClasses classes: [String]
            ) -> (any Model.Type)? { Person.self }
        }
        let refusing = try KeyedUnarchiver(data: data)
        let refuser = Refuser()
        refusing.delegate = refuser
        #expect(throws: KeyedArchiveError.self) { try refusing.decode(Canvas.self, forKey: "root") }
    }

    @Test func declaredAllowedClassesReplaceTheDerivedOnes() throws {
        let gallery = Gallery()
        gallery.owner = Person(name: "Owner")
        let data = try KeyedArchiver.archivedData(withRootObject: gallery)
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver.unarchive(Gallery.self, from: data) }
        expectEqual(error.kind, .classNotAllowed(found: "Person", allowed: ["Curator"]))
    }

    @Test func classNamesMapBothWays() throws {
        let archiver = KeyedArchiver()
        archiver.setClassName("MyApp.Person", for: Person.self)
        try archiver.encode(Person(name: "Mapped"), forKey: "root")
        let data = try archiver.finishEncoding()
        let document = try KeyedArchiveDocument(data: data)
        expectEqual(document.archivedClass(of: 1), ArchivedClass(name: "MyApp.Person", chain: ["MyApp.Person", "NSObject"]))
        let unarchiver = try KeyedUnarchiver(data: data)
        #expect(throws: KeyedArchiveError.self) { try unarchiver.decode(Person.self, forKey: "root") }
        let mapped = try KeyedUnarchiver(data: data)
        mapped.setClass(Person.self, forClassName: "MyApp.Person")
        try expectEqual(mapped.decode(Person.self, forKey: "root").name, "Mapped")
        #expect((try mapped.decodeObject(forKey: "root") as? Person)?.name == "Mapped")
    }

    @Test func unknownClassesCanBeRefusedInGenericDecoding() throws {
        let data = Data(Fixtures.named("bpylist2/simple_archive.plist").bytes)
        let unarchiver = try KeyedUnarchiver(data: data)
        unarchiver.decodesUnknownClasses = false
        let error = try #require(throws: KeyedArchiveError.self) { try unarchiver.decodeObject(forKey: "root") }
        expectEqual(error.kind, .classNotAllowed(found: "crap.Foo", allowed: []))
        expectEqual(error.description, "cannot decode 'root' (object 1): class 'crap.Foo' is not allowed; allowed: none")
    }

    @Test func aReferenceOutOfRangeInsideAnObjectIsRejected() throws {
        let archive: PropertyListValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)],
            "$objects": ["$null", ["$class": .uid(2), "NS.objects": [.uid(1), .uid(99)]], ["$classname": "NSArray"]],
        ]
        let error = try #require(throws: KeyedArchiveError.self) { try KeyedUnarchiver(data: archive.binaryData()) }
        expectEqual(error.description, "invalid keyed archive at object 1, key 'NS.objects': reference 99 is out of range (3 objects)")
    }

    @Test func theObjectCountIsLimited() throws {
        let data = try KeyedArchiver.archivedData(withRootObject: Array(repeating: "x", count: 10).enumerated().map { "\($0)\($1)" })
        let error = try #require(throws: KeyedArchiveError.self) {
            try KeyedUnarchiver(data: data, limits: KeyedArchiveLimits(maxObjectCount: 5))
        }
        expectEqual(error.kind, .limitExceeded(.maxObjectCount, limit: 5))
        expectEqual(error.description, "cannot decode: object count exceeds the limit 'maxObjectCount' (5)")
    }

    @Test func sharedReferencesThatExpandExponentiallyHitTheDecodingLimit() throws {
        // Object i is an array holding object i + 1 twice: 2^40 paths to the last one.
        var objects: [PropertyListValue] = ["$null"]
        for index in 0..<40 {
            objects.append(["$class": .uid(42), "NS.objects": [.uid(UInt64(index + 2)), .uid(UInt64(index + 2))]])
        }
        objects.append("leaf")
        objects.append(["$classname": "NSArray", "$classes": ["NSArray", "NSObject"]])
        let archive: PropertyListValue = [
            "$archiver": "NSKeyedArchiver", "$version": 100_000, "$top": ["root": .uid(1)], "$objects": .array(objects),
        ]
        let limits = KeyedArchiveLimits(maxDecodedObjects: 100_000)
        let unarchiver = try KeyedUnarchiver(data: archive.binaryData(), limits: limits)
        let error = try #require(throws: KeyedArchiveError.self) { try unarchiver.decode(JSONValue.self, forKey: "root") }
        expectEqual(error.kind, .limitExceeded(.maxDecodedObjects, limit: 100_000))
        // Generic decoding shares decoded collections, so it stays linear.
        let fresh = try KeyedUnarchiver(data: archive.binaryData(), limits: limits)
        let generic = try #require(try fresh.decodeObject(forKey: "root") as? [Any])
        expectEqual(generic.count, 2)
    }
}
