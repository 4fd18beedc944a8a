import JWTKit
import ObservableAuthorization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Checks the signed tokens (JWT) of `--jwt-key` with vapor/jwt-kit: one key, one algorithm.
///
/// The key file is an HS256 secret (its bytes, less one trailing newline, at least 32 bytes
/// as RFC 7518 asks of an HS256 key) or a public key in PEM, ES256 (P-256) or RS256. The
/// token's `alg` must be that key's algorithm: `none`, and an HS256 token made with a public
/// key as its secret, are refused before any signature is looked at.
package final class SignedTokenVerifier: Sendable {
  /// The one algorithm this key verifies: `HS256`, `ES256` or `RS256`.
  package let algorithm: String
  /// The audience the server answers to; a token with `aud` must name it.
  package let audience: String?
  /// The key as jwt-kit's algorithm, whose `verify(_:signs:)` is synchronous: a loop thread
  /// checks a token in place (an HMAC, or one ECDSA or RSA verification, tens of microseconds)
  /// and never waits on jwt-kit's `JWTKeyCollection` actor.
  private let key: any JWTAlgorithm

  /// Reads the key at `path`.
  package convenience init(path: String, audience: String? = nil) throws(SignedTokenKeyError) {
    guard let bytes = BoundedFile.contents(of: path, limit: 1024 * 1024) else {
      throw SignedTokenKeyError("cannot read the JWT key \(path)")
    }
    try self.init(key: bytes, audience: audience)
  }

  /// Makes a verifier for the key file's bytes `key`.
  ///
  /// jwt-kit builds its algorithms only inside its `JWTKeyCollection` actor, so this waits once
  /// for the actor to hand the algorithm out. Call it at start (or in a test), never on an
  /// event loop; ``verify(_:now:)`` does not touch the actor.
  package init(key: [UInt8], audience: String? = nil) throws(SignedTokenKeyError) {
    self.audience = audience
    let text = String(decoding: key, as: UTF8.self)
    let keys = JWTKeyCollection()
    let add: @Sendable () async -> Void
    if text.contains("-----BEGIN") {
      guard !text.contains("PRIVATE KEY") else {
        throw SignedTokenKeyError("the JWT key is a private key; give the server the public key")
      }
      if let ecdsa = try? ES256PublicKey(pem: text) {
        algorithm = "ES256"
        add = { await keys.add(ecdsa: ecdsa) }
      } else if let rsa = try? Insecure.RSA.PublicKey(pem: text) {
        algorithm = "RS256"
        add = { await keys.add(rsa: rsa, digestAlgorithm: .sha256) }
      } else {
        throw SignedTokenKeyError("the JWT key is PEM but not a P-256 (ES256) or RSA public key")
      }
    } else {
      var secret = key[...]
      if secret.last == UInt8(ascii: "\n") { secret = secret.dropLast() }
      if secret.last == UInt8(ascii: "\r") { secret = secret.dropLast() }
      guard secret.count >= 32 else {
        throw SignedTokenKeyError(
          "the HS256 secret has \(secret.count) bytes; it needs at least 32 (openssl rand -hex 32)")
      }
      algorithm = "HS256"
      let hmac = HMACKey(from: Array(secret))
      add = { await keys.add(hmac: hmac, digestAlgorithm: .sha256) }
    }
    do {
      self.key = try AsyncWait.result {
        await add()
        return try await keys.getKey()
      }
    } catch {
      throw SignedTokenKeyError("jwt-kit refused the JWT key: \(error)")
    }
  }

  /// The identity `token` proves at `now`, or why it proves none. Synchronous and bounded: a
  /// parse and one signature check on the calling thread.
  package func verify(_ token: String, now: Date = Date()) throws(SignedTokenRejection)
    -> SignedIdentity
  {
    let bytes = Array(token.utf8)
    let parsed: (header: JWTHeader, payload: SignedTokenClaims, signature: Data)
    do {
      parsed = try DefaultJWTParser().parse(bytes, as: SignedTokenClaims.self)
    } catch {
      throw SignedTokenRejection("the token is not a well-formed JWT")
    }
    guard let alg = parsed.header.alg, alg == algorithm else {
      throw SignedTokenRejection(
        "the token's algorithm \(parsed.header.alg ?? "(none)") is not this server's \(algorithm)")
    }
    // The parser accepted exactly three parts: the signature covers what precedes the last dot.
    guard let lastDot = bytes.lastIndex(of: UInt8(ascii: ".")),
      (try? key.verify(parsed.signature, signs: bytes[..<lastDot])) == true
    else {
      throw SignedTokenRejection("the token's signature does not verify with this server's key")
    }
    return try identity(parsed.payload, now: now)
  }

  private func identity(_ claims: SignedTokenClaims, now: Date) throws(SignedTokenRejection)
    -> SignedIdentity
  {
    guard let user = claims.sub?.value, !user.isEmpty else {
      throw SignedTokenRejection("the token has no \"sub\" claim")
    }
    guard let expiry = claims.exp?.value else {
      throw SignedTokenRejection("the token has no \"exp\" claim")
    }
    guard expiry > now else { throw SignedTokenRejection("the token has expired") }
    if let notBefore = claims.nbf?.value, notBefore > now {
      throw SignedTokenRejection("the token is not valid yet (nbf)")
    }
    if let audiences = claims.aud?.value {
      guard let audience, audiences.contains(audience) else {
        throw SignedTokenRejection("the token's \"aud\" does not name this server")
      }
    }
    let grant = claims.observable
    let patterns = (grant?.subscribe ?? []) + (grant?.publish ?? [])
    if patterns.contains(where: { $0.contains(PlaceholderName.placeholder) }),
      !PlaceholderName.isValid(user)
    {
      throw SignedTokenRejection("the token's \"sub\" cannot stand for {user} in a topic name")
    }
    let permissions = Permissions(
      subscribe: PermissionRules(allow: try rules(grant?.subscribe, user: user)),
      publish: PermissionRules(allow: try rules(grant?.publish, user: user)),
      stats: grant?.stats ?? false, list: grant?.list ?? false)
    let seconds = expiry.timeIntervalSince(now)
    return SignedIdentity(
      user: user, permissions: permissions,
      expiresIn: .milliseconds(Int64((seconds * 1000).rounded(.up))))
  }

  private func rules(_ texts: [String]?, user: String) throws(SignedTokenRejection)
    -> [RulePattern]
  {
    var found: [RulePattern] = []
    for text in texts ?? [] {
      do {
        found.append(try PlaceholderName.pattern(text, user: user))
      } catch {
        throw SignedTokenRejection("the token's \"observable\" claim: \(error.message)")
      }
    }
    return found
  }
}
