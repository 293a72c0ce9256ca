extension StageCatalog {
    /// The stages the library provides, by spec name. Adapters for each stage kind live next to
    /// the stage's own code; this list only collects them.
    public static var standard: StageCatalog {
        StageCatalog(filterEntries + fusionEntries + orientationEntries + gameEntries + calibrationEntries)
    }
}
