// swift-tools-version: 6.0
import PackageDescription

// SwiftPM names a path dependency after its folder. This package's folder is `Fuzz`, so a
// checkout named `fuzz` would clash with it: run.sh links the root as .build-fuzz/modelkit and
// the dependency goes through that link, whatever the checkout is called.
let modelKitPackage = "modelkit"

// ModelKit's libFuzzer harnesses, one executable per reader. Build and run them with run.sh:
//
//     Fuzz/run.sh fuzz-json-value 60
//
// Each harness defines LLVMFuzzerTestOneInput, so it must be compiled as a library
// (-parse-as-library) and linked with -sanitize=fuzzer (run.sh passes it to the whole build,
// so the library code is instrumented for coverage too).
let harnesses: [(name: String, products: [String])] = [
    ("fuzz-json-model", ["ModelKit"]),
    ("fuzz-json-value", ["ModelKit"]),
    ("fuzz-plist-binary", ["ModelKit"]),
    ("fuzz-plist-xml", ["ModelKit"]),
    ("fuzz-archive-models", ["ModelKit"]),
    ("fuzz-archive-dump", ["ModelKit"]),
    ("fuzz-preferences", ["ModelKit", "ModelKitPreferences"]),
]

let package = Package(
    name: "ModelKitFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".build-fuzz/modelkit")
    ],
    targets: [
        .target(name: "FuzzSupport", path: "Sources/FuzzSupport")
    ] + harnesses.map { harness in
        .executableTarget(
            name: harness.name,
            dependencies: ["FuzzSupport"] + harness.products.map { .product(name: $0, package: modelKitPackage) },
            path: "Sources/\(harness.name)",
            swiftSettings: [.unsafeFlags(["-parse-as-library"])],
            linkerSettings: [.unsafeFlags(["-sanitize=fuzzer,address"])]
        )
    },
    swiftLanguageModes: [.v6]
)
