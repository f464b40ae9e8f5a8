// swift-tools-version: 6.1
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its folder, so the checkout's folder name is the package
// to depend on, whatever the clone is called.
let modelKitPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent.lowercased()

// ModelKit's benchmarks: each comparison runs ModelKit and a Foundation (or GRDB) baseline on
// the same input in the same process and prints one line with both rates and their ratio.
//
//     swift run -c release --package-path Benchmarks modelkit-benchmarks [name-prefix ...]
//
// With `--traits PostgreSQL` and MODELKIT_POSTGRES_URL set, the store comparisons also run on
// PostgreSQL, against raw PostgresNIO. With `--traits Hummingbird`, `server.route` runs a
// Hummingbird route under load with ModelKit's coders and with JSONDecoder/JSONEncoder.
let package = Package(
    name: "ModelKitBenchmarks",
    platforms: [.macOS(.v14)],
    traits: [
        .trait(name: "PostgreSQL", description: "The PostgreSQL store comparisons (ModelKit's trait of the same name)."),
        .trait(name: "Hummingbird", description: "The server lines: a Hummingbird route with ModelKit's coders and with Foundation's."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(
            path: "..",
            traits: [
                .trait(name: "PostgreSQL", condition: .when(traits: ["PostgreSQL"])),
                .trait(name: "Hummingbird", condition: .when(traits: ["Hummingbird"])),
            ]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The raw baseline of the store comparisons.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "modelkit-benchmarks",
            dependencies: [
                .product(name: "ModelKit", package: modelKitPackage),
                .product(name: "ModelKitStore", package: modelKitPackage),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ModelKitPostgres", package: modelKitPackage),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ModelKitHummingbird", package: modelKitPackage),
                .product(name: "Hummingbird", package: "hummingbird", condition: .when(traits: ["Hummingbird"])),
            ],
            path: "Sources/ModelKitBenchmarks",
            resources: [.copy("Resources")]
        )
    ],
    swiftLanguageModes: [.v6]
)
