//! Ending sessions (DESIGN.md section 12; OWASP's Session Management cheat sheet): signing
//! out of this browser, or of every browser at once, in any role. Starting one is
//! [`super::links::sign_in`]; the SQL is `crate::repo::organisers`.

use time::OffsetDateTime;

use crate::clock::stamp::timestamp;
use crate::db::Pool;
use crate::error::Outcome;
use crate::repo::audit::{self, Actor};
use crate::repo::organisers as store;

/// What [`sign_out`] did: the session is gone (a second click finds nothing, and answers the
/// same).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignedOut;

/// What [`sign_out_everywhere`] did: `sessions` ended, this one included, in every role.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SignedOutEverywhere {
    pub sessions: u64,
}

/// Ends the session of row `session`, held by `actor`, at `now`; audited as
/// `auth.signed_out`. Refuses nothing: an ended session stays ended.
pub async fn sign_out(pool: &Pool, now: OffsetDateTime, actor: &Actor, session: i64) -> Outcome<SignedOut> {
    let stamp = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    store::delete_session(&mut tx, session).await?;
    audit::record(&mut tx, &actor.entry(&stamp, "auth.signed_out")).await?;
    tx.commit().await?;
    Ok(SignedOut)
}

/// Ends every session of `actor`'s address, on every device and in every role, at `now`;
/// audited as `auth.signed_out_everywhere` with how many ended.
pub async fn sign_out_everywhere(pool: &Pool, now: OffsetDateTime, actor: &Actor) -> Outcome<SignedOutEverywhere> {
    let stamp = timestamp(now);
    let mut tx = crate::db::begin_write(pool).await?;
    let sessions = store::delete_sessions_of(&mut tx, &actor.email).await?;
    let mut entry = actor.entry(&stamp, "auth.signed_out_everywhere");
    entry.details = serde_json::json!({ "sessions": sessions });
    audit::record(&mut tx, &entry).await?;
    tx.commit().await?;
    Ok(SignedOutEverywhere { sessions })
}
