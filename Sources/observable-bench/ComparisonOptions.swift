import ArgumentParser

/// The options of the fan-out and memory comparisons beside the peers, besides `--peers` and
/// `--repeats`, which the broadcast comparison shares.
struct ComparisonOptions: ParsableArguments {
  @Flag(
    help: ArgumentHelp(
      "Fan-out and memory beside the peers, every connection over TLS: a throwaway P-256"
        + " certificate, Redis --tls-port, NATS tls {}, Mosquitto certfile, observable-server"
        + " --listen tls:// (when it has --tls-cert)."))
  var tls = false
}
