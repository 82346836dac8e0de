-- Sections of phones listed by name are the first character of the folded name
-- (`substr(name_folded, 1, 1)`, see Catalog's FoldedInitial): index that expression, so that section
-- counts and pages of a section read the index in order instead of sorting the table.
CREATE INDEX phones_by_initial ON phones(substr(name_folded, 1, 1), name_folded, id);

-- Products listed by type count their sections with `GROUP BY type`, a scan of one index entry per
-- product: this narrow index makes it the smallest to read (products_by_type_name is three times wider).
CREATE INDEX products_by_type ON products(type);
