//! Contact messages (`messages`, migrations/0003_visitors.sql): written by POST `/api/contact`,
//! read by `conference export messages`.

use serde::Serialize;
use sqlx::FromRow;
use time::OffsetDateTime;
use time::macros::format_description;

use crate::db::{Connection, Pool};

/// Characters of generated record ids (lowercase alphanumerics, like the content ids).
const ID_ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
/// Length of generated record ids: 36^15 ≈ 2^77 values, so collisions are not a concern.
const ID_LEN: usize = 15;

/// A fresh random record id for visitors' rows (messages, subscribers).
pub fn record_id() -> String {
    (0..ID_LEN).map(|_| char::from(ID_ALPHABET[rand::random_range(0..ID_ALPHABET.len())])).collect()
}

/// Now as stored in `created` columns: RFC 3339 UTC with microseconds, fixed width
/// (`2025-03-01T09:30:00.123456Z`), so rows sort by it in the order they arrived.
pub fn created_now() -> String {
    OffsetDateTime::now_utc()
        .format(format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]Z"))
        .expect("a UTC date-time formats")
}

/// spec section 3, Contact message; the fields of a validated POST `/api/contact`.
#[derive(Debug, Clone)]
pub struct NewMessage {
    pub name: String,
    pub number: String,
    pub email: String,
    pub country: String,
    pub message: String,
}

/// A stored contact message.
#[derive(Debug, Clone, FromRow, Serialize)]
pub struct Message {
    pub id: String,
    pub name: String,
    pub number: String,
    pub email: String,
    pub country: String,
    pub message: String,
    pub created: String,
}

/// Stores a message on `conn` (the caller's transaction, which also queues the organisers'
/// notice) and returns it with its id and time.
pub async fn insert(conn: &mut Connection, new: &NewMessage) -> Result<Message, sqlx::Error> {
    let message = Message {
        id: record_id(),
        name: new.name.clone(),
        number: new.number.clone(),
        email: new.email.clone(),
        country: new.country.clone(),
        message: new.message.clone(),
        created: created_now(),
    };
    sqlx::query(
        "INSERT INTO messages (id, name, number, email, country, message, created)
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&message.id)
    .bind(&message.name)
    .bind(&message.number)
    .bind(&message.email)
    .bind(&message.country)
    .bind(&message.message)
    .bind(&message.created)
    .execute(conn)
    .await?;
    Ok(message)
}

/// Every message, oldest first (for the organisers' export).
pub async fn all(pool: &Pool) -> Result<Vec<Message>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, number, email, country, message, created FROM messages ORDER BY created, id")
        .fetch_all(pool)
        .await
}
