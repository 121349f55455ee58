// swift-tools-version:6.1

import PackageDescription

let package = Package(
    name: "Sculpt",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Sculpt", targets: ["Sculpt"]),
        .library(name: "SculptMatchers", targets: ["SculptMatchers"]),
        .library(name: "SculptJSON", targets: ["SculptJSON"]),
        .library(name: "SculptLoading", targets: ["SculptLoading"]),
        .library(name: "SculptTesting", targets: ["SculptTesting"]),
        // The Swift Testing trait `.cassette`: for test targets only, since it links Swift Testing.
        .library(name: "SculptTestingTraits", targets: ["SculptTestingTraits"]),
        // The persistent store, on SQLite through GRDB: empty unless the Persistence trait is on.
        .library(name: "SculptStore", targets: ["SculptStore"]),
        // Serializing AsyncHTTPClient's responses: empty unless the AsyncHTTPClientAdapter trait is on.
        .library(name: "SculptAsyncHTTPClient", targets: ["SculptAsyncHTTPClient"]),
        // XML models through XMLCoder: a package builds XMLCoder only when it uses this product.
        .library(name: "SculptXML", targets: ["SculptXML"]),
        .executable(name: "sculpt-example", targets: ["SculptExample"]),
        // The `sculpt` command: serve fixtures, import HAR archives, record through a proxy, check fixtures.
        .executable(name: "sculpt", targets: ["SculptCommand"]),
        // `swift package sculpt check Tests/Fixtures`: the command without installing it.
        .plugin(name: "SculptPlugin", targets: ["SculptPlugin"]),
    ],
    traits: [
        .trait(
            name: "Persistence",
            description: "Builds SculptStore (SQLite through GRDB). Off by default: a package that depends on Sculpt never builds GRDB unless it asks."
        ),
        .trait(
            name: "AsyncHTTPClientAdapter",
            description: "Builds SculptAsyncHTTPClient (AsyncHTTPClient, SwiftNIO, BoringSSL). Off by default: minutes of build a URLSession user never pays."
        ),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.100.0"),
        .package(url: "https://github.com/CoreOffice/XMLCoder.git", from: "0.18.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.5.0"),
        // `swift package generate-documentation`: builds nothing into the products.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // What several modules share and no user imports: the JSON lexer and scan, text clipping
        // and escaping, the secret vocabulary, the Foundation field conversion.
        .target(
            name: "SculptShared",
            dependencies: [
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "Sculpt",
            dependencies: [
                "SculptShared",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HTTPTypesFoundation", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "SculptJSON",
            dependencies: ["Sculpt", "SculptShared"]
        ),
        .target(
            name: "SculptLoading",
            dependencies: [
                "Sculpt", "SculptShared",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "SculptMatchers",
            dependencies: [
                "Sculpt", "SculptShared",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .target(
            name: "SculptTesting",
            dependencies: [
                "Sculpt", "SculptShared", "SculptMatchers",
                "CZlib",
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        // Links Swift Testing, so nothing but test targets may depend on it: the `sculpt` command
        // and the example depend on SculptTesting alone.
        .target(
            name: "SculptTestingTraits",
            dependencies: ["SculptTesting", "SculptShared"]
        ),
        .target(
            name: "SculptStore",
            dependencies: [
                "Sculpt", "SculptLoading", "SculptShared",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift", condition: .when(traits: ["Persistence"])),
            ]
        ),
        .target(
            name: "SculptAsyncHTTPClient",
            dependencies: [
                "Sculpt", "SculptShared",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClientAdapter"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClientAdapter"])),
            ]
        ),
        .target(
            name: "SculptXML",
            dependencies: [
                "Sculpt", "SculptShared",
                .product(name: "XMLCoder", package: "XMLCoder"),
            ]
        ),
        // zlib, for SculptTesting only: gunzip of recorded bodies.
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]),
        .executableTarget(
            name: "SculptExample",
            dependencies: ["Sculpt", "SculptMatchers", "SculptJSON", "SculptLoading", "SculptTesting"]
        ),
        .executableTarget(
            name: "SculptCommand",
            dependencies: [
                "Sculpt", "SculptShared", "SculptJSON", "SculptTesting",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        ),
        .plugin(
            name: "SculptPlugin",
            capability: .command(
                intent: .custom(verb: "sculpt", description: "Serve, record, import, check and compare recorded HTTP fixtures (the sculpt command).")
            )
        ),
        .testTarget(
            name: "SculptTests",
            dependencies: [
                "Sculpt", "SculptShared", "SculptMatchers", "SculptJSON", "SculptLoading", "SculptTesting", "SculptTestingTraits", "SculptStore", "SculptAsyncHTTPClient", "SculptXML",
                // Built so the tests can run it as a user does, as a subprocess.
                "SculptCommand",
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClientAdapter"])),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
