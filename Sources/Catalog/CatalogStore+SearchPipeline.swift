import TextSearch

extension CatalogStore {
    /// As-you-type search of products or phones: `SearchPipeline` over the `async`
    /// `searchPage(_:limit:offset:)`, so that a newer text cancels the search
    /// still running (its statement is interrupted) instead of waiting for it.
    ///
    /// ```swift
    /// for try await page in store.searchResults(for: searchBar.texts, in: ListRequest<Product>(scope: .portable)) {
    ///     show(page.records, total: page.totalCount)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - texts: the search field's successive texts.
    ///   - request: the scope and sort; its `searchText` is replaced by each text.
    ///   - limit: the page size.
    ///   - debounce: how long typing must pause before a text is searched.
    public func searchResults<Texts: AsyncSequence & Sendable, Entity: CatalogEntity>(
        for texts: Texts, in request: ListRequest<Entity>, limit: Int = 50,
        debounce: Duration = .milliseconds(200)
    ) -> AsyncThrowingStream<SearchPage<Entity>, any Error> where Texts.Element == String {
        SearchPipeline.results(for: texts, debounce: debounce, isSame: { $0.hasSameResults(as: $1) }) { query in
            var searched = request
            searched.searchQuery = query
            return try await self.searchPage(searched, limit: limit)
        }
    }
}
