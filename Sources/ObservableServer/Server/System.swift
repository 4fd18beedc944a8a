import Glibc

/// Facts about the machine the server runs on.
enum System {
  /// Online processor cores.
  static var coreCount: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
}
