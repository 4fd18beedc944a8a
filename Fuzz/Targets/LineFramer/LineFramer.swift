import FuzzSupport

@main
enum LineFramerTarget {
  static func main() {
    FuzzDriver.run { _, _ in 0 }
  }
}
