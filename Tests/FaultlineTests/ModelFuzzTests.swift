import Foundation
import Testing
@testable import Faultline

@Suite("Fuzz: thousands of random models never crash and planted defects are always reported")
struct ModelFuzzTests {
    @Test("random broken models: checked() returns, every planted defect is reported")
    func randomModels() {
        var generator = ChaosModelGenerator(rng: SeededGenerator(seed: 0xFA17_11E5))
        let outsider = EntityDescription()
        outsider.name = "FuzzOutsider"
        let defects = InsertedDefect.all(outsider: outsider)
        var missed: [String] = []
        var checkedClean = 0
        for round in 0..<3_000 {
            let model = generator.makeModel()
            let defect = defects[round % defects.count]
            let target = model.entities[Int(generator.rng.next() % UInt64(model.entities.count))]
            defect.insert(model, target)
            let found = issues(of: model)
            if found.isEmpty { checkedClean += 1 }
            if !found.contains(where: { defect.expected($0.kind) }) {
                missed.append("round \(round): \(defect.label)")
            }
            #expect(found.allSatisfy { !$0.description.isEmpty })
            // Hashing never traps either, even on broken models.
            #expect(model.versionHash.count == 32)
        }
        let missedCount = missed.count
        #expect(missedCount == 0, "first misses: \(missed.prefix(5))")
        #expect(checkedClean == 0)
        withExtendedLifetime(outsider) {}
    }

    @Test("random broken models without planted defects: checking never traps")
    func unplantedChaos() {
        var generator = ChaosModelGenerator(rng: SeededGenerator(seed: 42))
        var outcomes = (clean: 0, broken: 0)
        for _ in 0..<2_000 {
            let model = generator.makeModel()
            do {
                let checked = try model.checked()
                outcomes.clean += 1
                #expect(checked.entities.map(\.number) == Array(1...checked.entities.count))
            } catch {
                outcomes.broken += 1
                #expect(!error.issues.isEmpty)
            }
        }
        #expect(outcomes.clean + outcomes.broken == 2_000)
        #expect(outcomes.broken > 0)
    }
}

@Suite("Random valid models check clean, resolve consistently, and ignore declaration order")
struct RandomValidModelTests {
    @Test("500 random valid models: clean check, consistent indexes, order-independent snapshot and hash")
    func validModels() throws {
        for seed in UInt64(0)..<500 {
            let model = ValidModelGenerator.make(seed: seed)
            let found = issues(of: model)
            #expect(found.isEmpty, "seed \(seed): \(found.prefix(3))")
            guard found.isEmpty else { continue }
            let checked = try model.checked()
            verifyConsistency(checked, seed: seed)
            let shuffled = ValidModelGenerator.make(seed: seed, shuffleSeed: seed &+ 1)
            #expect(try shuffled.checked() == checked, "seed \(seed)")
            #expect(shuffled.versionHash == model.versionHash)
        }
    }

    private func verifyConsistency(_ model: CheckedModel, seed: UInt64) {
        for entity in model.entities {
            #expect(entity.number == entity.index + 1)
            if let parent = entity.superentityIndex {
                #expect(parent < entity.index, "parents are numbered before children (seed \(seed))")
                let inherited = model.entities[parent]
                #expect(Array(entity.attributes.prefix(inherited.attributes.count)) == inherited.attributes)
                #expect(Array(entity.relationships.prefix(inherited.relationships.count)) == inherited.relationships)
            }
            for relationship in entity.relationships {
                let destination = model.entities[relationship.destinationEntityIndex]
                guard let inverseIndex = relationship.inverseIndex else { continue }
                let inverse = destination.relationships[inverseIndex]
                #expect(inverse.destinationEntityIndex == relationship.declaringEntityIndex)
                #expect(inverse.inverseIsToMany == relationship.isToMany)
            }
            for (name, reference) in entity.propertyByName {
                switch reference {
                case .attribute(let index): #expect(entity.attributes[index].name == name)
                case .relationship(let index): #expect(entity.relationships[index].name == name)
                case .composite(let index): #expect(entity.composites[index].name == name)
                }
            }
        }
    }
}
