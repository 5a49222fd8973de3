package import RollboardAccess
package import RollboardConfig
package import RollboardCore
package import RollboardMetrics
package import RollboardStore

/// What a carousel can be told to do.
package enum CarouselViewerAction: String, Sendable, Equatable, CaseIterable {
    case hold, release, next, prev, goto
}
