import RollboardAnimation
package import RollboardCore
extension RollboardConfiguration {
    /// A dashboard as the API and the page see it: id, title, grid and every tile with its effective options.
    package func json(_ dashboard: DashboardConfiguration) -> JSONValue {
        var members = [
            JSONMember("id", .string(dashboard.id)),
            JSONMember("title", .string(dashboard.title)),
        ]
        if let locale = dashboard.locale { members.append(JSONMember("locale", .string(locale))) }
        if let zone = dashboard.timeZone { members.append(JSONMember("timeZone", .string(zone.identifier))) }
        members += [
            JSONMember(
                "grid",
                .object([
                    JSONMember("columns", .number(dashboard.grid.columns)),
                    JSONMember("rows", .number(dashboard.grid.rows)),
                ])),
            JSONMember("tiles", .array(dashboard.tiles.map(json))),
        ]
        return .object(members)
    }

    /// A tile with its type options; `staleAfter` and `backlog` are the effective values.
    func json(_ tile: TileConfiguration) -> JSONValue {
        var members = [
            JSONMember("id", .string(tile.id)),
            JSONMember("type", .string(tile.type.rawValue)),
            JSONMember("title", .optional(tile.title.map(JSONValue.string))),
            JSONMember("metric", .string(tile.metric)),
        ]
        if let position = tile.position {
            members.append(
                JSONMember(
                    "position",
                    .object([
                        JSONMember("column", .number(position.column)),
                        JSONMember("row", .number(position.row)),
                        JSONMember("width", .number(position.width)),
                        JSONMember("height", .number(position.height)),
                    ])))
        }
        members.append(JSONMember("staleAfter", .optional(staleAfter(tile).map(JSONValue.number))))
        members.append(JSONMember("backlog", .number(backlog(tile))))
        if !tile.kpi.isEmpty || tile.kpi.lowerIsBetter {
            let delta: JSONValue =
                switch tile.kpi.delta {
                case .none: .string("none")
                case .previous: .string("previous")
                case .baseline: .string("baseline")
                }
            var baseline: Double?
            if case .baseline(let value) = tile.kpi.delta { baseline = value }
            members += [
                JSONMember("goal", .optional(tile.kpi.goal.map(JSONValue.number))),
                JSONMember("warning", .optional(tile.kpi.warning.map(JSONValue.number))),
                JSONMember("critical", .optional(tile.kpi.critical.map(JSONValue.number))),
                JSONMember("lowerIsBetter", .bool(tile.kpi.lowerIsBetter)),
                JSONMember("delta", delta),
                JSONMember("baseline", .optional(baseline.map(JSONValue.number))),
            ]
        }
        if tile.type.hasAnimationQueue {
            members.append(JSONMember("queue", .string((tile.queue ?? .fifo).rawValue)))
            members.append(JSONMember("maxLag", .optional(maxLag(tile).map(JSONValue.number))))
        }
        switch tile.options {
        case .odometer(let options):
            switch options.columns {
            case .fixed(let count): members.append(JSONMember("columns", .number(count)))
            case .growing(let maximum): members.append(JSONMember("maxColumns", .number(maximum)))
            }
            let affixes = options.style.affixes(prefix: options.prefix, suffix: options.suffix)
            members += [
                JSONMember("decimals", .number(options.decimals)),
                JSONMember("prefix", .string(affixes.prefix)),
                JSONMember("suffix", .string(affixes.suffix)),
                JSONMember("groupSeparator", .string(options.style.effectiveGroupSeparator)),
                JSONMember("decimalSeparator", .string(options.style.effectiveDecimalSeparator)),
                JSONMember("pad", .bool(options.pad)),
                JSONMember("compact", .bool(options.compact)),
                JSONMember("locale", .optional(options.style.locale.map { JSONValue.string($0.identifier) })),
                JSONMember("maxDuration", .number(options.maxDuration)),
            ]
        case .counter(let options):
            members += [
                JSONMember("format", .string(options.format)),
                JSONMember("grouping", .optional(options.grouping.map(JSONValue.string))),
                JSONMember("easing", .string(options.easing.rawValue)),
                JSONMember("duration", .number(options.duration)),
                JSONMember("prefix", .string(options.prefix)),
                JSONMember("suffix", .string(options.suffix)),
                JSONMember("locale", .optional(options.style.locale.map { JSONValue.string($0.identifier) })),
                JSONMember("groupSeparator", .string(options.effectiveGroupSeparator)),
                JSONMember("decimalSeparator", .string(options.style.effectiveDecimalSeparator)),
                JSONMember("currency", .optional(options.style.currency.map(JSONValue.string))),
                JSONMember("compact", .bool(options.compact)),
            ]
        case .wheel(let options):
            members += [
                JSONMember("contents", .array(options.contents.map(JSONValue.string))),
                JSONMember(
                    "colors",
                    .optional(options.colors.map { colors in
                        .object(options.contents.compactMap { label in
                            colors[label].map { JSONMember(label, .string($0)) }
                        })
                    })),
                JSONMember("duration", .number(options.duration)),
            ]
        case .carousel(let options):
            let slides = options.slides.map { slide -> JSONValue in
                switch slide {
                case .image(let path): .object([JSONMember("image", .string(path))])
                case .text(let text): .object([JSONMember("text", .string(text))])
                }
            }
            members += [
                JSONMember("slides", .array(slides)),
                JSONMember("interval", .number(options.interval)),
                JSONMember("dotColor", .optional(options.dotColor.map(JSONValue.string))),
                JSONMember("activeDotColor", .optional(options.activeDotColor.map(JSONValue.string))),
            ]
        case .text(let options):
            members += [JSONMember("text", .string(options.text)), JSONMember("align", .string(options.align.rawValue))]
        case .clock(let options):
            members += [
                JSONMember("seconds", .bool(options.seconds)), JSONMember("date", .bool(options.date)),
                JSONMember("locale", .optional(options.locale.map(JSONValue.string))),
            ]
        case .gauge(let options):
            members += [
                JSONMember("style", .string(options.style.rawValue)),
                JSONMember("min", .number(options.min)),
                JSONMember("max", .number(options.end(goal: tile.kpi.goal))),
                JSONMember("format", .string(options.number.format)),
                JSONMember("easing", .string(options.number.easing.rawValue)),
                JSONMember("duration", .number(options.number.duration)),
                JSONMember("prefix", .string(options.number.prefix)),
                JSONMember("suffix", .string(options.number.suffix)),
                JSONMember("locale", .optional(options.number.style.locale.map { JSONValue.string($0.identifier) })),
            ]
        case .leaderboard(let options):
            members += [
                JSONMember("size", .number(Double(options.size))),
                JSONMember("duration", .number(options.number.duration)),
                JSONMember("locale", .optional(options.number.style.locale.map { JSONValue.string($0.identifier) })),
            ]
        case .chart(let options):
            members += options.helloMembers()
        }
        return .object(members)
    }
}
