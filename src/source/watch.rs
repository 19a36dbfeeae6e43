//! watch: not built yet.
