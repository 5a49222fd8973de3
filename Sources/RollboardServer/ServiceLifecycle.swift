import Logging
package import RollboardCore
package import RollboardStore
import Synchronization

/// Starts a node's services in order and stops them in the reverse order, one after another: a service's stop is an
/// event (it calls `done` once it has stopped, on any queue), and the next one is asked only then, so no thread waits
/// for a service to finish. Our own small `ServiceGroup` for services on Dispatch rather than async/await.
final class ServiceLifecycle: Sendable {
    /// One service, as the lifecycle drives it.
    struct Service: Sendable {
        /// For the log.
        let name: String
        /// Starts the service (throws when it cannot).
        let start: @Sendable () throws -> Void
        /// Stops the service; calls `done` once it has stopped.
        let stop: @Sendable (_ done: @escaping @Sendable () -> Void) -> Void

        init(
            _ name: String, start: @escaping @Sendable () throws -> Void = {},
            stop: @escaping @Sendable (_ done: @escaping @Sendable () -> Void) -> Void
        ) {
            self.name = name
            self.start = start
            self.stop = stop
        }
    }

    private enum Phase {
        /// `started` services are running (the first ones of `services`).
        case running(started: Int)
        /// Stopping; these are told once the last service stopped.
        case stopping(waiting: [@Sendable () -> Void])
        case stopped
    }

    private let services: [Service]
    private let logger: Logger
    private let phase = Mutex(Phase.running(started: 0))

    init(_ services: [Service], logger: Logger) {
        self.services = services
        self.logger = logger
    }

    /// Starts every service in order. When one throws, the ones already started are stopped (in the background) and
    /// the error is thrown.
    func start() throws {
        for (index, service) in services.enumerated() {
            do {
                try service.start()
            } catch {
                logger.error("a service did not start", metadata: ["service": "\(service.name)", "error": "\(error)"])
                stop {}
                throw error
            }
            phase.withLock { phase in
                if case .running = phase { phase = .running(started: index + 1) }
            }
        }
    }

    /// Stops the started services, the last started first, each once the one after it has stopped; `completion` is
    /// called (on any queue) once all have. A second call is told when the first one's stopping ends.
    func stop(completion: @escaping @Sendable () -> Void) {
        enum Next {
            case stop(Int)
            case wait
            case done
        }
        let next: Next = phase.withLock { phase in
            switch phase {
            case .running(let started):
                phase = .stopping(waiting: [completion])
                return .stop(started)
            case .stopping(let waiting):
                phase = .stopping(waiting: waiting + [completion])
                return .wait
            case .stopped:
                return .done
            }
        }
        switch next {
        case .stop(let started): stop(ArraySlice(services[..<started].reversed()))
        case .wait: break
        case .done: completion()
        }
    }

    /// Stops the first of `remaining`, then (when it says it has) the rest.
    private func stop(_ remaining: ArraySlice<Service>) {
        guard let service = remaining.first else {
            let waiting: [@Sendable () -> Void] = phase.withLock { phase in
                defer { phase = .stopped }
                if case .stopping(let waiting) = phase { return waiting }
                return []
            }
            for done in waiting { done() }
            return
        }
        logger.debug("stopping", metadata: ["service": "\(service.name)"])
        service.stop { [self] in stop(remaining.dropFirst()) }
    }
}
