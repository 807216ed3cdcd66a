//! Tickets (DESIGN.md section 16): one per paid registration, with a random code that the QR
//! carries as `PUBLIC_URL/check-in/<code>`, the plan's mode and title, and the attendee's name,
//! which the attendee may change until `attendee_changes_until`.

use ring::rand::SecureRandom;
use serde_json::{Map, Value};
use time::OffsetDateTime;

use crate::clock::zone::Zone;
use crate::db::Connection;
use crate::error::AppError;
use crate::forms::validate::Check;
use crate::repo::attendees::{self, NewTicket, Ticket};
use crate::repo::content::TicketPlan;
use crate::repo::orders::Order;

/// Random bytes in a ticket code: 128 bits (the issue asks for at least 100).
pub const CODE_BYTES: usize = 16;

/// Characters of a code: 128 bits in base32 without padding.
pub const CODE_CHARS: usize = 26;

/// Where a code's QR leads: `/check-in/<code>`.
pub const CHECK_IN_PREFIX: &str = "/check-in/";

/// A fresh code: [`CODE_BYTES`] from the operating system's generator in RFC 4648 base32
/// (upper case, no padding). Base32 is read aloud and typed at a desk without doubt about
/// case or 0/O and 1/I.
pub fn new_code() -> String {
    let mut bytes = [0u8; CODE_BYTES];
    ring::rand::SystemRandom::new().fill(&mut bytes).expect("the operating system's random generator works");
    data_encoding::BASE32_NOPAD.encode(&bytes)
}

/// A code as someone typed or scanned it, in its stored form: upper case, spaces and dashes
/// dropped; `None` when it cannot be a code (wrong length or characters), so it never reaches
/// the database.
pub fn normalise_code(typed: &str) -> Option<String> {
    let code: String =
        typed.chars().filter(|c| !c.is_whitespace() && *c != '-').map(|c| c.to_ascii_uppercase()).collect();
    let well_formed =
        code.len() == CODE_CHARS && code.bytes().all(|b| b.is_ascii_uppercase() || (b'2'..=b'7').contains(&b));
    well_formed.then_some(code)
}

/// The address the QR encodes: `PUBLIC_URL/check-in/<code>` (`base_url` without a trailing
/// slash).
pub fn check_in_url(base_url: &str, code: &str) -> String {
    format!("{base_url}{CHECK_IN_PREFIX}{code}")
}

/// The mode of plan `item_id` (`virtual` or `physical`) from the seed's plans; a plan the
/// seed no longer has is taken from its id (`...-physical`), else virtual.
pub fn mode_of(plans: &[TicketPlan], item_id: &str) -> &'static str {
    let attendance = plans.iter().find(|p| p.id == item_id).map(|p| p.attendance.as_str());
    match attendance {
        Some("physical") => "physical",
        Some(_) => "virtual",
        None if item_id.ends_with("physical") => "physical",
        None => "virtual",
    }
}

/// A mode as the attendee page shows it.
pub fn mode_label(mode: &str) -> &'static str {
    match mode {
        "physical" => "In person, at the venue",
        _ => "Online (virtual)",
    }
}

/// The ticket of a paid `order`: the one it has, or a new one (holder: the payer; `mode` from
/// [`mode_of`]) stored on `conn`, the payment's transaction. `None` for an order that is no
/// registration (a custom payment or a sponsorship).
pub async fn issue(
    conn: &mut Connection,
    order: &Order,
    mode: &str,
    created: &str,
) -> Result<Option<Ticket>, sqlx::Error> {
    if order.kind != "plan" {
        return Ok(None);
    }
    if let Some(ticket) = attendees::ticket_of_order(conn, &order.order_id).await? {
        return Ok(Some(ticket));
    }
    let code = new_code();
    let ticket = NewTicket {
        order_id: &order.order_id,
        code: &code,
        holder_name: &order.billing_name,
        mode,
        ticket_type: &order.item_title,
        created,
    };
    Ok(Some(attendees::insert_ticket(conn, &ticket).await?))
}

/// Longest name on a ticket, in characters (the contact form's name rule).
pub const NAME_MAX_CHARS: usize = 120;

/// The name an attendee typed, as stored: the one-line rule of every form
/// ([`crate::forms::validate::Check::line`]: required, white space runs made one space, no control
/// characters, at most [`NAME_MAX_CHARS`]); `Err` with the message to show.
pub fn check_name(typed: &str) -> Result<String, String> {
    let mut fields = Map::new();
    fields.insert("name".to_owned(), Value::String(typed.to_owned()));
    let mut check = Check::new(&fields);
    let name = check.line("name", "The name", NAME_MAX_CHARS);
    match check.finish() {
        Ok(()) => Ok(name),
        Err(AppError::Unprocessable { message, .. }) => Err(format!("{message}.")),
        Err(other) => Err(other.to_string()),
    }
}

/// Whether the name on a ticket may be changed now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameChanges {
    /// Open; until the given time (as the settings write it, in the event's zone), or for
    /// good when `None`.
    Open(Option<String>),
    /// Closed since the given time.
    Closed(String),
}

impl NameChanges {
    /// Whether a change may be made now.
    pub fn open(&self) -> bool {
        matches!(self, NameChanges::Open(_))
    }
}

/// The rule of `attendee_changes_until` (as `crate::calendar::deadline` reads it, in the event's `zone`; `None` or
/// blank: no limit) at `now`: changes are open until that minute starts. A setting that is
/// not written that way closes changes (and is logged): a typo must not open them for good.
pub fn name_changes(until: Option<&str>, zone: &Zone, now: OffsetDateTime) -> NameChanges {
    let Some(text) = until.map(str::trim).filter(|t| !t.is_empty()) else {
        return NameChanges::Open(None);
    };
    let Ok(when) = crate::calendar::deadline::parse(text, zone) else {
        tracing::warn!(attendee_changes_until = %text, "attendee_changes_until does not read as a deadline; name changes closed");
        return NameChanges::Closed(text.to_owned());
    };
    // Said as the seed writes it (`YYYY-MM-DD HH:MM`, event time), whichever way it was set.
    let shown = crate::seed::session_rules::format_local(when.local);
    if when.is_passed(now) { NameChanges::Closed(shown) } else { NameChanges::Open(Some(shown)) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn codes_are_128_random_bits_in_base32_and_read_back_however_typed() {
        let a = new_code();
        assert_eq!(a.len(), CODE_CHARS);
        assert_ne!(a, new_code());
        assert_eq!(normalise_code(&a), Some(a.clone()));
        let typed = format!(" {}-{} ", a[..13].to_ascii_lowercase(), &a[13..]);
        assert_eq!(normalise_code(&typed), Some(a.clone()));
        assert_eq!(normalise_code(&a[1..]), None, "too short");
        assert_eq!(normalise_code(&format!("{}0", &a[1..])), None, "0 is not base32");
        assert_eq!(normalise_code("'; DROP TABLE tickets; --"), None);
    }

    #[test]
    fn names_follow_the_forms_line_rule() {
        assert_eq!(check_name("  Ada   Lovelace "), Ok("Ada Lovelace".to_owned()));
        assert_eq!(check_name("Ada\nLovelace"), Ok("Ada Lovelace".to_owned()));
        assert!(check_name("   ").unwrap_err().contains("required"));
        assert!(check_name("Ada\u{0}").unwrap_err().contains("not allowed"));
        assert!(check_name(&"x".repeat(NAME_MAX_CHARS + 1)).unwrap_err().contains("at most 120"));
        assert_eq!(check_name(&"é".repeat(NAME_MAX_CHARS)).map(|n| n.chars().count()), Ok(NAME_MAX_CHARS));
    }

    #[test]
    fn name_changes_close_when_the_minute_starts_in_the_event_zone() {
        let zone = Zone::fixed("Asia/Manila", time::UtcOffset::from_hms(8, 0, 0).unwrap());
        let until = Some("2025-03-14 23:59");
        // 23:59 in Manila is 15:59 UTC.
        assert!(name_changes(until, &zone, datetime!(2025-03-14 15:58:59 UTC)).open());
        assert_eq!(
            name_changes(until, &zone, datetime!(2025-03-14 15:59 UTC)),
            NameChanges::Closed("2025-03-14 23:59".into())
        );
        assert_eq!(name_changes(None, &zone, datetime!(2030-01-01 0:00 UTC)), NameChanges::Open(None));
        assert_eq!(name_changes(Some(" "), &zone, datetime!(2030-01-01 0:00 UTC)), NameChanges::Open(None));
        assert!(!name_changes(Some("14 March"), &zone, datetime!(2000-01-01 0:00 UTC)).open(), "a typo closes");
    }

    #[test]
    fn modes_come_from_the_plan_or_its_id() {
        let plan = |id: &str, attendance: &str| TicketPlan {
            id: id.into(),
            audience: "listener".into(),
            title: "T".into(),
            description: String::new(),
            price_cents: 1,
            currency: "USD".into(),
            features: String::new(),
            price_subtext: String::new(),
            theme: String::new(),
            attendance: attendance.into(),
        };
        let plans = [plan("a", "physical"), plan("b", "virtual")];
        assert_eq!(mode_of(&plans, "a"), "physical");
        assert_eq!(mode_of(&plans, "b"), "virtual");
        assert_eq!(mode_of(&plans, "gone-physical"), "physical");
        assert_eq!(mode_of(&plans, "gone"), "virtual");
    }
}
