import CLibFuzzer
import Glibc

/// Hands control to libFuzzer from a target's own `main`.
///
/// SwiftPM gives every executable target a `main` of its own, so libFuzzer's `main` is never
/// linked in; ``run(_:)`` is the documented way for such a program to start the fuzzer with its
/// usual command-line flags.
public enum FuzzDriver {
  /// The function libFuzzer calls once per input; it must return 0.
  public typealias Callback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

  /// Runs libFuzzer with this process's arguments and exits with its status.
  public static func run(_ callback: Callback) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
  }

  /// The input libFuzzer passed as a buffer; libFuzzer may pass a null pointer for no bytes.
  public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
  }
}
