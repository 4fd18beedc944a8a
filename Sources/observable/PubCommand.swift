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
      each line of standard input is published as one value, and one count is printed per line.
      """)

  @OptionGroup var connection: ConnectionOptions

  @Argument(help: "The stream to publish to.")
  var name: String

  @Argument(help: "The value, or - for each line of standard input.")
  var value: String

  @Flag(help: "Keep the value as the stream's last value, sent first to new subscribers.")
  var retain = false

  func run() async throws {
    let client = try await connection.connect()
    defer { client.close() }
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
