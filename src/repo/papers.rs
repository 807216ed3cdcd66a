//! Paper files kept in the database (PostgreSQL; `paper_chunks`,
//! migrations/postgres/0008_paper_chunks.sql), so every instance reaches every paper.
//!
//! A paper goes in and comes out [`CHUNK_BYTES`] at a time: a 20 MiB upload costs one chunk
//! of memory per request, not 20 MiB. SQLite keeps papers as files under `DATA_DIR/papers`
//! (one machine) and has no such table; [`crate::export::papers`] reads either.

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use crate::db::{Connection, Pool};

/// Size of one stored chunk: 256 KiB, small enough to hold per request, large enough that a
/// 20 MiB paper is 80 rows.
pub const CHUNK_BYTES: usize = 256 * 1024;

/// Copies `file` into `paper_chunks` for submission `submission_id`, on `conn` (the
/// transaction that writes the submission's row, so both are stored or neither). Returns
/// the bytes stored.
pub async fn store(
    conn: &mut Connection,
    submission_id: i64,
    file: &mut (impl AsyncRead + Unpin),
) -> Result<u64, sqlx::Error> {
    let mut total = 0u64;
    let mut buffer = vec![0u8; CHUNK_BYTES];
    for seq in 0i64.. {
        // Fill the chunk fully (reads may return less), so chunk sizes do not depend on the OS.
        let mut filled = 0;
        while filled < CHUNK_BYTES {
            let n = file.read(&mut buffer[filled..]).await?;
            if n == 0 {
                break;
            }
            filled += n;
        }
        if filled == 0 && seq > 0 {
            break;
        }
        sqlx::query("INSERT INTO paper_chunks (submission_id, seq, data) VALUES ($1, $2, $3)")
            .bind(submission_id)
            .bind(seq)
            .bind(&buffer[..filled])
            .execute(&mut *conn)
            .await?;
        total += filled as u64;
        if filled < CHUNK_BYTES {
            break;
        }
    }
    Ok(total)
}

/// Writes the paper of submission `submission_id` to `out`, one chunk in memory at a time.
/// Returns the bytes written; `Ok(None)` when the database holds no chunk for it.
pub async fn copy_to(
    pool: &Pool,
    submission_id: i64,
    out: &mut (impl AsyncWrite + Unpin),
) -> Result<Option<u64>, sqlx::Error> {
    let mut total = 0u64;
    for seq in 0i64.. {
        let chunk: Option<(Vec<u8>,)> =
            sqlx::query_as("SELECT data FROM paper_chunks WHERE submission_id = $1 AND seq = $2")
                .bind(submission_id)
                .bind(seq)
                .fetch_optional(pool)
                .await?;
        let Some((data,)) = chunk else {
            return Ok((seq > 0).then_some(total));
        };
        out.write_all(&data).await?;
        total += data.len() as u64;
    }
    unreachable!("the loop returns when the chunks end")
}

/// The length in bytes of the paper of submission `submission_id`; `None` when the database
/// holds no chunk for it. `octet_length` reads each chunk's stored size, not its bytes.
pub async fn size(pool: &Pool, submission_id: i64) -> Result<Option<u64>, sqlx::Error> {
    let (chunks, bytes): (i64, Option<i64>) = sqlx::query_as(
        "SELECT COUNT(*), CAST(SUM(octet_length(data)) AS BIGINT) FROM paper_chunks WHERE submission_id = $1",
    )
    .bind(submission_id)
    .fetch_one(pool)
    .await?;
    Ok((chunks > 0).then(|| bytes.unwrap_or(0).max(0) as u64))
}

/// The whole paper stored under `file_path` (the submission's `file_path`, e.g.
/// `papers/P-2025-7KQ4M9.pdf`), for a mail attachment, which lettre builds in memory anyway.
/// `None` when no submission has that path or its paper has no chunks.
pub async fn read(pool: &Pool, file_path: &str) -> Result<Option<Vec<u8>>, sqlx::Error> {
    let id: Option<(i64,)> =
        sqlx::query_as("SELECT id FROM submissions WHERE file_path = $1").bind(file_path).fetch_optional(pool).await?;
    let Some((id,)) = id else { return Ok(None) };
    let mut bytes = Vec::new();
    Ok(copy_to(pool, id, &mut bytes).await?.map(|_| bytes))
}
