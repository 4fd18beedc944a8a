import ArgumentParser
import ObservableClient
import ObservableWire

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `observable pub NAME VALUE`: publishes one value, or each line of stdin with `-`.
struct PubCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pub",
    abstract: "Publish a value and print how many subscriptions received it.",
    usage: "observable pub <name> <value> [--retain] [<options>]",
    discussion: """
      VALUE is JSON if it parses, else a string (as in the server's shorthand). With VALUE -, \
      each line of standard input is published as one value, and one count is printed per line. \
      With --will, the server publishes the will's value once when the command's connection \
      ends, however it ends (the end of input, an interrupt, a kill, a lost network): \
      `sensor | observable pub room.1 - --will room.1.status=offline`.
      """)

  @OptionGroup var connection: ConnectionOptions

  @Argument(help: "The stream to publish to.")
  var name: String

  @Argument(help: "The value, or - for each line of standard input.")
  var value: String

  @Flag(help: "Keep the value as the stream's last value, sent first to new subscribers.")
  var retain = false

  @Option(
    help: ArgumentHelp(
      """
      A last will, registered before publishing: VALUE (read as the value is) is published to \
      NAME when the connection ends.
      """, valueName: "name=value"))
  var will: String?

  @Flag(help: "Keep the will's value as its stream's last value.")
  var willRetain = false

  func validate() throws {
    if let will, LastWillOption(will) == nil {
      throw ValidationError("--will takes NAME=VALUE, not \(will)")
    }
    if willRetain, will == nil { throw ValidationError("--will-retain needs --will") }
  }

  func run() async throws {
    let client = try await connection.connect()
    defer { client.close() }
    if let will = will.flatMap(LastWillOption.init) {
      try await Failure.reporting {
        try await client.setWill(will.name, json: JSONText.value(will.value), retain: willRetain)
      }
    }
    if value != "-" {
      try await publish(value, client)
      return
    }
    while let line = readLine(strippingNewline: true) {
      try await publish(line, client)
    }
  }

  private func publish(_ text: String, _ client: ObservableClient) async throws {
    let receivers = try await Failure.reporting {
      try await client.publish(name, json: JSONText.value(text), retain: retain)
    }
    Terminal.print("\(receivers)")
  }
}

/// How the command line turns text into a JSON value.
enum JSONText {
  /// `text` itself, compacted, when it is JSON, else `text` as a JSON string.
  static func value(_ text: String) -> Data {
    if JSONValue(parsing: text) != nil { return compact(Data(text.utf8)) }
    return Data(RequestLine.quoted(text).utf8)
  }
}

extension JSONText {
  /// Valid JSON without the whitespace between its tokens; strings and numbers stay byte for
  /// byte as they were (re-encoding would turn `21.50` into `21.5`).
  static func compact(_ json: Data) -> Data {
    var out = Data(capacity: json.count)
    var inString = false
    var escaped = false
    for byte in json {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
      } else if byte == UInt8(ascii: "\"") {
        inString = true
      } else if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        continue
      }
      out.append(byte)
    }
    return out
  }
}

/// `--will NAME=VALUE`, split at the first `=` (a stream name has none).
struct LastWillOption {
  let name: String
  let value: String

  init?(_ text: String) {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
    name = String(text[..<equals])
    value = String(text[text.index(after: equals)...])
  }
}
