// The compiler plugin message protocol, as swiftc speaks it to an executable plugin it loads with
// `-load-plugin-executable`: JSON messages, each framed by its length (see `MacroPluginClient`).
// These are the tests' own types for the messages the tests send and read; the plugin side is
// swift-syntax's SwiftCompilerPluginMessageHandling (`HostToPluginMessage`, `PluginToHostMessage`).

/// The protocol version the tests speak as a host: 7, the version that passes the conformance list
/// to extension macros, as swift-syntax 603 and the Swift 6 compilers do.
let hostProtocolVersion = 7

/// A message from the host to the plugin: `{"<kind>": {<fields>}}`.
enum HostMessage: Encodable, Sendable {
    /// Tells the plugin the host's protocol version, and asks for the plugin's.
    case getCapability(protocolVersion: Int)
    /// Asks for one role of an attached macro on one declaration.
    case expandAttachedMacro(AttachedExpansionRequest)

    /// The message's kind, as named on the wire and in failure messages.
    var kind: String {
        switch self {
        case .getCapability: "getCapability"
        case .expandAttachedMacro: "expandAttachedMacro"
        }
    }

    private enum Kind: String, CodingKey { case getCapability, expandAttachedMacro }
    private struct Capability: Encodable { var capability: HostCapability }
    private struct HostCapability: Encodable { var protocolVersion: Int }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Kind.self)
        switch self {
        case .getCapability(let version):
            try container.encode(Capability(capability: HostCapability(protocolVersion: version)), forKey: .getCapability)
        case .expandAttachedMacro(let request):
            try container.encode(request, forKey: .expandAttachedMacro)
        }
    }
}

/// The fields of an `expandAttachedMacro` message; optional fields swiftc leaves out are omitted.
struct AttachedExpansionRequest: Encodable, Sendable {
    var macro: MacroReference
    var macroRole: MacroRole
    /// A name unique to this expansion, for `makeUniqueName` (swiftc sends a mangled name).
    var discriminator: String
    var attributeSyntax: SyntaxPayload
    var declSyntax: SyntaxPayload
    /// The enclosing declaration, which swiftc sends only for member-attribute macros.
    var parentDeclSyntax: SyntaxPayload?
    /// The extended type (extension role): the type's name, qualified by the types it is nested in.
    var extendedTypeSyntax: SyntaxPayload?
    /// `struct Placeholder: P, Q {}`: the protocols the macro declares that the type lacks.
    var conformanceListSyntax: SyntaxPayload?
    /// The enclosing types, functions and closures, innermost first, with their bodies emptied.
    var lexicalContext: [SyntaxPayload]
}

/// Which macro implementation to run: `#externalMacro(module:type:)` and the name it is used by.
struct MacroReference: Codable, Sendable, Equatable {
    var moduleName: String
    var typeName: String
    var name: String
}

/// The macro roles of the protocol that attached macros use.
enum MacroRole: String, Codable, Sendable, Equatable {
    case accessor, memberAttribute, member, peer, `extension`
}

/// A piece of source sent to the plugin: its text (with the first token's leading trivia and the
/// last one's trailing trivia) and where that text starts in its file.
struct SyntaxPayload: Codable, Sendable, Equatable {
    enum Kind: String, Codable, Sendable { case declaration, statement, expression, type, pattern, attribute }

    var kind: Kind
    var source: String
    var location: SourceLocationPayload
}

/// Where a piece of source starts. Positions the plugin reports are UTF-8 offsets from this one.
struct SourceLocationPayload: Codable, Sendable, Equatable {
    /// `Module/File.swift`, as `#fileID` would say.
    var fileID: String
    /// The file's path, as `#filePath` would say; diagnostics name their file by it.
    var fileName: String
    /// UTF-8 offset in the file.
    var offset: Int
    var line: Int
    var column: Int

    /// What swiftc sends for syntax it makes up rather than reads from a file (the extended type,
    /// the conformance list, lexical contexts).
    static let synthesized = SourceLocationPayload(fileID: "", fileName: "", offset: 0, line: 0, column: 0)
}

/// A message from the plugin to the host, as far as the tests read them.
enum PluginResponse: Decodable, Sendable {
    /// `getCapabilityResult`: the plugin's protocol version and optional features.
    case capability(PluginCapability)
    /// `expandMacroResult`: the expanded source (nil when the macro threw) and the diagnostics.
    case expansion(ExpansionResult)
    /// Any other kind of message, by name.
    case other(kind: String)

    struct PluginCapability: Decodable, Sendable {
        var protocolVersion: Int
        var features: [String]?
    }

    private struct CapabilityResult: Decodable { var capability: PluginCapability }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            let kinds = container.allKeys.map(\.stringValue)
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "a message has exactly one kind; this one has \(kinds)"))
        }
        switch key.stringValue {
        case "getCapabilityResult":
            self = .capability(try container.decode(CapabilityResult.self, forKey: key).capability)
        case "expandMacroResult":
            self = .expansion(try container.decode(ExpansionResult.self, forKey: key))
        default:
            self = .other(kind: key.stringValue)
        }
    }
}

/// The answer to an expansion request.
struct ExpansionResult: Decodable, Sendable {
    /// The expansions of the role joined as swiftc inserts them; nil when the macro threw.
    var expandedSource: String?
    var diagnostics: [PluginDiagnostic]
}

/// A diagnostic a macro emitted, positioned by file name and UTF-8 offset.
struct PluginDiagnostic: Decodable, Sendable {
    enum Severity: String, Codable, Sendable, Equatable { case error, warning, note, remark }

    struct Position: Decodable, Sendable {
        var fileName: String
        var offset: Int
    }

    struct PositionRange: Decodable, Sendable {
        var fileName: String
        var startOffset: Int
        var endOffset: Int
    }

    struct Note: Decodable, Sendable {
        var position: Position
        var message: String
    }

    struct FixIt: Decodable, Sendable {
        /// Replaces the text in `range` (of the original file) with `newText`.
        struct Change: Decodable, Sendable {
            var range: PositionRange
            var newText: String
        }

        var message: String
        var changes: [Change]
    }

    var message: String
    var severity: Severity
    var position: Position
    var highlights: [PositionRange]
    var notes: [Note]
    var fixIts: [FixIt]
}
