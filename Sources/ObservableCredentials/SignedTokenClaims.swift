import JWTKit

/// The claims of a signed token that the server reads. `sub` and `exp` are required, but
/// optional here so that a token without them gets a clear reason rather than a decoding error.
struct SignedTokenClaims: JWTPayload {
  /// The user.
  var sub: SubjectClaim?
  /// When the token stops being valid.
  var exp: ExpirationClaim?
  /// When it starts being valid, if it says.
  var nbf: NotBeforeClaim?
  /// Who it is for, if it says: then it must name the server's audience.
  var aud: AudienceClaim?
  /// The permissions, Mercure's way: one claim of the server's own.
  var observable: Grant?

  /// The `"observable"` claim: allowed names and patterns, and the two other permissions.
  struct Grant: Codable, Sendable {
    var subscribe: [String]?
    var publish: [String]?
    var stats: Bool?
    var list: Bool?
  }

  /// Times are checked by ``SignedTokenVerifier`` against its own clock, after the signature.
  func verify(using algorithm: some JWTAlgorithm) async throws {}
}
