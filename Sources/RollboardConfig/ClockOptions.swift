
/// Options of a `clock` tile: the time (and the date) in the dashboard's time zone, turning on the server's clock.
public struct ClockOptions: Sendable, Equatable {
    /// Whether the time shows seconds (and so turns every second rather than every minute).
    public var seconds: Bool
    /// Whether the date shows under the time.
    public var date: Bool
    /// The language the date and time are written in (a language tag); `nil` takes the dashboard's `locale`, else
    /// ``defaultLocale``.
    public var locale: String?

    /// The language of a clock whose tile and dashboard name none.
    public static let defaultLocale = "en-US"

    public init(seconds: Bool = true, date: Bool = true, locale: String? = nil) {
        self.seconds = seconds
        self.date = date
        self.locale = locale
    }
}
