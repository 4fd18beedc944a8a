import ArgumentParser
import ObservableAuthorization
import ObservableCredentials

/// The flags of users and signed tokens: `--auth-file`, `--jwt-key`, `--jwt-audience`.
struct UserOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Users, their hashed tokens and what each may subscribe to and publish (JSON; see Docs/operations.md). Reread on SIGHUP.",
      valueName: "path"))
  var authFile: String?

  @Option(
    help: ArgumentHelp(
      "Accept signed tokens (JWT): an HS256 secret (the file's bytes) or an ES256/RS256 public key in PEM.",
      valueName: "path"))
  var jwtKey: String?

  @Option(
    help: ArgumentHelp(
      "The audience a signed token's aud claim must name, when it has one.", valueName: "name"))
  var jwtAudience: String?

  /// The credentials and rules of `--token`, `--auth-file` and `--jwt-key`, or `nil` when none
  /// is given. A file or key that cannot be used is a usage error (exit status 64), found
  /// before anything listens.
  func accessPolicy(token: String?) throws -> AccessPolicy? {
    guard token != nil || authFile != nil || jwtKey != nil else {
      if jwtAudience != nil { throw ValidationError("--jwt-audience needs --jwt-key") }
      return nil
    }
    var file: AuthorizationFile?
    if let authFile {
      do {
        file = try AuthorizationFile.load(path: authFile)
      } catch {
        throw ValidationError("--auth-file \(authFile): \(error)")
      }
    }
    var signedTokens: SignedTokenVerifier?
    if let jwtKey {
      do {
        signedTokens = try SignedTokenVerifier(path: jwtKey, audience: jwtAudience)
      } catch {
        throw ValidationError("--jwt-key \(jwtKey): \(error)")
      }
    } else if jwtAudience != nil {
      throw ValidationError("--jwt-audience needs --jwt-key")
    }
    return AccessPolicy(
      sharedToken: token, file: file, filePath: authFile, signedTokens: signedTokens)
  }
}
