// swift-tools-version:6.0
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "Rollboard",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "rollboard", targets: ["rollboard"]),
        .library(name: "RollboardAnimation", targets: ["RollboardAnimation"]),
        .library(name: "RollboardNet", targets: ["RollboardNet"]),
        .library(name: "RollboardRedis", targets: ["RollboardRedis"]),
        .library(name: "RollboardServer", targets: ["RollboardServer"]),
        .library(name: "RollboardFetch", targets: ["RollboardFetch"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CHiredis",
            pkgConfig: "hiredis",
            providers: [.apt(["libhiredis-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibPQ",
            pkgConfig: "libpq",
            providers: [.apt(["libpq-dev"])]
        ),
        .systemLibrary(name: "CMalloc"),
        .target(
            name: "RollboardAnimation",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardNet",
            dependencies: [
                "COpenSSL",
                "CZlib",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // The blocking client (rollboard push, the tests' and benchmarks' clients): its caller's thread waits.
        .target(
            name: "RollboardClient",
            dependencies: [
                "RollboardNet",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardRedis",
            dependencies: [
                "CHiredis",
                "RollboardNet",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardFetch",
            dependencies: ["CCurl"],
            swiftSettings: swiftSettings
        ),
        // PostgreSQL through libpq, for `postgres` sources: a connection whose every wait is bounded by a deadline.
        .target(
            name: "RollboardPostgres",
            dependencies: ["CLibPQ"],
            swiftSettings: swiftSettings
        ),
        // The server, one target per layer; each sees only the layers below it (docs/architecture.md, "Modules").
        .target(
            name: "RollboardCore",
            dependencies: [
                "RollboardNet",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardConfig",
            dependencies: [
                "RollboardRedis",
                "RollboardFetch",
                "RollboardNet",
                "RollboardCore",
                "RollboardAnimation",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardStore",
            dependencies: [
                "RollboardNet",
                "RollboardCore",
                "RollboardConfig",
                "RollboardAnimation",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardMetrics",
            dependencies: [
                "RollboardNet",
                "RollboardCore",
                "RollboardConfig",
                "RollboardStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardRedisLog",
            dependencies: [
                "RollboardMetrics",
                "RollboardCore",
                "RollboardConfig",
                "RollboardStore",
                "RollboardRedis",
                "RollboardNet",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardAccess",
            dependencies: [
                "RollboardNet",
                "RollboardCore",
                "RollboardConfig",
                "RollboardStore",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardHub",
            dependencies: [
                "RollboardMetrics",
                "RollboardCore",
                "RollboardConfig",
                "RollboardStore",
                "RollboardAccess",
                "RollboardAnimation",
                "RollboardNet",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardSources",
            dependencies: [
                "RollboardRedisLog",
                "RollboardMetrics",
                "RollboardCore",
                "RollboardConfig",
                "RollboardStore",
                "RollboardFetch",
                "RollboardPostgres",
                "RollboardAnimation",
                "RollboardRedis",
                "RollboardNet",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardAPI",
            dependencies: [
                "RollboardMetrics",
                "RollboardCore",
                "RollboardConfig",
                "RollboardStore",
                "RollboardRedisLog",
                "RollboardAccess",
                "RollboardHub",
                "RollboardSources",
                "RollboardAnimation",
                "RollboardNet",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardServer",
            dependencies: [
                "RollboardMetrics",
                "RollboardCore",
                "RollboardConfig",
                "RollboardStore",
                "RollboardRedisLog",
                "RollboardAccess",
                "RollboardHub",
                "RollboardSources",
                "RollboardAPI",
                "RollboardAnimation",
                "RollboardNet",
                "RollboardRedis",
                "RollboardFetch",
                "CMalloc",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "rollboard",
            dependencies: [
                "RollboardClient",
                "RollboardCore", "RollboardConfig", "RollboardStore", "RollboardMetrics", "RollboardRedisLog", "RollboardAccess", "RollboardHub", "RollboardSources", "RollboardAPI", "RollboardServer",
                "RollboardNet",
                "RollboardRedis",
                "RollboardAnimation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "EchoServer",
            dependencies: [
                "RollboardNet",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Examples/EchoServer",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "NetBenchmark",
            dependencies: [
                "RollboardClient",
                "RollboardNet",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/NetBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "DashboardBenchmark",
            dependencies: [
                "RollboardClient",
                "RollboardCore", "RollboardConfig", "RollboardStore", "RollboardMetrics", "RollboardRedisLog", "RollboardAccess", "RollboardHub", "RollboardSources", "RollboardAPI", "RollboardServer",
                "RollboardNet",
                "COpenSSL",
                "CZlib",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/DashboardBenchmark",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "AnimationBenchmark",
            dependencies: ["RollboardAnimation"],
            path: "Benchmarks/AnimationBenchmark",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "RollboardTestSupport",
            path: "Tests/RollboardTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RollboardAnimationTests",
            dependencies: ["RollboardAnimation", "RollboardTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RollboardNetTests",
            dependencies: ["RollboardNet", "RollboardClient", "RollboardRedis", "COpenSSL", "RollboardTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RollboardFetchTests",
            dependencies: ["RollboardFetch", "RollboardTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RollboardServerTests",
            dependencies: [
                "RollboardCore", "RollboardConfig", "RollboardStore", "RollboardMetrics", "RollboardRedisLog", "RollboardAccess", "RollboardHub", "RollboardSources", "RollboardAPI", "RollboardServer",
                "RollboardNet", "RollboardClient", "RollboardRedis", "RollboardAnimation", "RollboardFetch",
                "RollboardPostgres", "RollboardTestSupport", "CMalloc",
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
