//! Files and edits of testers' finds that more than one test file runs.

/// Round 38a, finding 05: two JavaScript functions with the same body,
/// `parseA` and `parseB`.
pub const TWIN_PARSERS: &str = "function parseA(s) {\n  const parts = s.split(\",\");\n  return parts.map(Number);\n}\n\nfunction parseB(s) {\n  const parts = s.split(\",\");\n  return parts.map(Number);\n}\n";

/// An `apply_patch` patch of `path` (no final newline) whose one hunk,
/// under `@@ header`, changes the `return` line of [`TWIN_PARSERS`]'
/// body, which both functions hold.
pub fn twin_parsers_patch(path: &str, header: &str) -> String {
    format!(
        "*** Begin Patch\n*** Update File: {path}\n@@ {header}\n   const parts = s.split(\",\");\n-  return parts.map(Number);\n+  return parts.map(Number).filter(Boolean);\n*** End Patch"
    )
}
