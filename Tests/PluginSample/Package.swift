// swift-tools-version:6.0
import Foundation
import PackageDescription

// A package whose only model artifact is Shop.xcdatamodeld: Faultline's
// build-tool plugin generates its typed classes at build time.
// `./tasks.sh plugin` builds and runs it (CI does).
//
// The Faultline checkout is two folders up; SwiftPM names a path dependency
// after its folder, which differs between clones, so the name is read here.
let faultline = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "PluginSample",
    dependencies: [.package(path: faultline.path)],
    targets: [
        .executableTarget(
            name: "Shop",
            dependencies: [.product(name: "Faultline", package: faultline.lastPathComponent)],
            resources: [.copy("Shop.xcdatamodeld")],
            plugins: [.plugin(name: "FaultlineModelPlugin", package: faultline.lastPathComponent)]
        ),
    ]
)
