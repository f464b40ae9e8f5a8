// swift-tools-version: 6.1
import CompilerPluginSupport
import PackageDescription

// The baseline of ModelKit's build-cost ratio (`Benchmarks/build-cost.sh`): ModelKit's default
// dependencies, used the way ModelKit uses them, with no code of ModelKit's: a macro plugin on
// swift-syntax, a library on GRDB, a tool on ArgumentParser, and a Swift Testing target.
let package = Package(
    name: "BuildCostBaseline",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", exact: "603.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .macro(
            name: "DepMacros",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]),
        .target(name: "DepApi", dependencies: ["DepMacros"]),
        .target(name: "DepLib", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        .executableTarget(
            name: "DepTool",
            dependencies: ["DepApi", "DepLib", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "DepTests", dependencies: ["DepLib", "DepApi"]),
    ],
    swiftLanguageModes: [.v6]
)
