/// The command-line options of `HummingbirdBroadcast`.
///
/// ```
/// HummingbirdBroadcast --frames FILE [--port 8443] [--host 127.0.0.1] [--fps 30]
///                      [--cert CERT.pem --key KEY.pem] [--deflate on|off]
/// ```
struct Options: Sendable {
    /// TCP port to listen on; `0` picks a free one (the `listening on PORT` line tells which).
    var port = 8443
    /// Address to bind.
    var host = "127.0.0.1"
    /// The frames file: line 1 is the hello message, lines 2… are the frames.
    var framesPath: String?
    /// Broadcast rate of the shared timer, in frames per second.
    var fps = 30.0
    /// PEM certificate chain; with `keyPath`, the server speaks TLS 1.3.
    var certificatePath: String?
    /// PEM private key matching `certificatePath`.
    var keyPath: String?
    /// Offer permessage-deflate (Hummingbird's defaults, context takeover on both sides).
    var deflate = true

    static let usage = """
        usage: HummingbirdBroadcast --frames FILE [--port P] [--host ADDRESS] [--fps N]
                                    [--cert CERT.pem --key KEY.pem] [--deflate on|off]
          --frames FILE     line 1: the hello message; lines 2…: frames, broadcast cyclically
          --port P          port to listen on (default 8443; 0 picks a free one)
          --host ADDRESS    address to bind (default 127.0.0.1)
          --fps N           frames per second of the shared broadcast timer (default 30)
          --cert, --key     PEM certificate and key: serve wss with TLS 1.3 (default: plain ws)
          --deflate on|off  offer permessage-deflate with context takeover (default on)
        """

    /// An error in the command line, printed with the usage text.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses `arguments` (without the program name).
    init(parsing arguments: [String]) throws(UsageError) {
        var remaining = arguments[...]
        func value(for option: String) throws(UsageError) -> String {
            guard let value = remaining.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            return value
        }
        while let option = remaining.popFirst() {
            switch option {
            case "--port":
                let text = try value(for: option)
                guard let port = Int(text), (0...65_535).contains(port) else {
                    throw UsageError(description: "bad --port \(text)")
                }
                self.port = port
            case "--host":
                self.host = try value(for: option)
            case "--frames":
                self.framesPath = try value(for: option)
            case "--fps":
                let text = try value(for: option)
                guard let fps = Double(text), fps > 0, fps <= 1_000 else {
                    throw UsageError(description: "bad --fps \(text) (0 < fps ≤ 1000)")
                }
                self.fps = fps
            case "--cert":
                self.certificatePath = try value(for: option)
            case "--key":
                self.keyPath = try value(for: option)
            case "--deflate":
                switch try value(for: option) {
                case "on": self.deflate = true
                case "off": self.deflate = false
                case let other: throw UsageError(description: "bad --deflate \(other) (on or off)")
                }
            case "-h", "--help":
                throw UsageError(description: "")
            default:
                throw UsageError(description: "unknown option \(option)")
            }
        }
        guard framesPath != nil else { throw UsageError(description: "--frames FILE is required") }
        guard (certificatePath == nil) == (keyPath == nil) else {
            throw UsageError(description: "--cert and --key go together")
        }
    }
}
