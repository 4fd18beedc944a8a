import IndefiniteObservable
import Testing

/// The README's library example, pasted as printed (inside a function, with `print` captured),
/// so the README cannot drift from code that compiles and runs.
@Suite("README library example")
struct ReadmeLibraryExampleTests {
  final class Thermometer: @unchecked Sendable {
    var onReading: ((Double) -> Void)?
  }

  @Test func exampleRunsAsPrinted() {
    var printed: [String] = []
    func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }

    let thermometer = Thermometer()
    let readings = ValueObservable<Double> { observer in
      thermometer.onReading = { observer.next($0) }
      return { thermometer.onReading = nil }
    }
    let subscription = readings.map { $0 * 9 / 5 + 32 }.subscribe { print($0, "°F") }
    thermometer.onReading?(21.5)  // prints 70.7 °F
    subscription.unsubscribe()  // runs the disconnect; later calls do nothing

    #expect(printed == ["70.7 °F"])
    #expect(thermometer.onReading == nil)
  }
}
