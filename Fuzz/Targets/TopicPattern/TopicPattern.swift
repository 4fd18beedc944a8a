import FuzzSupport

@main
enum TopicPatternTarget {
  static func main() {
    FuzzDriver.run { _, _ in 0 }
  }
}
