#if canImport(Glibc)
  import Glibc
#endif

/// Stops the process when a property of the code under test does not hold.
///
/// The message goes to standard error before the abort, so the failure libFuzzer records (and
/// saves the input for) says which property broke and how.
public func require(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
  file: StaticString = #fileID, line: UInt = #line
) {
  guard !condition() else { return }
  var report = "fuzz property failed at \(file):\(line): \(message())\n"
  // Straight to file descriptor 2: the C `stderr` global is not concurrency-safe to name.
  report.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  abort()
}
