// Every suite that imports TestSupport gets the seeded generator its random cases are made with.
@_exported import SeededRandom
