import FuzzSupport

@main
enum InflateTarget {
  static func main() {
    FuzzDriver.run { _, _ in 0 }
  }
}
