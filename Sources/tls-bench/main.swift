import Glibc
import TLS

// Measures the TLS transform on one core, without sockets: handshakes per second and bytes per
// second of encryption and decryption, client and server sessions passing bytes in memory.
// Rates are per second of this thread's CPU time, so a busy machine slows the run, not the
// figures (much: caches and frequency still suffer).
//
//   openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout key.pem \
//     -out cert.pem -days 2 -subj /CN=localhost -addext "subjectAltName=DNS:localhost"
//   swift build -c release --product tls-bench
//   .build/release/tls-bench cert.pem key.pem [seconds]

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
  print("usage: tls-bench CERT KEY [SECONDS]")
  exit(2)
}
let seconds = arguments.count > 3 ? Double(arguments[3]) ?? 3 : 3
let server = try TLSContext(
  server: TLSServerConfiguration(certificateChainFile: arguments[1], privateKeyFile: arguments[2]))
let client = try TLSContext(
  client: TLSClientConfiguration(serverVerification: .verify(caFile: arguments[1])))
let clock = ContinuousClock()

/// Runs `body` and returns the CPU time this thread spent in it.
func cpuTime(_ body: () throws -> Void) rethrows -> Duration {
  func now() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
  }
  let start = now()
  try body()
  return now() - start
}
/// The buffer plaintext is read into, as the loop's shared read buffer will be.
var scratch = [UInt8](repeating: 0, count: 65536)

/// Moves what `from` has for its peer into `to`, then reads `to` until it needs input; returns
/// the plaintext bytes read.
@discardableResult
@MainActor
func pass(from: TLSSession, to: TLSSession) throws -> Int {
  var bytes: [UInt8] = []
  from.takeCiphertext(appendingTo: &bytes)
  bytes.withUnsafeBytes { to.feed($0) }
  var plaintext = 0
  while true {
    let read = try scratch.withUnsafeMutableBytes { try to.read(into: $0) }
    switch read {
    case .plaintext(let count): plaintext += count
    case .handshakeCompleted: continue
    case .needsInput, .closedByPeer: return plaintext
    }
  }
}

/// A full handshake; returns the time spent in the server's calls.
@MainActor
func handshake() throws -> (Duration, TLSSession, TLSSession) {
  let (a, b) = (
    try TLSSession(context: client, serverName: "localhost"), try TLSSession(context: server)
  )
  var serverTime = Duration.zero
  try a.startHandshake()
  while !(a.isHandshakeComplete && b.isHandshakeComplete) || a.hasCiphertext || b.hasCiphertext {
    serverTime += try cpuTime { try pass(from: a, to: b) }
    try pass(from: b, to: a)
  }
  return (serverTime, a, b)
}

func rate(_ count: Double, _ time: Duration) -> String {
  let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
  return String(Int(count / seconds))
}

// Handshakes: both ends on this core; the server's share is timed on its own.
var handshakes = 0
var serverTime = Duration.zero
let start = clock.now
let bothEnds = try cpuTime {
  while clock.now - start < .seconds(seconds) {
    serverTime += try handshake().0
    handshakes += 1
  }
}
let (_, sample, _) = try handshake()
print(
  "handshakes \(sample.negotiatedProtocol ?? "?") \(sample.cipher ?? "?"):",
  "\(rate(Double(handshakes), bothEnds))/s both ends,",
  "\(rate(Double(handshakes), serverTime))/s server side only")

// Throughput: the server encrypts batches of `size` bytes, the client decrypts them.
let (_, reader, writer) = try handshake()
for size in [100, 1024, 16384, 65536] {
  let batch = [UInt8](repeating: 0x61, count: size)
  var ciphertext: [UInt8] = []
  var encrypt = Duration.zero
  var decrypt = Duration.zero
  var moved = 0
  let began = clock.now
  while clock.now - began < .seconds(seconds) {
    encrypt += try cpuTime {
      for _ in 0..<max(1, 262_144 / size) {
        try batch.withUnsafeBytes { try writer.send($0, appendingTo: &ciphertext) }
        moved += size
      }
    }
    decrypt += try cpuTime {
      ciphertext.withUnsafeBytes { reader.feed($0) }
      ciphertext.removeAll(keepingCapacity: true)
      _ = try pass(from: writer, to: reader)
    }
  }
  let megabytes = Double(moved) / 1_048_576
  print(
    "batch \(size) B: encrypt \(rate(megabytes, encrypt)) MiB/s",
    "(\(rate(Double(moved / size), encrypt)) sends/s), decrypt \(rate(megabytes, decrypt)) MiB/s")
}

/// This process's resident memory in bytes, from /proc/self/statm.
func residentBytes() -> Int {
  let descriptor = open("/proc/self/statm", O_RDONLY)
  guard descriptor >= 0 else { return 0 }
  defer { close(descriptor) }
  var text = [UInt8](repeating: 0, count: 256)
  let count = read(descriptor, &text, text.count)
  let fields = String(decoding: text.prefix(max(0, count)), as: UTF8.self).split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
  return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

// Memory: server sessions that finished their handshake and sent a little, then went idle, as
// open connections wait for their next value. The client ends are dropped.
let idleCount = 5000
var idle: [TLSSession] = []
idle.reserveCapacity(idleCount)
let before = residentBytes()
for _ in 0..<idleCount {
  let (_, clientEnd, serverEnd) = try handshake()
  var bytes: [UInt8] = []
  try Array("{\"value\":1}\n".utf8).withUnsafeBytes { try serverEnd.send($0, appendingTo: &bytes) }
  bytes.withUnsafeBytes { clientEnd.feed($0) }
  idle.append(serverEnd)
}
// An upper bound: the freed client ends leave holes in the heap that RSS still counts.
print("idle server session: at most \((residentBytes() - before) / idleCount) bytes of RSS each")
