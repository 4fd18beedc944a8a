extension ServerAddress {
  /// Reads an address that may start with `tls://` (`tls://host:port`), and says whether it
  /// did; without it, the forms ``init(parsing:)`` reads.
  ///
  /// - Throws: ``ClientError/invalidAddress(_:)`` when the rest is not an address.
  public static func parsing(url text: String) throws(ClientError) -> (
    address: ServerAddress, usesTLS: Bool
  ) {
    guard text.lowercased().hasPrefix("tls://") else {
      return (try ServerAddress(parsing: text), false)
    }
    do {
      return (try ServerAddress(parsing: String(text.dropFirst(6))), true)
    } catch {
      throw .invalidAddress(text)
    }
  }
}
