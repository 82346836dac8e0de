import TextSearch

extension CatalogStore {
    /// As-you-type search of products or phones: `SearchPipeline` over the `async`
    /// ``searchPage(_:_:limit:offset:)-4gpgd``, so that a newer text cancels the search
    /// still running (its statement is interrupted) instead of waiting for it.
    ///
    /// ```swift
    /// for try await page in store.searchResults(for: searchBar.texts, Product.self, in: ListRequest(scope: .portable)) {
    ///     show(page.records, total: page.totalCount)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - texts: the search field's successive texts.
    ///   - type: the record type searched, which must be `request.entity`'s.
    ///   - request: the scope and sort; its `searchText` is replaced by each text.
    ///   - limit: the page size.
    ///   - debounce: how long typing must pause before a text is searched.
    public func searchResults<Texts: AsyncSequence & Sendable, Record: CatalogRecord>(
        for texts: Texts, _ type: Record.Type, in request: ListRequest, limit: Int = 50,
        debounce: Duration = .milliseconds(200)
    ) -> AsyncThrowingStream<SearchPage<Record>, any Error> where Texts.Element == String {
        SearchPipeline.results(for: texts, debounce: debounce, isSame: { $0.hasSameResults(as: $1) }) { query in
            var searched = request
            searched.searchText = query.text
            return try await self.searchPage(Record.self, searched, limit: limit)
        }
    }
}
