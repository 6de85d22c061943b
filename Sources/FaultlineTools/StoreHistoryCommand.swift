import Faultline
import FaultlineCommandLine
import Foundation

/// `faultline store history STORE [--model PATH] [--after N] [--json]`:
/// a store's persistent history — Core Data's `ATRANSACTION`/`ACHANGE`
/// rows, SwiftData's and Faultline's alike — oldest first: who saved and
/// when, and each change's object URI, type, changed properties and
/// tombstone. With `--json`, one object per transaction per line: a change
/// feed a server reads after the last transaction it handled. The store is
/// opened read-only and never written.
enum StoreHistoryCommand {
    static func run(_ arguments: ArraySlice<String>, usage: String, write: (String) -> Void) -> Int32 {
        var store: String?
        var model: String?
        var after: (store: String?, number: Int64)?
        var json = false
        do {
            var scanner = ArgumentScanner(arguments)
            while let argument = scanner.next() {
                switch argument {
                case "--model":
                    guard model == nil else { throw UsageError("--model given twice") }
                    model = try scanner.value(for: argument)
                case "--after":
                    guard after == nil else { throw UsageError("--after given twice") }
                    after = try token(try scanner.value(for: argument))
                case "--json":
                    guard !json else { throw UsageError("--json given twice") }
                    json = true
                default:
                    guard store == nil else { throw UsageError("unexpected argument '\(try ArgumentScanner.operand(argument))': one STORE only") }
                    store = try ArgumentScanner.operand(argument)
                }
            }
            guard store != nil else { throw UsageError("no store given") }
        } catch {
            return CommandFailure.report(error, usage: usage, write: write)
        }
        guard let store else { return CommandFailure.status }
        do {
            for line in try history(store: store, modelPath: model, after: after, json: json) { write(line + "\n") }
            return 0
        } catch {
            return CommandFailure.report(error, write: write)
        }
    }

    /// `--after`'s value: a transaction number, or a token as printed
    /// (STORE-UUID:NUMBER), whose store must then be the one read.
    static func token(_ value: String) throws(UsageError) -> (store: String?, number: Int64) {
        let parts = value.split(separator: ":", maxSplits: .max, omittingEmptySubsequences: false)
        let store = parts.count > 1 ? parts.dropLast().joined(separator: ":") : nil
        guard let last = parts.last, let number = Int64(last), number >= 0, store?.isEmpty != true else {
            throw UsageError("--after takes a transaction number or a token UUID:NUMBER, not '\(value)'")
        }
        return (store, number)
    }

    static func history(
        store path: String, modelPath: String?, after: (store: String?, number: Int64)?, json: Bool
    ) throws(InspectError) -> [String] {
        guard FileManager.default.fileExists(atPath: path) else { throw InspectError("no store at '\(path)'") }
        let url = URL(fileURLWithPath: path)
        let model: ManagedObjectModel
        if let modelPath {
            let bundle = try InspectModels.bundle(at: modelPath)
            guard let current = bundle.versions.count == 1 ? bundle.versions.first : bundle.current else {
                throw InspectError("model '\(modelPath)' has several versions and none is current")
            }
            model = current.model
        } else {
            do { model = try CompiledModelReader.model(fromModelCacheOf: url).model } catch {
                throw InspectError("the store has no readable model cache (\(error)); give its model with --model PATH")
            }
        }
        // Transformers the app registers are not here; history reads no values.
        _ = PlaceholderTransformer.registerMissing(in: model)
        let transactions: [PersistentHistoryTransaction]
        let coordinator: PersistentStoreCoordinator
        do {
            coordinator = try PersistentStoreCoordinator.openCoreDataStore(
                model: model.checked(), url: url, options: CoreDataStoreOptions(readOnly: true))
            // A token of another store is refused by the fetch, as in the API.
            let token = after.map { PersistentHistoryToken(storeUUID: $0.store ?? coordinator.storeUUID, transactionNumber: $0.number) }
            transactions = try coordinator.execute(.fetchHistory(after: token)).transactions
        } catch {
            throw InspectError("cannot read the history of '\(path)': \(error)")
        }
        let names = coordinator.model.entities.map(\.name)
        return transactions.map { json ? jsonLine($0, entityNames: names) : textLines($0, entityNames: names) }
    }

    private static func textLines(_ transaction: PersistentHistoryTransaction, entityNames: [String]) -> String {
        let who = [("author", transaction.author), ("context", transaction.contextName), ("bundle", transaction.bundleID),
                   ("process", transaction.processID)].compactMap { name, value in value.map { "\(name) \($0)" } }
        var lines = ["transaction \(transaction.transactionNumber) at \(timestamp(transaction.timestamp))"
            + (who.isEmpty ? "" : " (\(who.joined(separator: ", ")))")]
        for change in transaction.changes {
            var line = "  \(kind(change.changeType)) \(change.changedObjectID.uriRepresentation().absoluteString)"
            if let updated = change.updatedProperties { line += " " + updated.sorted().joined(separator: ", ") }
            if let tombstone = change.tombstone, !tombstone.isEmpty {
                line += " tombstone " + tombstone.sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }.joined(separator: ", ")
            }
            lines.append(line)
        }
        if transaction.unreadableChangeCount > 0 {
            lines.append("  \(transaction.unreadableChangeCount) change rows of entities or masks this model does not have")
        }
        return lines.joined(separator: "\n")
    }

    private static func jsonLine(_ transaction: PersistentHistoryTransaction, entityNames: [String]) -> String {
        var object: [String: Any] = [
            "transaction": transaction.transactionNumber,
            "token": transaction.token.description,
            "timestamp": timestamp(transaction.timestamp),
            "changes": transaction.changes.map { change -> [String: Any] in
                var entry: [String: Any] = [
                    "object": change.changedObjectID.uriRepresentation().absoluteString,
                    "entity": entityNames[change.changedObjectID.entityIndex],
                    "type": kind(change.changeType),
                ]
                if let updated = change.updatedProperties { entry["changed"] = updated.sorted() }
                if let tombstone = change.tombstone { entry["tombstone"] = tombstone.mapValues(jsonValue) }
                return entry
            },
        ]
        for (key, value) in [("author", transaction.author), ("contextName", transaction.contextName),
                             ("bundleID", transaction.bundleID), ("processID", transaction.processID)] {
            if let value { object[key] = value }
        }
        if transaction.unreadableChangeCount > 0 { object["unreadableChanges"] = transaction.unreadableChangeCount }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
              let line = String(data: data, encoding: .utf8) else { return "{}" }
        return line
    }

    private static func kind(_ type: PersistentHistoryChangeType) -> String {
        switch type {
        case .insert: "insert"
        case .update: "update"
        case .delete: "delete"
        }
    }

    /// A value, so one serves every line (a formatter object per date was one allocation each).
    private static let timestampStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func timestamp(_ date: Date) -> String { timestampStyle.format(date) }

    /// A tombstone value as JSON: dates in ISO 8601, data in base64, UUIDs and URIs as text.
    private static func jsonValue(_ value: AttributeValue) -> Any {
        switch value {
        case .null, .composite: NSNull()
        case .integer(let integer): integer
        case .double(let double): double
        case .bool(let bool): bool
        case .string(let string): string
        case .date(let date): timestamp(date)
        case .data(let data): data.base64EncodedString()
        case .uuid(let uuid): uuid.uuidString
        case .uri(let url): url.absoluteString
        case .decimal(let decimal): decimal.description
        }
    }

    private static func text(_ value: AttributeValue) -> String {
        switch jsonValue(value) {
        case let string as String: "\"\(string)\""
        case is NSNull: "nil"
        case let other: "\(other)"
        }
    }
}
