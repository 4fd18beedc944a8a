import Glibc

/// The token `--token-file` names: the first line of the file that is not empty.
///
/// Read with `open` and `read` rather than Foundation's `String(contentsOfFile:)`, so that the
/// server links no full Foundation (and with it ICU), only FoundationEssentials; and read up to a limit, so that a path to a huge
/// file (or to `/dev/zero`) cannot take the server's memory.
enum TokenFile {
  /// Why a token file gave no token.
  enum Failure: Error, Equatable {
    /// The file cannot be opened or read, or is not UTF-8.
    case unreadable
    /// The file is larger than `byteLimit`.
    case tooLarge
    /// The file has no line with anything on it.
    case empty
  }

  /// The most bytes a token file may hold: far more than any token, far less than memory.
  static let byteLimit = 64 * 1024

  /// The token in the file at `path`.
  static func token(at path: String) throws(Failure) -> String {
    var bytes = try contents(at: path)[...]
    // A leading byte order mark is not part of the token (Foundation dropped it too).
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    guard let text = String(validating: bytes, as: UTF8.self) else { throw .unreadable }
    // The same split as before the change: any newline ends a line, and empty lines are skipped.
    guard let line = text.split(whereSeparator: \.isNewline).first, !line.isEmpty else {
      throw .empty
    }
    return String(line)
  }

  /// The file's bytes, read to its end or to one byte past `byteLimit`.
  private static func contents(at path: String) throws(Failure) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .unreadable }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while bytes.count <= byteLimit {
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 { return bytes }
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable
      }
      bytes.append(contentsOf: chunk[..<count])
    }
    throw .tooLarge
  }
}
