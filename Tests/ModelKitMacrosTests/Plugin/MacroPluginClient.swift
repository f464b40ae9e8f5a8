import Foundation
import ModelKitTestSupport

/// The built `ModelKitMacros-tool`, spoken to as swiftc speaks to it: the `getCapability`
/// handshake when it starts, then one `expandAttachedMacro` request per macro role, each answered
/// by an `expandMacroResult`.
///
/// One client serves one test (tests run in parallel, each with its own plugin process); it is not
/// shared across threads. ``finish()`` lets the plugin exit and checks that it exited cleanly.
final class MacroPluginClient {
    /// The compiler plugin SwiftPM builds for the `ModelKitMacros` macro target.
    static let plugin = BuiltExecutable(name: "ModelKitMacros-tool", environmentVariable: "MODELKIT_MACROS_PLUGIN")

    /// The plugin's answer to the handshake: its protocol version and optional features.
    let capability: PluginResponse.PluginCapability
    private let connection: PluginConnection

    /// Launches the built plugin and does the handshake; throws when the plugin was not built.
    convenience init(plugin: BuiltExecutable = MacroPluginClient.plugin) throws {
        switch plugin.location {
        case .success(let executable): try self.init(executable: executable)
        case .failure(let notFound): throw MacroPluginError.notBuilt(notFound.description)
        }
    }

    /// Launches `executable` as a plugin and does the handshake.
    init(executable: URL) throws {
        connection = try PluginConnection(executable: executable)
        switch try connection.exchange(.getCapability(protocolVersion: hostProtocolVersion)) {
        case .capability(let capability): self.capability = capability
        case let other: throw MacroPluginError.unexpected(other, answering: "getCapability")
        }
    }

    /// Expands one role of an attached macro.
    func expand(_ request: AttachedExpansionRequest) throws -> ExpansionResult {
        switch try connection.exchange(.expandAttachedMacro(request)) {
        case .expansion(let result): return result
        case let other: throw MacroPluginError.unexpected(other, answering: "expandAttachedMacro")
        }
    }

    /// Closes the plugin's input, which ends it; throws if it did not exit cleanly.
    func finish() throws {
        try connection.close()
    }
}

/// Why talking to the plugin failed; each says what happened and what the plugin said on its
/// standard error.
enum MacroPluginError: Error, CustomStringConvertible {
    case notBuilt(String)
    case launchFailed(String, String)
    case stopped(String, log: String)
    case exitedAbnormally(String, log: String)
    case malformedAnswer(to: String, String, text: String)
    case unexpectedAnswer(to: String, got: String)

    /// An answer of the wrong kind.
    static func unexpected(_ response: PluginResponse, answering kind: String) -> MacroPluginError {
        let got =
            switch response {
            case .capability: "getCapabilityResult"
            case .expansion: "expandMacroResult"
            case .other(let name): name
            }
        return .unexpectedAnswer(to: kind, got: got)
    }

    var description: String {
        switch self {
        case .notBuilt(let reason):
            "the macro plugin is missing: \(reason)"
        case .launchFailed(let path, let error):
            "the macro plugin at \(path) did not launch: \(error)"
        case .stopped(let what, let log):
            "the macro plugin \(what)" + Self.stderr(log)
        case .exitedAbnormally(let how, let log):
            "the macro plugin did not exit cleanly: \(how)" + Self.stderr(log)
        case .malformedAnswer(let kind, let problem, let text):
            "the macro plugin's answer to \(kind) is not a valid message: \(problem)"
                + (text.isEmpty ? "" : "\nanswer: \(text)")
        case .unexpectedAnswer(let kind, let got):
            "the macro plugin answered \(kind) with a '\(got)' message"
        }
    }

    private static func stderr(_ log: String) -> String {
        log.isEmpty ? " (nothing on its standard error)" : "; its standard error:\n\(log)"
    }
}
