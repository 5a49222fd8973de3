// DashboardBenchmark: the real Rollboard stack (configuration, MetricStore, ProducerAPI, DashboardDirectory,
// RollboardApplication, Server with TLS) in a child process, watched by N TLS WebSocket screens on
// /ws?dashboard=demo while a producer posts a new value every second.
//
//   swift build -c release --product DashboardBenchmark
//   .build/release/DashboardBenchmark [--clients 500,1000,2000] [--deflate off,on] [--duration 20] [--runs 2]
//       [--client-threads 1] [--interval 1] [--post-every 1]
//
// Measures, per scenario: frames received per second across clients against the expected rate, the delay from
// the POST's 202 (and from the POST being sent) to the first frame carrying the new target at each client
// (p50/p99/max), the server's CPU (utime+stime from /proc/PID/stat over the window), the client process's CPU
// (to show whether the clients kept up), and the server's resident memory per connection.
//
// The clients are non-blocking sockets on epoll (one or two threads), TLS through OpenSSL with SSL_set_fd, and
// decode frames minimally: count `frame` messages and look for `"target":`. With `--deflate on` they offer
// `permessage-deflate; client_max_window_bits` (as Chrome does) and inflate what the server compresses.

import Foundation

#if canImport(Glibc)
import Glibc
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "serve", arguments.count == 2 {
    try serveDashboard(folder: arguments[1])
}

var options = BenchmarkOptions()
while !arguments.isEmpty {
    let flag = arguments.removeFirst()
    let value = arguments.isEmpty ? "" : arguments.removeFirst()
    switch flag {
    case "--clients": options.clientCounts = value.split(separator: ",").compactMap { Int($0) }
    case "--deflate": options.deflateModes = value.split(separator: ",").map { $0 == "on" }
    case "--duration": options.duration = Int(value) ?? options.duration
    case "--runs": options.runs = Int(value) ?? options.runs
    case "--client-threads": options.clientThreads = max(1, Int(value) ?? options.clientThreads)
    case "--interval": options.animationSeconds = Double(value) ?? options.animationSeconds
    case "--post-every": options.postEvery = max(0.1, Double(value) ?? options.postEvery)
    default:
        FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8))
        exit(2)
    }
}
try runBenchmark(options)
