import Foundation
import Glibc

/// Two network namespaces joined by a veth pair, made by a test and removed when it ends: a
/// server in one, a client in the other, and a link the test can take down to make the client
/// vanish as a real peer does, without a FIN or a RST. Needs root and `ip` (CI runs as root).
///
/// Every address is the test's own, inside namespaces it made; nothing leaves the machine.
public final class TestNetwork {
  /// The server side's namespace and address.
  public let serverNamespace: String
  public let serverAddress: String
  /// The client side's namespace and address.
  public let clientNamespace: String
  public let clientAddress: String
  private let clientLink: String

  /// Whether this process can make namespaces: root with `ip` on the path.
  public static var isAvailable: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")
      || getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/sbin/ip")
  }

  public init() throws {
    let tag = String(UInt32.random(in: 0...0xFFFFF), radix: 16)
    let subnet = Int.random(in: 1...250)
    serverNamespace = "obs-srv-\(tag)"
    clientNamespace = "obs-cli-\(tag)"
    serverAddress = "10.254.\(subnet).1"
    clientAddress = "10.254.\(subnet).2"
    let serverLink = "obs\(tag)s"
    clientLink = "obs\(tag)c"
    do {
      try Self.ip("netns", "add", serverNamespace)
      try Self.ip("netns", "add", clientNamespace)
      try Self.ip("link", "add", serverLink, "type", "veth", "peer", "name", clientLink)
      try Self.ip("link", "set", serverLink, "netns", serverNamespace)
      try Self.ip("link", "set", clientLink, "netns", clientNamespace)
      for (namespace, link, address) in [
        (serverNamespace, serverLink, serverAddress), (clientNamespace, clientLink, clientAddress),
      ] {
        try Self.ip("-n", namespace, "addr", "add", "\(address)/30", "dev", link)
        try Self.ip("-n", namespace, "link", "set", link, "up")
        try Self.ip("-n", namespace, "link", "set", "lo", "up")
      }
    } catch {
      remove()
      throw error
    }
  }

  deinit { remove() }

  /// Takes the client's end of the link down: its packets stop, in both directions.
  public func cutClientLink() throws {
    try Self.ip("-n", clientNamespace, "link", "set", clientLink, "down")
  }

  /// Brings the client's end of the link up again: packets flow once more.
  public func restoreClientLink() throws {
    try Self.ip("-n", clientNamespace, "link", "set", clientLink, "up")
  }

  /// The command line, for a script to run, that sets the client's end of the link `up` or
  /// `down` (what ``cutClientLink()`` and ``restoreClientLink()`` do).
  public func clientLinkCommand(_ state: String) -> String {
    "\(Self.ipPath) -n \(clientNamespace) link set \(clientLink) \(state)"
  }

  /// The arguments that run a command inside `namespace`.
  public func launcher(in namespace: String) -> [String] {
    [Self.ipPath, "netns", "exec", namespace]
  }

  private func remove() {
    // Deleting a namespace deletes the veth end in it, and with it the pair.
    _ = try? Self.ip("netns", "del", serverNamespace)
    _ = try? Self.ip("netns", "del", clientNamespace)
  }

  private static var ipPath: String {
    FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") ? "/usr/sbin/ip" : "/sbin/ip"
  }

  private struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  private static func ip(_ arguments: String...) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ipPath)
    process.arguments = arguments
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let message = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      throw Failure(description: "ip \(arguments.joined(separator: " ")): \(message)")
    }
  }
}
