// swift-tools-version: 6.0
import PackageDescription

// ModelKit's benchmarks: each comparison runs ModelKit and a Foundation (or GRDB) baseline on
// the same input in the same process and prints one line with both rates and their ratio.
//
//     swift run -c release --package-path Benchmarks modelkit-benchmarks [name-prefix ...]
let package = Package(
    name: "ModelKitBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: "..")
    ],
    targets: [
        .executableTarget(
            name: "modelkit-benchmarks",
            dependencies: [.product(name: "ModelKit", package: "ModelKit")],
            path: "Sources/ModelKitBenchmarks",
            resources: [.copy("Resources")]
        )
    ],
    swiftLanguageModes: [.v6]
)
