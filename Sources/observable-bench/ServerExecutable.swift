import Foundation
import Glibc

/// Finds the `observable-server` binary to measure: the one next to the benchmark, brought up
/// to date first when the benchmark was built by SwiftPM from this package.
///
/// `swift run observable-bench` builds the benchmark product only, so the server beside it may
/// be missing, or older than the code the benchmark was just built from; measuring a stale
/// server would report numbers for code that no longer exists. Building one product that is up
/// to date takes about a second.
enum ServerExecutable {
  static let name = "observable-server"

  /// The binary to run: `explicitPath` as given, else the sibling, built first unless `build`
  /// is off or the package cannot be found.
  static func resolve(
    explicitPath: String?, build: Bool, deadline: Deadline
  ) throws(BenchError) -> String {
    if let explicitPath {
      guard access(explicitPath, X_OK) == 0 else {
        throw .refused("--server \(explicitPath): not an executable file")
      }
      return explicitPath
    }
    guard let own = ownExecutable() else {
      throw .server("cannot find this benchmark's own path; pass --server PATH")
    }
    let directory = (own as NSString).deletingLastPathComponent
    let sibling = (directory as NSString).appendingPathComponent(name)
    if build, let package = enclosingPackage(of: directory) {
      try buildServer(in: package, deadline: deadline)
    }
    guard access(sibling, X_OK) == 0 else {
      throw .server(
        "\(sibling) does not exist; build it with `swift build -c release` or pass --server PATH")
    }
    return sibling
  }

  /// Where SwiftPM put the benchmark: the package, its scratch directory and the configuration.
  private struct PackageBuild {
    let root: String
    let scratch: String
    let configuration: String
  }

  private static func ownExecutable() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// `…/<package>/<scratch>/<triple>/<configuration>/observable-bench` with a Package.swift
  /// declaring the server in `<package>`; anything else (an installed copy, say) is left alone.
  private static func enclosingPackage(of directory: String) -> PackageBuild? {
    let configuration = (directory as NSString).lastPathComponent
    guard configuration == "release" || configuration == "debug" else { return nil }
    var child = directory
    var parent = (directory as NSString).deletingLastPathComponent
    while parent != child, parent != "/" {
      let manifest = (parent as NSString).appendingPathComponent("Package.swift")
      if let text = try? String(contentsOfFile: manifest, encoding: .utf8) {
        guard text.contains("\"\(name)\"") else { return nil }
        return PackageBuild(root: parent, scratch: child, configuration: configuration)
      }
      child = parent
      parent = (parent as NSString).deletingLastPathComponent
    }
    return nil
  }

  private static func buildServer(in package: PackageBuild, deadline: Deadline) throws(BenchError) {
    let arguments = [
      "swift", "build", "-c", package.configuration, "--product", name,
      "--package-path", package.root, "--scratch-path", package.scratch,
    ]
    BenchLog.note("building \(name) (\(package.configuration)) so that it matches this benchmark")
    let pid: pid_t
    do {
      pid = try ChildProcess.spawn(arguments, searchPath: true)
    } catch {
      // No swift in PATH: measure whatever binary is there.
      BenchLog.note("cannot run swift build (\(error)); using the existing \(name)")
      return
    }
    guard let ending = ChildProcess.wait(pid, seconds: deadline.secondsLeft) else {
      ChildProcess.stop(pid, grace: 2)
      throw .timedOut("building \(name)")
    }
    guard case .exited(0) = ending else {
      throw .server("`\(arguments.joined(separator: " "))` failed (\(ending))")
    }
  }
}
