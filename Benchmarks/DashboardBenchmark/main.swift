// DashboardBenchmark: the real Rollboard stack (configuration, MetricStore, RollboardAPI, DashboardDirectory,
// RollboardApplication, Server with TLS) in a child process, watched by N TLS WebSocket screens while a producer
// keeps the tiles moving.
//
//   swift build -c release --product DashboardBenchmark
//   .build/release/DashboardBenchmark [--clients 500,1000,3000] [--deflate off,on] [--duration 20] [--runs 1]
//       [--scenario moving,demo,context] [--peer PATH] [--client-threads 1] [--interval 1] [--post-every 1]
//       [--series-readers 0,20] [--series-points 10000]
//
// `moving` (the default): eight odometers of eight columns, all moving on every tick, fed a batch of eight values
// every second; `demo`: six tiles, one odometer posted to; `context`: four odometers, a gauge, a chart and a ten-row
// leaderboard, fed a batch and a reshuffled board every second. Several scenarios (`moving,context`) run in turn. `--peer PATH` runs the Hummingbird peer
// (Benchmarks/Peers/HummingbirdBroadcast) after each scenario, broadcasting the frames one Rollboard screen received.
//
// `--series-readers 0,20` runs each scenario again with that many series readers beside the screens: each reads the
// whole raw series of a metric seeded with `--series-points` changes (10,000: about 650 KB), page by page through
// `next`, over and over, while a probe asks `/healthz` every 20 ms (see SeriesReaders.swift).
//
// Measures, per scenario: frames per screen per second, server CPU µs per delivered frame, wire bytes per frame, RSS
// per screen while animating, the delay from the POST's 202 (and from the POST being sent) to the first frame
// carrying the new target at each screen (p50/p99), the p99 of the intervals between frames, and the client
// process's CPU (to show whether the clients kept up).
//
// The clients are non-blocking sockets on epoll (one or two threads), TLS through OpenSSL with SSL_set_fd, and
// decode frames minimally. With `--deflate on` they offer `permessage-deflate; client_max_window_bits` (as Chrome
// does) and inflate what the server compresses, keeping their window when the server keeps its context.

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
    case "--scenario": options.scenarios = value.split(separator: ",").map(String.init)
    case "--peer": options.peer = value
    case "--series-readers": options.seriesReaders = value.split(separator: ",").compactMap { Int($0) }
    case "--series-points": options.seriesPoints = max(1, Int(value) ?? options.seriesPoints)
    default:
        FileHandle.standardError.write(Data("unknown option \(flag)\n".utf8))
        exit(2)
    }
}
try runBenchmark(options)
