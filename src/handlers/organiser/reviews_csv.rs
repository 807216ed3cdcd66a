//! `GET /organiser/reviews.csv` (issue 32 item 9, DESIGN.md section 15): every submitted
//! review, one row each, with the columns of `conference export reviews`
//! (`crate::export::reviews`: a column per criterion, so the header is known only once the
//! reviews are read). Streamed like the lists' CSVs (`super::download`), recorded in the audit
//! log before the first byte, 404 without an organiser's session.

use axum::body::Body;
use axum::extract::State;
use axum::response::Response;
use futures_util::TryStreamExt;

use super::download::{self, attachment};
use super::session::SignedInForFile;
use crate::clock::stamp::timestamp;
use crate::error::AppError;
use crate::export::{SafeWriter, reviews};
use crate::handlers::state::AppState;
use crate::repo::audit::NewEntry;
use crate::repo::review_records;

/// The address.
pub const PATH: &str = "/organiser/reviews.csv";
/// Rows written before a chunk is handed to the connection.
const ROWS_PER_CHUNK: usize = 200;

/// GET `/organiser/reviews.csv`: an attachment `reviews.csv`, audited as `export.csv` of the
/// list `reviews`.
pub async fn csv(
    State(state): State<AppState>,
    SignedInForFile(organiser): SignedInForFile,
) -> Result<Response, AppError> {
    let at = timestamp(state.clock.now());
    let entry = NewEntry {
        details: serde_json::json!({ "filter": {} }),
        ..organiser.entry(&at, "export.csv").about("list", "reviews")
    };
    download::record(&state, &entry).await?;
    let keys = reviews::criteria(&state.pool).await?;

    let (sender, receiver) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(4);
    let pool = state.pool.clone();
    tokio::spawn(async move {
        let new_writer = || SafeWriter(::csv::Writer::from_writer(Vec::new()));
        let chunk = |out: SafeWriter<Vec<u8>>| out.0.into_inner().map_err(|e| std::io::Error::other(e.to_string()));
        let mut out = new_writer();
        let mut rows = review_records::records(&pool);
        let mut written = 0;
        let result: Result<(), std::io::Error> = async {
            out.write_record(reviews::header(&keys)).map_err(std::io::Error::other)?;
            while let Some(record) = rows.try_next().await.map_err(std::io::Error::other)? {
                out.write_record(reviews::row(&record, &keys)).map_err(std::io::Error::other)?;
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
            tracing::error!(error = %err, "reviews CSV download failed");
            // A broken download, not a short file that looks whole.
            let _ = sender.send(Err(err)).await;
        }
    });
    let mut receiver = receiver;
    let body = Body::from_stream(futures_util::stream::poll_fn(move |cx| receiver.poll_recv(cx)));
    Ok(attachment(body, "text/csv; charset=utf-8", "reviews.csv"))
}
