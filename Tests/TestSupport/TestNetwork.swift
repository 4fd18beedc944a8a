import Foundation
import Glibc

/// Two network namespaces joined by a veth pair, made by a test and removed when it ends: a
/// server in one, a client in the other, and a link the test can take down to make the client
/// vanish as a real peer does, without a FIN or a RST. Needs root and `ip` (CI runs as root).
///
/// The server's end may instead stay in the test process's own namespace
/// (``ServerSide/testProcess``): servers the test starts as usual, on loopback beside other
/// processes such as NATS, listen on ``serverAddress`` as well, and only the client is behind
/// the link.
///
/// Every address is the test's own, on the link it made; nothing leaves the machine.
public final class TestNetwork {
  /// Where the server's end of the link is.
  public enum ServerSide: Sendable {
    /// A namespace of its own, holding nothing but that end and its loopback.
    case namespace
    /// The test process's own namespace, with the link's address beside the machine's.
    case testProcess
  }

  /// The server side's namespace, `nil` when it is the test process's own, and its address.
  public let serverNamespace: String?
  public let serverAddress: String
  /// The client side's namespace and address.
  public let clientNamespace: String
  public let clientAddress: String
  private let serverLink: String
  private let clientLink: String

  /// Whether this process can make namespaces: root with `ip` on the path.
  public static var isAvailable: Bool {
    getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")
      || getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/sbin/ip")
  }

  /// Makes the namespaces and the link, with the server's end on `server`.
  public init(server: ServerSide = .namespace) throws {
    let tag = String(UInt32.random(in: 0...0xFFFFF), radix: 16)
    // A subnet no interface of this namespace has: one the link shared with another would
    // send the test's packets elsewhere, or another's into the test.
    let used = try Self.ip("-o", "-4", "addr", "show")
    let subnet = (1...250).shuffled().first { !used.contains("inet 10.254.\($0).") } ?? 251
    serverNamespace = server == .namespace ? "obs-srv-\(tag)" : nil
    clientNamespace = "obs-cli-\(tag)"
    serverAddress = "10.254.\(subnet).1"
    clientAddress = "10.254.\(subnet).2"
    serverLink = "obs\(tag)s"
    clientLink = "obs\(tag)c"
    do {
      if let serverNamespace { try Self.ip("netns", "add", serverNamespace) }
      try Self.ip("netns", "add", clientNamespace)
      try Self.ip("link", "add", serverLink, "type", "veth", "peer", "name", clientLink)
      if let serverNamespace { try Self.ip("link", "set", serverLink, "netns", serverNamespace) }
      try Self.ip("link", "set", clientLink, "netns", clientNamespace)
      for (namespace, link, address) in [
        (serverNamespace, serverLink, serverAddress), (clientNamespace, clientLink, clientAddress),
      ] {
        let inside = namespace.map { ["-n", $0] } ?? []
        try Self.ip(inside + ["addr", "add", "\(address)/30", "dev", link])
        try Self.ip(inside + ["link", "set", link, "up"])
        // The test process's loopback is up already, and not the test's to change.
        if !inside.isEmpty { try Self.ip(inside + ["link", "set", "lo", "up"]) }
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

  /// The arguments that run a command inside `namespace`: none for `nil`, the test process's
  /// own (``serverNamespace`` with ``ServerSide/testProcess``).
  public func launcher(in namespace: String?) -> [String] {
    namespace.map { [Self.ipPath, "netns", "exec", $0] } ?? []
  }

  private func remove() {
    // Deleting a namespace deletes the veth end in it, and with it the pair.
    if let serverNamespace { _ = try? Self.ip("netns", "del", serverNamespace) }
    _ = try? Self.ip("netns", "del", clientNamespace)
    // A pair made in this namespace whose client end never moved out is still here.
    if serverNamespace == nil { _ = try? Self.ip("link", "del", serverLink) }
  }

  private static var ipPath: String {
    FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip") ? "/usr/sbin/ip" : "/sbin/ip"
  }

  private struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  @discardableResult
  private static func ip(_ arguments: String...) throws -> String { try ip(arguments) }

  /// Runs `ip` with `arguments` and returns what it printed; throws with its errors if it fails.
  @discardableResult
  private static func ip(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ipPath)
    process.arguments = arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // Read before waiting, so that a long listing cannot fill the pipe and stall `ip`.
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let message = String(
        decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      throw Failure(description: "ip \(arguments.joined(separator: " ")): \(message)")
    }
    return String(decoding: printed, as: UTF8.self)
  }
}
