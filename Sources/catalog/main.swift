import CatalogCLI

CatalogCommand.main()
