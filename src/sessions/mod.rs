//! Agent sessions as srview sees them: every edit of a session run through
//! srview's applier against the file's content before it ([`review`]),
//! where that content comes from when the agent did not record it
//! ([`recover`]), the sessions found on disk ([`find`]) and the counts a
//! listing shows of each, read in one pass ([`count`]).

pub mod browse;
pub mod count;
pub mod find;
pub mod live;
pub mod load;
pub mod recover;
pub mod review;
pub mod streamed;
pub mod verdict;
