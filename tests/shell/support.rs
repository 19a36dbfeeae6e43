//! The parts of `tests/support/` the shell's tests use: the others run the
//! binary, which a unit test of the library cannot name.
#![allow(dead_code)]

#[path = "../support/agents.rs"]
pub mod agents;
#[path = "../support/big_session.rs"]
pub mod big_session;
#[path = "../support/corpus.rs"]
pub mod corpus;
#[path = "../support/diff.rs"]
pub mod diff;
#[path = "../support/files.rs"]
pub mod files;
#[path = "../support/rng.rs"]
pub mod rng;
#[path = "../support/text.rs"]
pub mod text;
