// swift-tools-version:6.1

import PackageDescription

// libFuzzer targets for Sculpt, in their own package: they are built with
// `-sanitize=fuzzer,address`, which a normal build of Sculpt must never see. Build and run them
// with `Fuzz/run` (see Docs/Reliability.md).
let fuzzTargets = ["FuzzDiscriminator", "FuzzKeyPath", "FuzzURLMatching", "FuzzRouteTable", "FuzzFixture", "FuzzHAR", "FuzzSerializer", "FuzzHTTPServer", "FuzzRedaction", "FuzzXML", "FuzzPropertyList", "FuzzJSONDecoder"]

let package = Package(
    name: "SculptFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Sculpt", path: ".."),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
    ],
    targets: [
        .target(name: "CLibFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CLibFuzzer",
                .product(name: "Sculpt", package: "Sculpt"),
                .product(name: "SculptMatchers", package: "Sculpt"),
                .product(name: "SculptJSON", package: "Sculpt"),
                .product(name: "SculptTesting", package: "Sculpt"),
            ]
        )
    ]
        + fuzzTargets.map { name in
            .executableTarget(
                name: name,
                dependencies: [
                    "FuzzSupport",
                    .product(name: "Sculpt", package: "Sculpt"),
                    .product(name: "SculptMatchers", package: "Sculpt"),
                    .product(name: "SculptJSON", package: "Sculpt"),
                    .product(name: "SculptTesting", package: "Sculpt"),
                    .product(name: "SculptXML", package: "Sculpt"),
                    .product(name: "HTTPTypes", package: "swift-http-types"),
                ]
            )
        },
    swiftLanguageModes: [.v6]
)
