//! replay: not built yet.
