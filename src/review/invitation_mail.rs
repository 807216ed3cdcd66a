//! The mail that invites a reviewer (issue 32 item 1): who invites (the conference), the
//! topics, and the invitation's private link twice, each with the answer the page puts
//! first (`?answer=accept`, `?answer=decline`), and where to sign in once accepted.
//!
//! Queued in the transaction that stores the invitation, under the key
//! `reviewer-invitation:<reviewer id>:<first 16 hex digits of the token's hash>`, so one
//! invitation token is mailed once however the transaction is retried.

use askama::Template;
use serde_json::json;

use super::roster::Invitee;
use crate::base::secrets::Secret;
use crate::db::Connection;
use crate::error::AppError;
use crate::mail::{self, Context, MailSite};

/// Where the invitation's links lead, absolute (`PUBLIC_URL/...`): the handlers own the
/// paths, the mail only appends the token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Links {
    /// The invitation page without its token, ending in `/`
    /// (`https://example.org/review/invitation/`).
    pub invitation: String,
    /// Where an accepted reviewer signs in (`https://example.org/review`).
    pub sign_in: String,
}

#[derive(Template)]
#[template(path = "mail/reviewer_invitation.txt")]
struct InvitationText<'a> {
    site: &'a MailSite,
    name: &'a str,
    email: &'a str,
    topics: &'a [String],
    accept: &'a str,
    decline: &'a str,
    sign_in: &'a str,
}

#[derive(Template)]
#[template(path = "mail/reviewer_invitation.html")]
struct InvitationHtml<'a> {
    site: &'a MailSite,
    name: &'a str,
    email: &'a str,
    topics: &'a [String],
    accept: &'a str,
    decline: &'a str,
    sign_in: &'a str,
}

/// The invitation mail to `invitee`, whose link carries `token`.
fn compose(ctx: &Context, links: &Links, invitee: &Invitee, token: &str) -> Result<mail::OutgoingMail, AppError> {
    let link = format!("{}{token}", links.invitation);
    let (accept, decline) = (format!("{link}?answer=accept"), format!("{link}?answer=decline"));
    let sign_in = links.sign_in.as_str();
    let (site, name, email, topics) = (&ctx.site, invitee.name.as_str(), invitee.email.as_str(), &invitee.topics[..]);
    let text = InvitationText { site, name, email, topics, accept: &accept, decline: &decline, sign_in };
    let html = InvitationHtml { site, name, email, topics, accept: &accept, decline: &decline, sign_in };
    mail::compose(email, ctx.subject("Invitation to review"), &text, &html)
        .map_err(|e| AppError::internal("reviewer invitation mail", e))
}

/// Queues the invitation mail of a fresh `secret` for reviewer `id` on `conn` (the caller's
/// transaction); the audit log's description of it: `{to, subject, queued}`.
pub async fn queue(
    conn: &mut Connection,
    ctx: &Context,
    links: &Links,
    id: i64,
    invitee: &Invitee,
    secret: &Secret,
) -> Result<serde_json::Value, AppError> {
    let mail = compose(ctx, links, invitee, &secret.token)?
        // One mail per invitation token, whoever retries the transaction.
        .dedupe_key(format!("reviewer-invitation:{id}:{}", &secret.hash[..16]));
    let queued = mail::enqueue(conn, &mail).await?;
    Ok(json!({ "to": mail.to, "subject": mail.subject, "queued": queued }))
}
