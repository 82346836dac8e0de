import Foundation
import PackagePlugin

/// Runs `embed-files` before compiling a target, turning the package's top-level `Migrations/*.sql`
/// and `Seeds/*.json` into Swift string literals (`EmbeddedFiles.swift` in the plugin's work folder).
///
/// Every file is declared as an input, so editing or adding one rebuilds the target.
@main
struct EmbedFilesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let tool = try context.tool(named: "embed-files")
        let root = context.package.directoryURL
        let folders = [("migrations", "Migrations", "sql"), ("seeds", "Seeds", "json")]
        var arguments: [String] = []
        var inputs: [URL] = []
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        arguments.append(output.path)
        for (property, folder, fileExtension) in folders {
            let directory = root.appending(path: folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            let files = names.filter { $0.hasSuffix("." + fileExtension) }.sorted()
                .map { directory.appending(path: $0) }
            inputs.append(contentsOf: files)
            arguments.append("--group")
            arguments.append(property)
            arguments.append(contentsOf: files.map(\.path))
        }
        return [
            .buildCommand(
                displayName: "Embedding Migrations/ and Seeds/ into \(target.name)",
                executable: tool.url,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
