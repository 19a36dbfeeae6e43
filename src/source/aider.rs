//! aider: not built yet.
