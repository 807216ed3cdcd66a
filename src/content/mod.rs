//! Content in memory (DESIGN.md section 10): the immutable [`Snapshot`] every page renders
//! from, the [`Content`] store that swaps it atomically, and the watcher that reloads it when
//! `conference seed` bumps the content version, from this process or any other.

pub mod block;
pub mod collections;
pub mod snapshot;
pub mod store;

pub use snapshot::Snapshot;
pub use store::Content;
