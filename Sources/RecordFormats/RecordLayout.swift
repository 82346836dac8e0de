/// How a record type is written and read by the data formats: its fields, in the order CSV and TSV
/// columns take, and the record that reading starts from before it sets each field read.
///
/// The layout is all a format needs to know of a type, so the same readers and writers serve any
/// entity:
///
/// ```swift
/// let layout = RecordLayout(
///     template: Film(id: nil, title: "", minutes: 0),
///     fields: [.optionalInteger("id", \.id), .text("title", \.title), .integer("minutes", \.minutes)])
/// ```
public struct RecordLayout<Record> {
    /// The record that reading starts from: every required field is then set from the input, and an
    /// optional field left out keeps the template's value.
    public let template: Record
    /// The fields, in column order.
    public let fields: [RecordField<Record>]
    let indexByName: [String: Int]

    /// A layout of `fields`, whose names must be distinct.
    public init(template: Record, fields: [RecordField<Record>]) {
        // A loop, not `map` and `Dictionary(uniqueKeysWithValues:)`: in this generic initializer `map`
        // runs unspecialized and looks up a conformance of the array at run time, which scans every
        // conformance record of the static binary the first time.
        var indexByName: [String: Int] = [:]
        for index in fields.indices {
            precondition(indexByName.updateValue(index, forKey: fields[index].name) == nil, "two fields have the same name")
        }
        self.template = template
        self.fields = fields
        self.indexByName = indexByName
    }

    /// The field names, in column order.
    public var fieldNames: [String] { fields.map(\.name) }

    /// Whether every one of `names` is a field of this layout.
    public func hasFields(_ names: some Sequence<String>) -> Bool {
        names.allSatisfy { indexByName[$0] != nil }
    }
}

extension RecordLayout: Sendable where Record: Sendable {}
