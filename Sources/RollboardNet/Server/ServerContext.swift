import Logging

/// What every connection handler of one server shares: its configuration and the layer above.
struct ServerContext: Sendable {
    let configuration: ServerConfiguration
    let handler: any ServerHandler
    let logger: Logger
}
