/// Expands to nothing, through the package's own plugin.
@attached(member)
public macro Noop() = #externalMacro(module: "DepMacros", type: "NoopMacro")
