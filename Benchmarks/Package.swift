// swift-tools-version:6.1

import PackageDescription

// Benchmarks for Sculpt, in their own package so that benchmark-only dependencies (RoutingKit, the
// URL-matching baseline) never reach Sculpt's users. Run from the repository root:
//   swift run -c release --package-path Benchmarks sculpt-benchmarks
let package = Package(
    name: "SculptBenchmarks",
    platforms: [.macOS(.v13)],
    products: [.executable(name: "sculpt-benchmarks", targets: ["SculptBenchmarks"])],
    dependencies: [
        .package(name: "Sculpt", path: "..", traits: ["Persistence"]),
        .package(url: "https://github.com/vapor/routing-kit.git", from: "4.9.3"),
        .package(url: "https://github.com/CoreOffice/XMLCoder.git", from: "0.18.2"),
    ],
    targets: [
        .executableTarget(
            name: "SculptBenchmarks",
            dependencies: [
                .product(name: "Sculpt", package: "Sculpt"),
                .product(name: "SculptMatchers", package: "Sculpt"),
                .product(name: "SculptJSON", package: "Sculpt"),
                .product(name: "SculptLoading", package: "Sculpt"),
                .product(name: "SculptTesting", package: "Sculpt"),
                .product(name: "SculptStore", package: "Sculpt"),
                .product(name: "SculptXML", package: "Sculpt"),
                .product(name: "XMLCoder", package: "XMLCoder"),
                .product(name: "RoutingKit", package: "routing-kit"),
            ],
            path: "Sources/SculptBenchmarks"
        )
    ],
    swiftLanguageModes: [.v6]
)
