import Foundation
import JWTKit
import ObservableAuthorization
import ObservableCredentials
import TestSupport
import XCTest

/// Signed tokens minted here with jwt-kit, checked by the server's verifier.
final class SignedTokenTests: XCTestCase {
  static let secret = Array("0123456789abcdef0123456789abcdef".utf8)

  /// Claims as a backend would mint them; any of them may be left out.
  struct Minted: JWTPayload {
    var sub: SubjectClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var aud: AudienceClaim?
    var observable: [String: [String]]?

    init(
      sub: String? = "ann", expires: TimeInterval? = 60, notBefore: TimeInterval? = nil,
      aud: String? = nil, subscribe: [String] = ["room.*", "user.{user}.>"]
    ) {
      self.sub = sub.map(SubjectClaim.init(value:))
      exp = expires.map { ExpirationClaim(value: Date(timeIntervalSinceNow: $0)) }
      nbf = notBefore.map { NotBeforeClaim(value: Date(timeIntervalSinceNow: $0)) }
      self.aud = aud.map { AudienceClaim(value: [$0]) }
      observable = ["subscribe": subscribe, "publish": ["user.{user}.>"]]
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
  }

  private func hmacToken(
    _ claims: Minted, secret: [UInt8] = secret, digest: DigestAlgorithm = .sha256
  )
    async throws -> String
  {
    let keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: digest)
    return try await keys.sign(claims)
  }

  private func assertRejected(
    _ verifier: SignedTokenVerifier, _ token: String, _ words: String,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try verifier.verify(token), file: file, line: line) { error in
      let reason = (error as? SignedTokenRejection)?.reason ?? "\(error)"
      XCTAssertTrue(reason.contains(words), reason, file: file, line: line)
      XCTAssertFalse(reason.contains(token), "the reason quotes the token", file: file, line: line)
    }
  }

  func testValidHS256TokenGivesItsPermissions() async throws {
    // A trailing newline in the key file is not part of the secret.
    let verifier = try SignedTokenVerifier(key: Self.secret + [0x0A])
    XCTAssertEqual(verifier.algorithm, "HS256")
    let identity = try verifier.verify(try await hmacToken(Minted()))
    XCTAssertEqual(identity.user, "ann")
    XCTAssertEqual(identity.permissions.subscribe.allow.map(\.text), ["room.*", "user.ann.>"])
    XCTAssertEqual(identity.permissions.publish.allow.map(\.text), ["user.ann.>"])
    XCTAssertFalse(identity.permissions.stats)
    XCTAssertGreaterThan(identity.expiresIn, .seconds(50))
    XCTAssertLessThanOrEqual(identity.expiresIn, .seconds(60))
  }

  func testExpiredNotYetValidAndMissingClaims() async throws {
    let verifier = try SignedTokenVerifier(key: Self.secret)
    assertRejected(verifier, try await hmacToken(Minted(expires: -5)), "expired")
    assertRejected(verifier, try await hmacToken(Minted(notBefore: 30)), "not valid yet")
    assertRejected(verifier, try await hmacToken(Minted(expires: nil)), "no \"exp\"")
    assertRejected(verifier, try await hmacToken(Minted(sub: nil)), "no \"sub\"")
    assertRejected(verifier, try await hmacToken(Minted(sub: "a.b")), "{user}")
    assertRejected(verifier, try await hmacToken(Minted(subscribe: ["a..b"])), "observable")
  }

  func testAudienceWhenPresent() async throws {
    let token = try await hmacToken(Minted(aud: "observable"))
    assertRejected(try SignedTokenVerifier(key: Self.secret), token, "aud")
    assertRejected(try SignedTokenVerifier(key: Self.secret, audience: "other"), token, "aud")
    let accepting = try SignedTokenVerifier(key: Self.secret, audience: "observable")
    XCTAssertEqual(try accepting.verify(token).user, "ann")
  }

  func testWrongSignatureOtherKeyAndWrongAlgorithms() async throws {
    let verifier = try SignedTokenVerifier(key: Self.secret)
    let token = try await hmacToken(Minted())
    // Another user's claims under ann's signature.
    var parts = token.split(separator: ".").map(String.init)
    let forged = try await hmacToken(Minted(sub: "bob")).split(separator: ".").map(String.init)
    parts[1] = forged[1]
    assertRejected(verifier, parts.joined(separator: "."), "signature")
    let otherKey = Array("fedcba9876543210fedcba9876543210".utf8)
    assertRejected(verifier, try await hmacToken(Minted(), secret: otherKey), "signature")
    // jwt-kit wants an HS384 secret of 48 bytes; the verifier refuses by `alg` before any key.
    let longer = Self.secret + Self.secret
    assertRejected(
      verifier, try await hmacToken(Minted(), secret: longer, digest: .sha384), "algorithm HS384")
    // `none`: no signature at all.
    let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64EncodedString()
      .replacingOccurrences(of: "=", with: "")
    assertRejected(verifier, "\(header).\(parts[1]).", "algorithm none")
    assertRejected(verifier, "not a token", "well-formed")
  }

  func testES256AndTheKeyConfusionAttack() async throws {
    let privateKey = ES256PrivateKey()
    let pem = privateKey.publicKey.pemRepresentation
    let verifier = try SignedTokenVerifier(key: Array(pem.utf8))
    XCTAssertEqual(verifier.algorithm, "ES256")
    let keys = await JWTKeyCollection().add(ecdsa: privateKey)
    let signed = try await keys.sign(Minted())
    XCTAssertEqual(try verifier.verify(signed).user, "ann")
    let other = await JWTKeyCollection().add(ecdsa: ES256PrivateKey())
    assertRejected(verifier, try await other.sign(Minted()), "signature")
    // HS256 with the public key as its secret: the classic confusion, refused by algorithm.
    assertRejected(
      verifier, try await hmacToken(Minted(), secret: Array(pem.utf8)), "algorithm HS256")
  }

  func testRS256FromAnOpenSSLKey() async throws {
    let openssl = "/usr/bin/openssl"
    try RequiredTool.require(FileManager.default.isExecutableFile(atPath: openssl), "openssl")
    let directory = FileManager.default.temporaryDirectory.appending(path: UUID().uuidString)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let keyPath = directory.appending(path: "key.pem").path
    let made = Process()
    made.executableURL = URL(filePath: openssl)
    made.arguments = [
      "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", keyPath,
    ]
    try made.run()
    made.waitUntilExit()
    XCTAssertEqual(made.terminationStatus, 0)
    let privateKey = try Insecure.RSA.PrivateKey(
      pem: String(contentsOfFile: keyPath, encoding: .utf8))
    let verifier = try SignedTokenVerifier(key: Array(privateKey.publicKey.pemRepresentation.utf8))
    XCTAssertEqual(verifier.algorithm, "RS256")
    let keys = await JWTKeyCollection().add(rsa: privateKey, digestAlgorithm: .sha256)
    let signed = try await keys.sign(Minted())
    XCTAssertEqual(try verifier.verify(signed).user, "ann")
    XCTAssertThrowsError(try SignedTokenVerifier(key: Array(privateKey.pemRepresentation.utf8)))
  }

  func testKeyFiles() {
    XCTAssertThrowsError(try SignedTokenVerifier(key: Array("short\n".utf8))) { error in
      XCTAssertTrue("\(error)".contains("at least 32"), "\(error)")
    }
    XCTAssertThrowsError(
      try SignedTokenVerifier(
        key: Array("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n".utf8)))
    XCTAssertThrowsError(try SignedTokenVerifier(path: "/nonexistent/jwt.key"))
  }
}
