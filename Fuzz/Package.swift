// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for the server's parsers; `Fuzz/run.sh` builds and runs them. A separate
// package, so the main build never sees the fuzzer's flags, and one that depends on the main
// package by path, so it needs no list of the server's source files.

/// One name per target: its code is `Targets/NAME/NAME.swift`, its seeds `Corpus/NAME/`.
let fuzzTargets = [
  "JSONScanner",
  "RequestParser",
  "LineFramer",
  "Inflate",
  "TopicPattern",
]

let package = Package(
  name: "ObservableServerFuzz",
  dependencies: [
    // Named, because a path dependency's identity is otherwise its folder's name, which is not
    // the same in every checkout.
    .package(name: "IndefiniteObservable", path: "..")
  ],
  targets: [
    // The declaration of `LLVMFuzzerRunDriver`, which libFuzzer provides but no header does.
    .target(name: "CLibFuzzer"),
    .target(
      name: "FuzzSupport",
      dependencies: ["CLibFuzzer"]
    ),
  ]
    + fuzzTargets.map { name in
      .executableTarget(
        name: "fuzz-\(name)",
        dependencies: [
          "FuzzSupport", .product(name: "ObservableParsers", package: "IndefiniteObservable"),
        ],
        path: "Targets/\(name)"
      )
    },
  swiftLanguageModes: [.v6]
)
