//! What the test files share, one job a module: running the binary, building
//! diffs, random inputs, the naive reference matcher, a pseudo-terminal
//! session and the reference corpus. Each test file takes it with
//! `mod support;`; a file uses only part of it, hence `dead_code` allowed.
//! `oracle.rs` is also compiled into the fuzz crate, `pty.rs` into the
//! previewer bench, `big_session.rs` and `measure.rs` into the sessions bench
//! (`#[path]`),
//! so none names its siblings.
#![allow(dead_code)]

pub mod agents;
pub mod big_session;
pub mod corpus;
pub mod diff;
pub mod files;
pub mod finds;
pub mod measure;
pub mod oracle;
pub mod pty;
pub mod rng;
pub mod runner;
pub mod samples;
pub mod text;
