/// What one PostgreSQL statement returned, as text (libpq's text format): the columns and the rows fetched. Pure, so
/// every decision about a result's shape is tested without a database (its memberwise initializers, for tests).
public struct PostgresRows: Sendable, Equatable {
    public struct Column: Sendable, Equatable {
        public var name: String
        /// Whether the column's type is a number type (smallint, integer, bigint, real, double precision, numeric).
        public var isNumber: Bool
    }

    public var columns: [Column]
    /// Each row's values in column order; `nil` is SQL NULL.
    public var rows: [[String?]]

    /// The type oids (pg_type) of the number types.
    static let numberTypes: Set<UInt32> = [20, 21, 23, 700, 701, 1700]
}
