import CatalogCLI

CatalogCommand.runMain()
