import Foundation
import ModelKitTestSupport
import Testing

/// The client the macro tests talk to the plugin with: the handshake with the built plugin, and
/// clear failures when there is no plugin or it does not speak the protocol.
@Suite struct MacroPluginClientTests {
    @Test func theBuiltPluginAnswersTheHandshakeAndExitsWhenItsInputCloses() throws {
        let plugin = try MacroPluginClient()
        // 5 is the first version whose plugins answer every expansion with `expandMacroResult`.
        #expect(plugin.capability.protocolVersion >= 5)
        #expect(plugin.capability.features ?? [] == [])
        try plugin.finish()
    }

    @Test func aMissingPluginIsAFailureThatSaysWhereItWasLookedFor() {
        let missing = BuiltExecutable(name: "NoSuchPlugin-tool", environmentVariable: "MODELKIT_NO_SUCH_PLUGIN")
        let error = #expect(throws: MacroPluginError.self) { try MacroPluginClient(plugin: missing) }
        let message = error.map(String.init(describing:)) ?? ""
        #expect(message.hasPrefix("the macro plugin is missing: 'NoSuchPlugin-tool' was not found"))
        #expect(message.contains("MODELKIT_NO_SUCH_PLUGIN") && message.contains("/NoSuchPlugin-tool"))
    }

    @Test func aPluginThatExitsWithoutAnsweringIsAFailure() {
        let error = #expect(throws: MacroPluginError.self) {
            try MacroPluginClient(executable: URL(fileURLWithPath: "/usr/bin/true"))
        }
        // Depending on how fast it exits, it stops reading the handshake or answering it.
        let message = error.map(String.init(describing:)) ?? ""
        #expect(
            message == "the macro plugin closed its output answering getCapability (nothing on its standard error)"
                || message == "the macro plugin stopped reading before it was sent getCapability (nothing on its standard error)")
    }

    /// `cat` sends the handshake back: a message of the host's kind, not an answer.
    @Test func anAnswerOfTheWrongKindIsAFailure() {
        let error = #expect(throws: MacroPluginError.self) {
            try MacroPluginClient(executable: URL(fileURLWithPath: "/bin/cat"))
        }
        let message = error.map(String.init(describing:)) ?? ""
        expectEqual(message, "the macro plugin answered getCapability with a 'getCapability' message")
    }
}
