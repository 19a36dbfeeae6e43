//! transcript: not built yet.
