import MacroTesting
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

    /// `source` expanded without expanding `@_ModelTracked` itself, so that the markers show.
    static func expandedUntracked(_ source: String) -> String {
        ModelKitMacros.expand(source, specs: ModelKitMacros.specs(tracking: false)).source
    }

    /// `account` expanded once for all the cases that look into it: an expansion of the whole
    /// class takes a third of a second in a debug build.
    static let accountExpansion = expandedUntracked(account)

    /// Whether the declaration that starts with `declaration` got `@_ModelTracked` in `expanded`.
    static func isTracked(_ declaration: String, inExpansion expanded: String) -> Bool {
        let lines = expanded.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let index = lines.firstIndex(where: { $0.hasPrefix(declaration) || $0.hasSuffix(" " + declaration) || $0.contains(declaration + ":") || $0.contains(declaration + " ") }) else {
            return false
        }
        return lines[index].hasPrefix("@_ModelTracked") || (index > 0 && lines[index - 1] == "@_ModelTracked")
    }

    @Test(arguments: [
        ("var id", true), ("var name", true), ("var cache", true), ("let created", false), ("var owner", false),
        ("var count", false), ("var shared", false), ("var computed", false), ("var watched", false),
        ("var expensive", false),
    ])
    func aClassTracksItsStoredVarsWithADeclaredType(declaration: String, tracked: Bool) {
        #expect(Self.isTracked(declaration, inExpansion: Self.accountExpansion) == tracked, "\(declaration)")
    }

    @Test(arguments: [
        "@Model(observable: false)\nfinal class Plain {\n    var name: String\n}",
        "@Model\nstruct Value {\n    var name: String\n}",
    ])
    func structsAndOptedOutClassesAreNotTracked(source: String) {
        #expect(!Self.isTracked("var name", inExpansion: Self.expandedUntracked(source)))
        let expanded = ModelKitMacros.expand(source).source
        #expect(!expanded.contains("_modelKitRegistrar"))
        #expect(!expanded.contains("ObservableModel"))
    }

    @Test func aTrackedPropertyMovesItsValueToAPrivatePeerBehindObservedAccessors() {
        assertMacro(ModelKitMacros.specs()) {
            """
            final class Account {
                @_ModelTracked var name: String = "new"
            }
            """
        } expansion: {
            #"""
            final class Account {
                var name: String {
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

                private var _name: String = "new"
            }
            """#
        }
    }
}
