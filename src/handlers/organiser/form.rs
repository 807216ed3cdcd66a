//! The bodies of the organisers' form POSTs (`application/x-www-form-urlencoded`): fields in
//! order, a field that must come once, and the internal notes' limit. Read by hand rather
//! than through `axum::Form` because a selection repeats `item`, and so every bad form is a
//! 400 page that names the field.

use axum::body::Bytes;

use crate::error::AppError;

/// Longest internal note or note for an author's mail.
pub const NOTE_MAX_CHARS: usize = 2000;

/// A form body's fields, in order (a name may repeat).
pub fn fields(body: &Bytes) -> Vec<(String, String)> {
    url::form_urlencoded::parse(body).map(|(k, v)| (k.into_owned(), v.into_owned())).collect()
}

/// The one value of `name`, trimmed, or a 400 naming it.
pub fn one<'a>(fields: &'a [(String, String)], name: &str) -> Result<&'a str, AppError> {
    let mut values = fields.iter().filter(|(k, _)| k == name);
    match (values.next(), values.next()) {
        (Some((_, value)), None) => Ok(value.trim()),
        (None, _) => Err(AppError::BadRequest(format!("The form has no \"{name}\" field."))),
        (Some(_), Some(_)) => Err(AppError::BadRequest(format!("The field \"{name}\" is given twice."))),
    }
}

/// The optional `note` field, trimmed (empty when absent), at most [`NOTE_MAX_CHARS`].
pub fn note(fields: &[(String, String)]) -> Result<&str, AppError> {
    let note = match fields.iter().filter(|(k, _)| k == "note").count() {
        0 => "",
        _ => one(fields, "note")?,
    };
    if note.chars().count() > NOTE_MAX_CHARS {
        return Err(AppError::BadRequest(format!("The note is longer than {NOTE_MAX_CHARS} characters.")));
    }
    if note.contains('\0') {
        return Err(AppError::BadRequest("The note contains a NUL character, which cannot be stored.".into()));
    }
    Ok(note)
}
