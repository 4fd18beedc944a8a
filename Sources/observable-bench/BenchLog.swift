import Glibc

/// Progress notes on standard error, which keeps standard output for the table or the JSON.
enum BenchLog {
  static func note(_ text: String) {
    let line = Array("observable-bench: \(text)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }
}
