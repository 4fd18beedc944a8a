/// Bytes that do not follow the protocol: the connection cannot be read further.
public struct PeerWireError: Error, Equatable, CustomStringConvertible {
  public let description: String

  public init(_ description: String) { self.description = description }
}
