
/// A tile's type together with the options of that type.
public enum TileOptions: Sendable, Equatable {
    case odometer(OdometerOptions)
    case counter(CounterOptions)
    case wheel(WheelOptions)
    case carousel(CarouselOptions)
    case text(TextOptions)
    case gauge(GaugeOptions)
    case clock(ClockOptions)
    case leaderboard(LeaderboardOptions)
    case chart(ChartOptions)

    public var type: TileType {
        switch self {
        case .odometer: .odometer
        case .counter: .counter
        case .wheel: .wheel
        case .carousel: .carousel
        case .text: .text
        case .gauge: .gauge
        case .clock: .clock
        case .leaderboard: .leaderboard
        case .chart: .chart
        }
    }
}
