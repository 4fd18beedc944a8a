import ObservablePOSIX
import ObservableServer

/// A listener address with an optional scheme: `tls://host:port` (or `https://`) for TLS, the
/// plain forms otherwise.
enum SchemedListenAddress {
  /// The address in `text` and whether it serves TLS; `nil` when malformed. `scheme` is the
  /// TLS scheme the flag takes (`tls` for `--listen`, `https` for `--http`); its plain
  /// counterpart (`tcp`, `http`) is accepted too.
  static func parse(_ text: String, tlsScheme scheme: String, plainScheme: String)
    -> (address: ListenAddress, tls: Bool)?
  {
    if text.hasPrefix(scheme + "://") {
      return ListenAddress(String(text.dropFirst(scheme.count + 3))).map { ($0, true) }
    }
    if text.hasPrefix(plainScheme + "://") {
      return ListenAddress(String(text.dropFirst(plainScheme.count + 3))).map { ($0, false) }
    }
    return ListenAddress(text).map { ($0, false) }
  }

  /// A `--listen` address: `tls://` serves the line protocol over TLS.
  static func listen(_ text: String) -> (address: ListenAddress, tls: Bool)? {
    parse(text, tlsScheme: "tls", plainScheme: "tcp")
  }

  /// An `--http` address: `https://` serves HTTP over TLS.
  static func http(_ text: String) -> (address: ListenAddress, tls: Bool)? {
    parse(text, tlsScheme: "https", plainScheme: "http")
  }
}
