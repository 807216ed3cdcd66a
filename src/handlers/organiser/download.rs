//! What organisers download: the CSV of a filtered list and a paper. Both are streamed (a
//! few rows or 64 KiB at a time, never the whole answer in memory), and both are recorded in
//! the audit log before the first byte goes out. A paper goes out as it is stored, with its
//! length (and byte ranges from a file); only the CSV is compressed (`crate::http::compressible`).

use axum::body::Body;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use futures_util::stream::{BoxStream, StreamExt, TryStreamExt};
use tokio::io::{AsyncRead, AsyncReadExt};
use tower::ServiceExt;

use super::session::Organiser;
use crate::clock::stamp::timestamp;
use crate::db::Pool;
use crate::error::AppError;
use crate::export::SafeWriter;
use crate::handlers::state::AppState;
use crate::repo::audit::{self, NewEntry};

/// Rows written before a chunk of CSV is handed to the connection.
const ROWS_PER_CHUNK: usize = 200;
/// Bytes of a paper read at a time.
const FILE_CHUNK_BYTES: usize = 64 * 1024;

/// Records `entry` in its own transaction.
pub async fn record(state: &AppState, entry: &NewEntry<'_>) -> Result<(), AppError> {
    let mut tx = crate::db::begin_write(&state.pool).await?;
    audit::record(&mut tx, entry).await?;
    tx.commit().await?;
    Ok(())
}

/// How one list is written as CSV: its name (the file is `<list>.csv`), the header of
/// `conference export` and the row writer of the same module.
pub struct CsvList<F, T> {
    pub list: &'static str,
    pub header: &'static [&'static str],
    pub rows: for<'a> fn(&'a Pool, &F) -> BoxStream<'a, Result<T, sqlx::Error>>,
    pub write: fn(&mut SafeWriter<Vec<u8>>, T) -> csv::Result<()>,
}

// By hand: a derive would ask `F: Copy, T: Copy`, though only references and fn pointers are held.
impl<F, T> Clone for CsvList<F, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F, T> Copy for CsvList<F, T> {}

/// The CSV of `filter`'s rows, as an attachment; audited as `export.csv` with `details`
/// (the filters).
pub async fn csv<F, T>(
    state: &AppState,
    organiser: &Organiser,
    list: CsvList<F, T>,
    filter: F,
    details: serde_json::Value,
) -> Result<Response, AppError>
where
    F: Send + Sync + 'static,
    T: Send + 'static,
{
    let at = timestamp(state.clock.now());
    let entry = NewEntry {
        details: serde_json::json!({ "filter": details }),
        ..organiser.entry(&at, "export.csv").about("list", list.list)
    };
    record(state, &entry).await?;

    let (sender, receiver) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(4);
    let pool = state.pool.clone();
    tokio::spawn(async move {
        let new_writer = || SafeWriter(csv::Writer::from_writer(Vec::new()));
        let chunk = |out: SafeWriter<Vec<u8>>| out.0.into_inner().map_err(|e| std::io::Error::other(e.to_string()));
        let mut out = new_writer();
        let mut written = 0;
        let mut rows = (list.rows)(&pool, &filter);
        let result: Result<(), std::io::Error> = async {
            out.write_record(list.header).map_err(std::io::Error::other)?;
            while let Some(row) = rows.try_next().await.map_err(std::io::Error::other)? {
                (list.write)(&mut out, row).map_err(std::io::Error::other)?;
                written += 1;
                if written % ROWS_PER_CHUNK == 0 {
                    let full = std::mem::replace(&mut out, new_writer());
                    if sender.send(Ok(chunk(full)?)).await.is_err() {
                        return Ok(()); // the client went away
                    }
                }
            }
            let _ = sender.send(Ok(chunk(out)?)).await;
            Ok(())
        }
        .await;
        if let Err(err) = result {
            tracing::error!(error = %err, list = list.list, "CSV download failed");
            // The body ends in an error: the client sees a broken download, not a short file.
            let _ = sender.send(Err(err)).await;
        }
    });
    // `poll_recv` keeps answering `None` once the channel has ended (a stream that may be
    // polled after its end; `crate::http::body_guard` guards every body anyway).
    let mut receiver = receiver;
    let body = Body::from_stream(futures_util::stream::poll_fn(move |cx| receiver.poll_recv(cx)));
    Ok(attachment(body, "text/csv; charset=utf-8", &format!("{}.csv", list.list)))
}

/// `reader`'s bytes as a body, [`FILE_CHUNK_BYTES`] at a time.
pub fn body_of(reader: impl AsyncRead + Send + Unpin + 'static) -> Body {
    let chunks = futures_util::stream::unfold(Some(reader), |reader| async move {
        let mut reader = reader?;
        let mut buffer = vec![0u8; FILE_CHUNK_BYTES];
        match reader.read(&mut buffer).await {
            Ok(0) => None,
            Ok(n) => {
                buffer.truncate(n);
                Some((Ok(buffer), Some(reader)))
            }
            Err(err) => Some((Err(err), None)),
        }
    });
    // Fused: polled after its end it answers `None` again instead of panicking.
    Body::from_stream(chunks.fuse())
}

/// The file at `path` as tower-http's `ServeFile` answers it for `headers` (the request's):
/// `Content-Length`, `Last-Modified`, `Accept-Ranges: bytes` and single byte ranges (206,
/// 416; RFC 9110 section 14), conditional GETs (304). The caller sets the type and the name.
/// `Ok(None)` when there is no such file.
pub async fn stored_file(path: &std::path::Path, headers: &HeaderMap) -> Result<Option<Response>, AppError> {
    match tokio::fs::metadata(path).await {
        Ok(meta) if meta.is_file() => {}
        Ok(_) => return Ok(None),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(AppError::internal("paper file", err)),
    }
    let mut request = axum::http::Request::new(Body::empty());
    *request.headers_mut() = headers.clone();
    let served = tower_http::services::ServeFile::new(path)
        .oneshot(request)
        .await
        .map_err(|err| AppError::internal("paper file", err))?;
    if served.status() == StatusCode::NOT_FOUND {
        return Ok(None); // removed in between
    }
    Ok(Some(served.map(Body::new)))
}

/// The extension of a stored paper's path (`papers/P-2025-7KQ4M9.pdf` → `pdf`); only it is
/// taken from the stored path, so no stored text names a folder or reaches a header. `bin`
/// when the path has none of at most 8 letters and digits.
pub fn stored_extension(file_path: &str) -> &str {
    file_path
        .rsplit_once('.')
        .map(|(_, ext)| ext)
        .filter(|ext| !ext.is_empty() && ext.len() <= 8 && ext.bytes().all(|b| b.is_ascii_alphanumeric()))
        .unwrap_or("bin")
}

/// The paper of submission `submission_id`, stored as `file_path`, as it was stored (never
/// compressed again) with its `Content-Length`: from `DATA_DIR` on SQLite (byte ranges and
/// conditional GETs too, [`stored_file`]) or from its chunks in the database on PostgreSQL.
/// The caller names the download ([`name_attachment`]) and audits it. `Ok(None)` when there
/// is no such paper.
pub async fn paper(
    state: &AppState,
    submission_id: i64,
    file_path: &str,
    headers: &HeaderMap,
) -> Result<Option<Response>, AppError> {
    Ok(match crate::db::Engine::of_pool(&state.pool) {
        crate::db::Engine::Sqlite => {
            if file_path.split(['/', '\\']).any(|part| part == "..") || std::path::Path::new(file_path).is_absolute() {
                return Ok(None);
            }
            stored_file(&state.config.data_dir.join(file_path), headers).await?
        }
        crate::db::Engine::Postgres => {
            let Some(length) = crate::repo::papers::size(&state.pool, submission_id).await? else { return Ok(None) };
            let (reader, mut writer) = tokio::io::duplex(64 * 1024);
            let pool = state.pool.clone();
            tokio::spawn(async move {
                if let Err(err) = crate::repo::papers::copy_to(&pool, submission_id, &mut writer).await {
                    tracing::error!(error = %err, "paper download failed");
                }
            });
            let mut response = Response::new(body_of(reader));
            // A paper cut short by an error then ends before its length: a broken download.
            response.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from(length));
            Some(response)
        }
    })
}

/// A download: `Content-Disposition: attachment` under `filename` (made of this server's
/// own safe characters), never sniffed into something a browser would run.
pub fn attachment(body: Body, content_type: &str, filename: &str) -> Response {
    let mut response = Response::new(body);
    *response.status_mut() = StatusCode::OK;
    name_attachment(&mut response, content_type, filename);
    response
}

/// Makes `response` a download: its type, `Content-Disposition: attachment` under `filename`
/// and `nosniff` (see [`attachment`]).
pub fn name_attachment(response: &mut Response, content_type: &str, filename: &str) {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_str(content_type).unwrap_or(HeaderValue::from_static("application/octet-stream")),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{filename}\""))
            .unwrap_or(HeaderValue::from_static("attachment")),
    );
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
}
