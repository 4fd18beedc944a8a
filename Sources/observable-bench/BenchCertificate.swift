import Glibc

/// A throwaway P-256 certificate for 127.0.0.1 and `localhost`, made with `openssl req` in a
/// fresh temporary folder for one run and removed with it. The servers compared over TLS
/// present it, and the benchmark's clients trust it and nothing else.
final class BenchCertificate {
  /// The folder holding the certificate, the key and the peers' configuration files.
  let directory: String
  var certificatePath: String { directory + "/cert.pem" }
  var keyPath: String { directory + "/key.pem" }

  /// A folder for the peers' configuration files, with a certificate in it when `tls`.
  init(tls: Bool, deadline: Deadline) throws(BenchError) {
    var template = Array("/tmp/observable-bench-peers-XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else { throw .system(call: "mkdtemp", code: errno) }
    directory = String(cString: made)
    // Mosquitto started as root drops to its own user before it reads the files.
    chmod(directory, 0o755)
    guard tls else { return }
    let log = directory + "/openssl.log"
    let pid = try ChildProcess.spawn(
      [
        "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
        "-nodes", "-keyout", keyPath, "-out", certificatePath, "-days", "2", "-subj",
        "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
      ], searchPath: true, logPath: log)
    let ending = ChildProcess.wait(pid, seconds: max(1, min(30, deadline.secondsLeft)))
    guard case .exited(0) = ending, access(certificatePath, R_OK) == 0 else {
      if ending == nil { _ = ChildProcess.stop(pid, grace: 0) }
      let output = ProcFile.read(log) ?? ""
      remove()
      throw .refused("openssl req could not make a test certificate: \(output)")
    }
    // A key for this run only, readable by the servers whatever user they run as.
    chmod(keyPath, 0o644)
  }

  deinit { remove() }

  /// Writes `contents` to `name` in the folder and returns its path.
  func write(_ name: String, _ contents: String) throws(BenchError) -> String {
    let path = directory + "/" + name
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw .system(call: "open \(path)", code: errno) }
    defer { close(fd) }
    let bytes = Array(contents.utf8)
    guard bytes.withUnsafeBytes({ Glibc.write(fd, $0.baseAddress, $0.count) }) == bytes.count else {
      throw .system(call: "write \(path)", code: errno)
    }
    return path
  }

  private func remove() {
    guard !removed else { return }
    removed = true
    guard let folder = opendir(directory) else { return }
    while let entry = readdir(folder) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) {
        String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != ".", name != ".." { unlink(directory + "/" + name) }
    }
    closedir(folder)
    rmdir(directory)
  }

  private var removed = false
}
