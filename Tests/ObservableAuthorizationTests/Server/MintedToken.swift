import Foundation
import JWTKit

/// Signed tokens as a backend mints them for the test server's HS256 key.
enum MintedToken {
  /// The claims the server reads: a user, an expiry and the `observable` permissions.
  struct Claims: JWTPayload {
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var observable: [String: [String]]

    func verify(using algorithm: some JWTAlgorithm) async throws {}
  }

  /// A token for the user `web`, who may read `room.*` and write `user.web.>`, valid for
  /// `seconds`, signed with `secret`.
  static func make(
    expiresIn seconds: TimeInterval, secret: [UInt8] = AuthorizedServer.jwtSecret
  ) async throws -> String {
    let keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
    return try await keys.sign(
      Claims(
        sub: "web", exp: ExpirationClaim(value: Date(timeIntervalSinceNow: seconds)),
        observable: ["subscribe": ["room.*"], "publish": ["user.{user}.>"]]))
  }
}
