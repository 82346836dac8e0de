import CatalogCLI

await CatalogCommand.runMain()
