import ModelKitTestSupport
import Testing

/// `@Model` classes are observable: each stored `var` gets `@_ModelTracked`, whose accessors
/// report to the class's registrar; structs, `observable: false` classes and properties whose
/// storage something else owns are left alone.
@Suite struct ObservationExpansionTests {
    static let account = """
        @Model
        final class Account {
            @Key("account_id") var id: Int
            var name: String
            @Transient var cache: String? = nil
            let created: Double
            weak var owner: Account?
            var count = 0
            static var shared: Int = 0
            var computed: Int { 1 }
            var watched: Int = 0 { didSet { print(watched) } }
            @Transient lazy var expensive: Int = 1
        }
        """

    /// The member attribute each member of `source`'s `@Model` type got, by declaration.
    func memberAttributes(_ source: String) -> [String: String] {
        guard let expansion = expandModelKitMacros(in: source) else { return [:] }
        var result: [String: String] = [:]
        for role in expansion.roles where role.role == .memberAttribute {
            result[role.declaration] = role.result.expandedSource?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "(failed)"
        }
        return result
    }

    @Test(arguments: [
        ("var id", "@_ModelTracked"),
        ("var name", "@_ModelTracked"),
        ("var cache", "@_ModelTracked"),
        ("let created", ""),
        ("var owner", ""),
        ("var count", ""),
        ("var shared", ""),
        ("var computed", ""),
        ("var watched", ""),
        ("var expensive", ""),
    ])
    func aClassTracksItsStoredVarsWithADeclaredType(declaration: String, attribute: String) {
        expectEqual(memberAttributes(Self.account)[declaration], attribute)
    }

    @Test(arguments: [
        "@Model(observable: false)\nfinal class Plain {\n    var name: String\n}",
        "@Model\nstruct Value {\n    var name: String\n}",
    ])
    func structsAndOptedOutClassesAreNotTracked(source: String) throws {
        let attributes = memberAttributes(source)
        expectEqual(attributes["var name"], "")
        let expansion = try #require(expandModelKitMacros(in: source))
        let generated = expansion.roles.compactMap(\.result.expandedSource).joined()
        #expect(!generated.contains("_modelKitRegistrar"))
        #expect(!generated.contains("ObservableModel"))
    }

    @Test func aTrackedPropertyMovesItsValueToAPrivatePeerBehindObservedAccessors() throws {
        let source = """
            final class Account {
                @_ModelTracked var name: String = "new"
            }
            """
        let expansion = try #require(expandModelKitMacros(in: source))
        let accessor = try #require(expansion.roles.first { $0.role == .accessor })
        expectExpansion(
            accessor,
            toBe: #"""
                {
                    @storageRestrictions(initializes: _name)
                    init(initialValue) {
                        _name = initialValue
                    }
                    get {
                        _modelKitAccess(\.name)
                        return _name
                    }
                    set {
                        guard ModelKitCore.modelValueChanges(_name, newValue) else {
                            _name = newValue
                            return
                        }
                        _modelKitMutate(\.name) {
                            _name = newValue
                        }
                    }
                    _modify {
                        _modelKitAccess(\.name)
                        _modelKitWillModify(\.name)
                        defer {
                            _modelKitDidModify(\.name)
                        }
                        yield &_name
                    }
                }
                """#, sourceLocation: #_sourceLocation)
        let peer = try #require(expansion.roles.first { $0.role == .peer })
        expectExpansion(peer, toBe: #"private var _name: String = "new""#, sourceLocation: #_sourceLocation)
    }
}
