//! source: see lib.rs for the data flow.
