import ArgumentParser
import ObservableAuthorization
import ObservableCredentials

/// `observable-server token [USER]`: a new random token for a user of `--auth-file`, and the
/// member that the file keeps instead of it (its SHA-256, never the token itself).
struct TokenCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "token",
    abstract: "Print a new random token and the line to paste into the --auth-file user.",
    discussion: """
      The first line is the token to give the client ({"op":"auth","user":USER,"token":TOKEN}); \
      the second is the "token" member for that user's object in the file. Only the second \
      is stored on the server.
      """)

  @Argument(help: "The user the token is for, shown in the example line.")
  var user: String?

  func run() throws {
    if let user, !PlaceholderName.isValid(user) {
      throw ValidationError("user names are letters, digits, '_' and '-'")
    }
    let made = NewToken()
    print(made.token)
    if let user {
      print("\"\(user)\": {\(made.fileLine), \"subscribe\": [], \"publish\": []}")
    } else {
      print(made.fileLine)
    }
  }
}
