//! Agent sessions as srview sees them: every edit of a session run through
//! srview's applier against the file's content before it ([`review`]),
//! where that content comes from when the agent did not record it
//! ([`recover`]), and the sessions found on disk ([`find`]).

pub mod find;
pub mod load;
pub mod recover;
pub mod review;
pub mod udiff;
pub mod verdict;
