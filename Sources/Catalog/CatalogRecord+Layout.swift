import RecordFormats

extension Product {
    /// `id`, `type`, `name`, `yearIntroduced`, `introPrice`: the JSON property names, in CSV column order.
    public static var layout: RecordLayout<Product> {
        RecordLayout(
            template: Product(type: .device, name: "", yearIntroduced: 0, introPrice: 0),
            fields: [
                .optionalInteger("id", \.id),
                .text("type", \.type) { try ProductType(parsing: $0) },
                .text("name", \.name) { try Validation.name($0) },
                RecordField(name: "yearIntroduced", kind: .integer, value: { .integer(Int64($0.yearIntroduced)) }) { product, value in
                    product.yearIntroduced = try Validation.year(value, field: "year")
                },
                RecordField(name: "introPrice", kind: .decimal, value: { .decimal($0.introPrice) }) { product, value in
                    product.introPrice = try Validation.amount(value, field: "price", decimals: Product.priceDecimals)
                },
            ])
    }
}

extension Phone {
    /// `id`, `name`, `maker`, `yearReleased`, `operatingSystem`, `screenInches`: the JSON property
    /// names, in CSV column order.
    public static var layout: RecordLayout<Phone> {
        RecordLayout(
            template: Phone(name: "", maker: "", yearReleased: 0, operatingSystem: "", screenInches: 0),
            fields: [
                .optionalInteger("id", \.id),
                .text("name", \.name) { try Validation.name($0) },
                .text("maker", \.maker) { try Validation.name($0, field: "maker") },
                RecordField(name: "yearReleased", kind: .integer, value: { .integer(Int64($0.yearReleased)) }) { phone, value in
                    phone.yearReleased = try Validation.year(value, field: "year")
                },
                .text("operatingSystem", \.operatingSystem) { try Validation.name($0, field: "os") },
                RecordField(name: "screenInches", kind: .decimal, value: { .decimal($0.screenInches) }) { phone, value in
                    phone.screenInches = try Validation.amount(value, field: "screen", decimals: Phone.screenDecimals)
                },
            ])
    }
}

extension Validation {
    /// A year read from a file, within ``years``.
    static func year(_ value: FieldValue, field: String) throws -> Int {
        guard case .integer(let number) = value, let whole = Int(exactly: number) else { return 0 }
        return try year(whole, field: field)
    }

    /// An amount read from a file, as ``amount(_:field:decimals:)-(Double,_,_)`` checks it.
    static func amount(_ value: FieldValue, field: String, decimals: Int) throws -> Double {
        guard case .decimal(let number) = value else { return 0 }
        return try amount(number, field: field, decimals: decimals)
    }
}
