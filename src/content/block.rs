//! Blocks of content whose query may fail: a page still renders, with the spec's error text
//! in place of the block (DESIGN.md section 4).

/// A block whose query may fail: the page still renders with the spec's error text there
/// (DESIGN.md section 4).
pub type Block<T> = Result<T, BlockError>;

/// A failed block; the error is logged when the block is loaded.
#[derive(Debug, Clone, Copy)]
pub struct BlockError;

/// Turns a query result into a [`Block`], logging the failure with the block's name
/// (the snapshot loader calls it once per block and load).
pub fn block<T>(name: &'static str, result: Result<T, sqlx::Error>) -> Block<T> {
    result.map_err(|err| {
        tracing::error!(block = name, error = %err, "content block failed to load");
        BlockError
    })
}
