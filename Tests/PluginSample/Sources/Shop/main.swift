import Faultline
import Foundation

// What a Core Data developer writes once the plugin has generated Customer,
// Order and ShopModel from Shop.xcdatamodeld: open a container on the model,
// register the classes (checked against the model, rules included), save and
// fetch with a typed predicate. Exits 1 when anything disagrees.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("PluginSample: \(message)\n".utf8))
    exit(1)
}

do {
    guard let url = Bundle.module.url(forResource: "Shop", withExtension: "xcdatamodeld") else { fail("no Shop.xcdatamodeld in the bundle") }
    guard let model = try ModelBundle.read(at: url).current?.model else { fail("Shop.xcdatamodeld has no current version") }
    let container = try PersistentContainer(model: model, location: .inMemory)
    try ShopModel.register(in: container, validate: true)
    let writer = container.newBackgroundContext()
    try writer.performAndWait {
        let ada = try writer.insertObject(Customer.self)
        ada[Customer.name] = "Ada"
        let bob = try writer.insertObject(Customer.self)
        bob[Customer.name] = "Bob"
        for (number, total, customer) in [(1, 9.5, ada), (2, 3.0, ada), (3, 12.0, bob)] {
            let order = try writer.insertObject(Order.self)
            order[Order.number] = Int64(number)
            order[Order.total] = total
            order[Order.customer] = customer
        }
        try writer.save()
    }
    let reader = container.newBackgroundContext()
    let numbers = try reader.performAndWait {
        var request = Order.fetchRequest()
        request.predicate = Order.total > 5.0 && Order.customer.name.beginsWith("A")
        return try reader.fetch(request).compactMap { ($0 as? Order)?[Order.number] }
    }
    guard numbers == [1] else { fail("expected order 1, fetched \(numbers)") }
    print("PluginSample: classes generated from Shop.xcdatamodeld registered in step with the model; saved 5 objects, fetched order 1")
} catch {
    fail("\(error)")
}
