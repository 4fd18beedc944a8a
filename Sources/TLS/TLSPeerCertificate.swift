import COpenSSL
import Glibc

/// The names in the certificate a peer presented, for authorization and logs.
public struct TLSPeerCertificate: Sendable, Equatable {
  /// The subject in RFC 2253 form, such as `CN=alice,O=Example`.
  public let subject: String
  /// The subject alternative names: DNS names, IP addresses (as text), e-mail addresses and
  /// URIs, in the certificate's order.
  public let alternativeNames: [String]
  /// The serial number in upper-case hexadecimal, which tells one certificate from its
  /// replacement after a reload.
  public let serialNumber: String

  /// Reads the names of `certificate` (an `X509 *`, borrowed).
  init(_ certificate: OpaquePointer) {
    subject = Self.subject(of: certificate)
    alternativeNames = Self.alternativeNames(of: certificate)
    serialNumber = Self.serialNumber(of: certificate)
  }

  private static func subject(of certificate: OpaquePointer) -> String {
    guard let bio = BIO_new(BIO_s_mem()) else { return "" }
    defer { BIO_free(bio) }
    guard observable_x509_name_print_rfc2253(bio, X509_get_subject_name(certificate)) >= 0 else {
      return ""
    }
    var data: UnsafePointer<CChar>?
    let length = observable_bio_get_mem_data(bio, &data)
    guard let data, length > 0 else { return "" }
    return String(
      decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
  }

  private static func alternativeNames(of certificate: OpaquePointer) -> [String] {
    guard let raw = X509_get_ext_d2i(certificate, NID_subject_alt_name, nil, nil) else {
      return []
    }
    let names = OpaquePointer(raw)
    defer { GENERAL_NAMES_free(names) }
    return (0..<observable_general_names_count(names)).compactMap { index in
      var data: UnsafePointer<UInt8>?
      var length: Int32 = 0
      let type = observable_general_name_at(names, index, &data, &length)
      guard let data else { return nil }
      let bytes = UnsafeBufferPointer(start: data, count: Int(length))
      return type == GEN_IPADD ? address(bytes) : String(decoding: bytes, as: UTF8.self)
    }
  }

  private static func address(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    let family: Int32
    switch bytes.count {
    case 4: family = AF_INET
    case 16: family = AF_INET6
    default: return nil
    }
    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
    guard inet_ntop(family, bytes.baseAddress, &text, socklen_t(text.count)) != nil else {
      return nil
    }
    return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func serialNumber(of certificate: OpaquePointer) -> String {
    guard let number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(certificate), nil) else {
      return ""
    }
    defer { BN_free(number) }
    guard let hex = BN_bn2hex(number) else { return "" }
    defer { observable_openssl_free(hex) }
    return String(cString: hex)
  }
}
