// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "IndefiniteObservable",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "IndefiniteObservable", targets: ["IndefiniteObservable"])
  ],
  targets: [
    .target(name: "IndefiniteObservable"),
    .testTarget(
      name: "IndefiniteObservableTests",
      dependencies: ["IndefiniteObservable"]
    ),
    // The reference library's README example, compiled as users of the 4.0 API wrote it.
    .testTarget(
      name: "IndefiniteObservableCompatibilityTests",
      dependencies: ["IndefiniteObservable"],
      swiftSettings: [.swiftLanguageMode(.v5)]
    ),
  ],
  swiftLanguageModes: [.v6]
)
