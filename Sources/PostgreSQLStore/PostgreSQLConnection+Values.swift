import CPostgreSQL
import StoreCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// MARK: - Binding

extension PostgreSQLConnection {
    /// Type OIDs (`pg_type.oid`) that values are read by.
    enum TypeOID {
        static let boolean: Oid = 16
        static let bytea: Oid = 17
        static let bigint: Oid = 20
        static let smallint: Oid = 21
        static let integer: Oid = 23
        static let oid: Oid = 26
        static let real: Oid = 700
        static let doublePrecision: Oid = 701
        static let numeric: Oid = 1700
    }

    /// Calls `body` with libpq's parameter arrays for `values`: text for integers, reals and text,
    /// with no type (the server infers it from the statement, so `1` binds to a `boolean`, an
    /// `integer` or a `bigint` column alike); binary `bytea` for blobs; NULL as a null pointer.
    static func withParameters<R>(
        _ values: [DatabaseValue],
        _ body: (UnsafePointer<Oid>, UnsafePointer<UnsafePointer<CChar>?>, UnsafePointer<Int32>, UnsafePointer<Int32>) -> R
    ) -> R {
        var types = [Oid](repeating: 0, count: values.count)
        var lengths = [Int32](repeating: 0, count: values.count)
        var formats = [Int32](repeating: 0, count: values.count)
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        buffers.reserveCapacity(values.count)
        defer { for buffer in buffers { free(buffer) } }
        for (index, value) in values.enumerated() {
            switch value {
            case .null:
                buffers.append(nil)
            case .integer(let integer):
                buffers.append(strdup(String(integer)))
            case .real(let real):
                // Swift's shortest round-trip form; PostgreSQL reads "inf", "-inf" and "nan" too.
                buffers.append(strdup(String(real)))
            case .text(let text):
                buffers.append(strdup(text))
            case .blob(let data):
                let buffer = malloc(max(data.count, 1))!.assumingMemoryBound(to: CChar.self)
                data.withUnsafeBytes { bytes in
                    if let base = bytes.baseAddress { buffer.update(from: base.assumingMemoryBound(to: CChar.self), count: data.count) }
                }
                buffers.append(buffer)
                types[index] = TypeOID.bytea
                lengths[index] = Int32(data.count)
                formats[index] = 1
            }
        }
        let pointers = buffers.map { UnsafePointer($0) }
        return body(types, pointers, lengths, formats)
    }

    // MARK: - Reading

    /// The value at `row`, `column` of a text-format result whose column has type `type`.
    static func value(of result: OpaquePointer, row: Int32, column: Int32, type: Oid) -> DatabaseValue {
        if PQgetisnull(result, row, column) != 0 { return .null }
        let text = PQgetvalue(result, row, column)!
        switch type {
        case TypeOID.bigint, TypeOID.integer, TypeOID.smallint, TypeOID.oid:
            return .integer(Int64(String(cString: text)) ?? 0)
        case TypeOID.real, TypeOID.doublePrecision, TypeOID.numeric:
            return .real(Double(String(cString: text)) ?? .nan)
        case TypeOID.boolean:
            return .integer(text.pointee == CChar(UInt8(ascii: "t")) ? 1 : 0)
        case TypeOID.bytea:
            var length = 0
            guard let bytes = PQunescapeBytea(UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), &length) else {
                return .blob(Data())
            }
            defer { PQfreemem(bytes) }
            return .blob(Data(bytes: bytes, count: length))
        default:
            return .text(String(cString: text))
        }
    }
}
