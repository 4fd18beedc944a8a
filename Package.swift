// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "IndefiniteObservable",
  products: [
    .library(name: "IndefiniteObservable", targets: ["IndefiniteObservable"]),
    .library(
      name: "ObservableServer",
      targets: [
        "ObservableServer", "ObservableWire", "ObservablePOSIX", "ObservableLogging",
        "ObservableStreams", "ObservableFraming", "ObservableCluster", "Deflate", "TLS",
      ]
    ),
    .library(name: "ObservableClient", targets: ["ObservableClient"]),
    // The parsers alone, for the fuzz package: depending on `ObservableServer` would build
    // jwt-kit and swift-crypto a fourth time, with the fuzzer's sanitizers.
    .library(
      name: "ObservableParsers", targets: ["ObservableWire", "ObservableStreams", "Deflate"]),
    .executable(name: "observable", targets: ["observable"]),
    .executable(name: "observable-server", targets: ["observable-server"]),
    .executable(name: "observable-bench", targets: ["observable-bench"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    // Latency percentiles for the benchmark: a maintained HDR histogram beats writing one.
    .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    // Signed tokens (JWT): a maintained package rather than our own crypto. It builds on
    // swift-crypto and FoundationEssentials, not SwiftNIO or Foundation proper.
    .package(url: "https://github.com/vapor/jwt-kit", from: "5.8.0"),
    .package(url: "https://github.com/apple/swift-crypto", "4.1.0"..<"6.0.0"),
  ],
  targets: [
    // The specification: an Observable with one channel and no completion or failure.
    .target(name: "IndefiniteObservable", dependencies: ["Locking"]),
    // A Mutex whose hand-offs ThreadSanitizer can see, shared by the library and the server.
    .target(name: "Locking"),
    // The release version, in one place, for the server and for the client and its command.
    .target(name: "ObservableVersion"),

    // Linux headers Swift's Glibc module leaves out (epoll, eventfd, posix_spawn flags).
    .target(name: "CLinux"),
    // zlib, for the deflate option of the protocol.
    .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
    // libsystemd, loaded at run time so that building needs no libsystemd-dev.
    .target(name: "CSystemd", linkerSettings: [.linkedLibrary("dl")]),

    // System OpenSSL 3 (libssl-dev) for TLS; a C shim only for the macros Swift cannot call.
    .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
    // TLS as a byte transform over memory BIOs, on the event loop's terms: no sockets, no threads.
    .target(name: "TLS", dependencies: ["COpenSSL", "Locking"]),
    // Handshakes per second and bytes per second of the TLS transform on one core, in memory.
    .executableTarget(name: "tls-bench", dependencies: ["TLS"]),

    // The peers' protocols as observable-bench speaks them (RESP, NATS, MQTT 3.1.1 QoS 0, the
    // line protocol): bytes in, messages out, no I/O, so that each can be tested alone.
    .target(name: "PeerWire"),

    // The NATS client protocol and the JetStream API, without I/O, for clustering.
    .target(name: "NATS"),

    // The wire protocol: the JSON scanner, request parsing, every line's encoder, stream names
    // and patterns. Bytes in, bytes out: no sockets, no threads. See Docs/architecture.md.
    .target(name: "ObservableWire"),
    // The server's counters, which every layer from the event loop up adds to.
    .target(name: "ObservableCounters", dependencies: ["Locking"]),
    // What calls the kernel: sockets, addresses, the one thread wrapper, epoll and io_uring
    // event loops and their timers.
    .target(
      name: "ObservablePOSIX",
      dependencies: [
        "CLinux", "Locking", "ObservableCounters", .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // logfmt logs to standard error or the journal, and warnings counted on a loop timer.
    .target(
      name: "ObservableLogging",
      dependencies: ["Locking", "ObservablePOSIX", .product(name: "Logging", package: "swift-log")]
    ),
    // Streams by name: the registry, topics, the pattern index and retained values. Replication
    // to other nodes comes in through a protocol the cluster implements.
    .target(
      name: "ObservableStreams",
      dependencies: ["IndefiniteObservable", "Locking", "ObservableCounters", "ObservableWire"]
    ),
    // System SQLite 3 (libsqlite3-dev) for the store, called directly: GRDB would bring
    // Foundation into the release server, which ships without it.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // Retained values, topic history and the epoch on disk (`--data-dir`), written in batches
    // by a thread of its own.
    .target(
      name: "ObservableStore", dependencies: ["CSQLite", "CLinux", "Locking", "ObservablePOSIX"]),
    // Retained writes per second into the store, per fsync mode, on a disk of one's choice.
    .executableTarget(name: "store-bench", dependencies: ["ObservableStore"]),
    // A child for the store's durability test: writes until it is killed.
    .executableTarget(
      name: "observable-store-writer", dependencies: ["ObservableStore"],
      path: "Tests/Tools/observable-store-writer"),
    // One connection's protocol state: its requests, subscriptions and replies, over an
    // abstract output, loop and cluster; no sockets, no Glibc, no Foundation.
    .target(
      name: "ObservableSession",
      dependencies: [
        "IndefiniteObservable", "Locking", "ObservableAuthorization", "ObservableCounters",
        "ObservableLogging", "ObservableStreams", "ObservableWire", "TLS",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // How a connection's bytes become request lines and its lines bytes: lines, WebSocket
    // messages, an HTTP request head. A codec: bytes in, events out; no sockets, no Glibc.
    .target(
      name: "ObservableFraming",
      dependencies: ["Locking", "ObservableCounters", "ObservableWire", "WebSocket"]
    ),
    // Connections on the event loops: reading, framing, writing through the outbox, closing,
    // listeners and admission. Where TLS plugs in, between the socket and the framing.
    .target(
      name: "ObservableTransport",
      dependencies: [
        "CLinux", "Deflate", "Locking", "ObservableCounters", "ObservableFraming",
        "ObservableLogging", "ObservablePOSIX", "ObservableSession", "ObservableStreams",
        "ObservableVersion", "ObservableWire", "TLS", "WebSocket",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Replication over NATS and JetStream: implements the streams' and the session's
    // protocols, and no layer below names it.
    .target(
      name: "ObservableCluster",
      dependencies: [
        "CLinux", "Locking", "NATS", "ObservableCounters", "ObservableLogging", "ObservablePOSIX",
        "ObservableSession", "ObservableStreams", "ObservableVersion", "ObservableWire", "TLS",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // What the HTTP port answers above the framing: the router, the live page and metrics.
    .target(
      name: "ObservableHTTP",
      dependencies: [
        "ObservableAuthorization", "ObservableCluster", "ObservableCounters", "ObservableFraming",
        "ObservableLogging", "ObservableSession", "ObservableVersion", "ObservableWire",
        "WebSocket", .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Raw deflate streams on zlib, for the `compress` op.
    .target(name: "Deflate", dependencies: ["CZlib"]),
    // Who may do what: the authorization file's users and rules and each connection's cached
    // decisions, and `AccessRules`, what the session asks. No sockets, no threads, no crypto.
    .target(name: "ObservableAuthorization", dependencies: ["Locking", "ObservableWire"]),
    // Checking credentials: SHA-256 of file tokens and signed tokens (JWT) with jwt-kit;
    // `AccessPolicy` implements `AccessRules` for the server.
    .target(
      name: "ObservableCredentials",
      dependencies: [
        "Locking", "ObservableAuthorization", .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),

    .target(
      name: "ObservableServer",
      dependencies: [
        "IndefiniteObservable", "Locking", "CLinux", "CZlib", "CSystemd", "WebSocket", "NATS",
        "ObservableVersion", "ObservableWire", "ObservableCounters", "ObservablePOSIX",
        "ObservableLogging", "ObservableStreams", "ObservableSession", "ObservableFraming",
        "ObservableTransport", "ObservableCluster", "ObservableHTTP", "Deflate", "TLS",
        "ObservableStore", "ObservableAuthorization", "ObservableCredentials",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The WebSocket and HTTP/1.1 codec for `--http`: pure byte transforms, no I/O.
    .target(name: "WebSocket", dependencies: ["CZlib", "Deflate"]),
    // A remote stream as an IndefiniteObservable: its own sockets and reader thread, on the
    // shared protocol, zlib and POSIX modules, and nothing of the server's layers above them.
    .target(
      name: "ObservableClient",
      dependencies: [
        "IndefiniteObservable", "Locking", "Deflate", "ObservablePOSIX", "ObservableVersion",
        "ObservableWire", "TLS", .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The command people type: sub, pub, list, stats, ping.
    .executableTarget(
      name: "observable",
      dependencies: [
        "ObservableClient", "ObservablePOSIX", "ObservableVersion", "ObservableWire",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "observable-server",
      dependencies: [
        "ObservableServer", "ObservableCluster", "ObservableLogging", "ObservablePOSIX", "TLS",
        "ObservableAuthorization", "ObservableCredentials",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Measures a server it starts itself: fan-out, latency, connection memory, churn and soak.
    .executableTarget(
      name: "observable-bench",
      dependencies: [
        "ObservableServer", "Locking", "Deflate", "ObservablePOSIX",
        // Tokens for the generated auth file, made as `observable-server token` makes them.
        "ObservableCredentials",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Histogram", package: "hdrhistogram-swift"),
        // The peers' protocols and the client side of TLS, for the comparisons with the peers.
        "PeerWire", "TLS",
      ]
    ),

    // What the test targets share, with no server internals: free ports, waiting on a condition,
    // child processes, line clients, Python peers, and tools a test requires (fails under CI).
    // Addresses are ObservablePOSIX's, the layer below the server's.
    .target(
      name: "TestSupport", dependencies: ["Locking", "ObservablePOSIX"], path: "Tests/TestSupport"),

    // An in-process server on a free loopback port, for the server's and the client's tests.
    .target(
      name: "InProcessServer",
      dependencies: [
        "ObservableServer", "ObservablePOSIX", .product(name: "Logging", package: "swift-log"),
      ],
      path: "Tests/InProcessServer"
    ),

    .testTarget(
      name: "IndefiniteObservableTests",
      dependencies: ["IndefiniteObservable", "Locking", "TestSupport"]
    ),
    // The reference library's README example, compiled as users of the 4.0 API wrote it.
    .testTarget(
      name: "IndefiniteObservableCompatibilityTests",
      dependencies: ["IndefiniteObservable"],
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
    // The same files (its folder holds links to them), in Swift 6 language mode: one copy of
    // the README example, compiled in both modes its users may write in.
    .testTarget(
      name: "IndefiniteObservableSwift6CompatibilityTests",
      dependencies: ["IndefiniteObservable"]
    ),
    .testTarget(
      name: "ObservableServerTests",
      dependencies: [
        "ObservableServer", "IndefiniteObservable", "Locking", "CZlib", "WebSocket", "TestSupport",
        "ObservableVersion", "ObservableWire", "ObservableCounters", "ObservablePOSIX",
        "ObservableLogging", "ObservableStreams", "ObservableSession", "ObservableFraming",
        "ObservableTransport", "ObservableCluster", "ObservableHTTP", "Deflate", "TLS",
        "ObservableAuthorization", "ObservableCredentials",
        "InProcessServer",
        .product(name: "Logging", package: "swift-log"),
      ],
      exclude: ["Scripts"]
    ),
    .testTarget(
      name: "WebSocketTests",
      dependencies: ["WebSocket", "TestSupport"],
      exclude: ["Scripts"]
    ),
    // The store over a real file system: round trips, batching, SIGKILL, damage, a full disk.
    .testTarget(
      name: "ObservableStoreTests", dependencies: ["ObservableStore", "CSQLite", "TestSupport"]),
    // The TLS transform against real peers: `openssl s_client`/`s_server` and Python's `ssl`.
    .testTarget(name: "TLSTests", dependencies: ["TLS", "TestSupport"]),
    // The peers' protocols as the benchmark reads them, and observable-bench comparing the
    // peers over real redis-server, nats-server and mosquitto.
    .testTarget(name: "PeerWireTests", dependencies: ["PeerWire", "TestSupport"]),
    // The NATS client against its own fakes and against a real nats-server it starts.
    .testTarget(name: "NATSTests", dependencies: ["NATS", "TestSupport"]),
    // The authorization file, the permission matrix and JWTs minted in the test.
    .testTarget(
      name: "ObservableAuthorizationTests",
      dependencies: [
        "ObservableAuthorization", "ObservableCredentials", "ObservableLogging", "ObservableWire",
        "TestSupport", .product(name: "JWTKit", package: "jwt-kit"),
      ]
    ),
    .testTarget(
      name: "ObservableClientTests",
      dependencies: [
        "ObservableClient", "ObservableServer", "ObservableWire", "ObservablePOSIX",
        "ObservableCounters", "ObservableLogging", "ObservableStreams", "IndefiniteObservable",
        "Locking", "TestSupport", "InProcessServer",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
