//! Incremental streaming session: not built yet.
