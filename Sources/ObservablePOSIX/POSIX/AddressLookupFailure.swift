import Glibc

/// `getaddrinfo` found no address for a host, with its own status so a caller can say why in
/// the resolver's words ("Name or service not known").
package struct AddressLookupFailure: Error, Sendable {
  /// `getaddrinfo`'s status (`EAI_NONAME`, `EAI_AGAIN`...), or `EAI_NONAME` for an empty answer.
  package let status: Int32
  /// `errno` as `getaddrinfo` left it, which says more when `status` is `EAI_SYSTEM`.
  package let systemCode: Int32

  /// The resolver's explanation of `status`.
  package var reason: String { String(cString: gai_strerror(status)) }
}
