//! `conference export papers --out DIR`: every submitted paper as `DIR/<reference>.<ext>`
//! (e.g. `P-2025-7KQ4M9.pdf`), from `DATA_DIR/papers` (SQLite) or the database
//! (PostgreSQL, `repo::papers`), streamed, never a whole file in memory.

use std::path::Path;

use crate::db::{Engine, Pool};
use crate::repo::{papers, submissions};

/// Writes every paper into `out_dir` (created when missing) and returns how many. Each file
/// is written under a `.part` name and renamed when complete, so an interrupted export
/// leaves no truncated paper under its real name. Papers that cannot be found are listed in
/// the error after the others are written.
pub async fn write_all(pool: &Pool, data_dir: &Path, out_dir: &Path) -> Result<usize, Box<dyn std::error::Error>> {
    tokio::fs::create_dir_all(out_dir).await?;
    let engine = Engine::of_pool(pool);
    let mut written = 0;
    let mut missing = Vec::new();
    for submission in submissions::all(pool).await? {
        let stored = &submission.submitted.file_path;
        // The stored name is `papers/<reference>.<ext>`; only its extension is taken, so no
        // stored text chooses a folder.
        let extension = stored.rsplit_once('.').map(|(_, ext)| ext).unwrap_or("bin");
        let name = format!("{}.{extension}", submission.submitted.reference);
        let part = out_dir.join(format!("{name}.part"));
        let found = match engine {
            Engine::Sqlite => match tokio::fs::copy(data_dir.join(stored), &part).await {
                Ok(_) => true,
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => false,
                Err(err) => return Err(err.into()),
            },
            Engine::Postgres => {
                let mut file = tokio::fs::File::create(&part).await?;
                let copied = papers::copy_to(pool, submission.id, &mut file).await?;
                file.sync_all().await?;
                copied.is_some()
            }
        };
        if found {
            tokio::fs::rename(&part, out_dir.join(&name)).await?;
            written += 1;
        } else {
            let _ = tokio::fs::remove_file(&part).await;
            missing.push(submission.submitted.reference.clone());
        }
    }
    if missing.is_empty() {
        Ok(written)
    } else {
        Err(format!("{written} papers written; not found: {}", missing.join(", ")).into())
    }
}
