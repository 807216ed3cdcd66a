//! The tests' own content seed, `tests/fixtures/content.sql`, and the values of it that
//! tests assert. Tests never pin the production seed's names or prices (organisers edit
//! those); `tests/seed.rs` checks the production seed is well formed.

use conference::db::Pool;

/// The fixture seed's SQL (same tables and shape as `migrations/seed/content.sql`).
pub const SEED: &str = include_str!("../fixtures/content.sql");

/// Absolute path of the fixture seed, for `conference seed --file` in a child process.
pub fn path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/content.sql")
}

/// Applies the fixture seed as `conference seed` applies a file (one transaction).
pub async fn seed(pool: &Pool) -> Result<(), conference::seed::apply::SeedError> {
    conference::seed::apply::seed_with(pool, SEED.to_owned()).await
}

/// `site.name`.
pub const NAME: &str = "Fixture Symposium on Tidal Computing and Lantern Studies";
/// `site.short_name`.
pub const SHORT_NAME: &str = "FIXCON 2025";
/// `site.venue_name`.
pub const VENUE: &str = "Quillmouth Institute of Tides";
/// `site.endorsement`.
pub const ENDORSEMENT: &str = "Guild of Imaginary Harbours";
/// `site.city`.
pub const CITY: &str = "Port Quill";
/// `site.country`.
pub const COUNTRY: &str = "Lanternland";
/// `site.contact_email`.
pub const CONTACT_EMAIL: &str = "desk@fixcon.example.net";
/// `site.contact_phone`.
pub const PHONE: &str = "+15550100200";
/// `site.website`.
pub const WEBSITE: &str = "https://fixcon.example.net";

/// `site.receipt_prefix` (receipt numbers read `FIX-2025-000001`).
pub const RECEIPT_PREFIX: &str = "FIX";
/// `site.seller_name`, on receipts.
pub const SELLER_NAME: &str = "Quill Events Collective";
/// `site.seller_tax_number`, on receipts.
pub const SELLER_TAX_NUMBER: &str = "LL-TAX-4242";
/// `site.paper_due_date` (far ahead: submissions stay open on every test clock), as the
/// pages say it.
pub const PAPER_DUE: &str = "18 March 2099";
/// `site.registration_closes` (far ahead, like [`PAPER_DUE`]).
pub const REGISTRATION_CLOSES: &str = "2099-12-31";
/// `site.attendee_changes_until`, event time (Asia/Singapore, UTC+08:00).
pub const ATTENDEE_CHANGES_UNTIL: &str = "2025-03-14 23:59";

/// A ticket plan of the fixture: id (DESIGN.md section 5), title, price in cents and as
/// the pages and the gateway show it (USD).
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub id: &'static str,
    pub title: &'static str,
    pub cents: i64,
    pub amount: &'static str,
}

/// The plan paid orders use (and most payment tests).
pub const PRESENTER_VIRTUAL: Plan =
    Plan { id: "presenter-virtual", title: "Remote Speaker", cents: 14500, amount: "145.00" };
pub const PRESENTER_PHYSICAL: Plan =
    Plan { id: "presenter-physical", title: "Harbour Speaker", cents: 24500, amount: "245.00" };
pub const LISTENER_VIRTUAL: Plan = Plan { id: "listener-virtual", title: "Remote Guest", cents: 5500, amount: "55.00" };
pub const LISTENER_PHYSICAL: Plan =
    Plan { id: "listener-physical", title: "Harbour Guest", cents: 12500, amount: "125.00" };
/// Every plan, in `position` order.
pub const PLANS: [Plan; 4] = [PRESENTER_VIRTUAL, PRESENTER_PHYSICAL, LISTENER_VIRTUAL, LISTENER_PHYSICAL];

/// A sponsor package of the fixture (ids from DESIGN.md section 5): price in cents, as the
/// gateway gets it (`amount`) and as pages show it, with thousands separators (`shown`).
#[derive(Debug, Clone, Copy)]
pub struct Package {
    pub id: &'static str,
    pub title: &'static str,
    pub cents: i64,
    pub amount: &'static str,
    pub shown: &'static str,
}

pub const PLATINUM: Package =
    Package { id: "platinum", title: "Lighthouse", cents: 900_000, amount: "9000.00", shown: "9,000.00" };
pub const GOLD: Package = Package { id: "gold", title: "Beacon", cents: 400_000, amount: "4000.00", shown: "4,000.00" };
/// Every package, in `position` order.
pub const PACKAGES: [Package; 2] = [PLATINUM, GOLD];

/// The newest member of the Core Committee (shown first).
pub const CHAIR: &str = "Prof. Wren Halloway";
/// The first FAQ question.
pub const FIRST_QUESTION: &str = "Can I join the fixture from afar?";

/// A session of the fixture's programme (issue 31): slug, title, room, mode, track and chair
/// as pages show them, and its times with the zone's offset.
#[derive(Debug, Clone, Copy)]
pub struct Session {
    pub slug: &'static str,
    pub title: &'static str,
    pub room: &'static str,
    pub mode: &'static str,
    pub track: Option<&'static str>,
    pub chair: Option<&'static str>,
    pub start: &'static str,
    pub end: &'static str,
    /// The start and end in UTC as iCalendar writes them.
    pub start_utc: &'static str,
    pub end_utc: &'static str,
}

/// `site.time_zone` and how the programme names it.
pub const TIME_ZONE: &str = "Asia/Singapore";
pub const ZONE_LABEL: &str = "Singapore time (UTC+08:00)";
/// The programme's days as `day` filter values and headings.
pub const PROGRAMME_DAYS: [(&str, &str); 3] = [
    ("2025-03-21", "Friday, 21 March 2025"),
    ("2025-03-22", "Saturday, 22 March 2025"),
    ("2025-03-23", "Sunday, 23 March 2025"),
];
/// The tracks: slug and name.
pub const TRACKS: [(&str, &str); 2] = [("tidal-computing", "Tidal Computing"), ("lantern-studies", "Lantern Studies")];

/// Every session, in time order (parallel ones by room).
pub const SESSIONS: [Session; 6] = [
    Session {
        slug: "fixture-opening",
        title: "Opening of the fixture symposium",
        room: "Lantern Hall",
        mode: "Hybrid",
        track: None,
        chair: Some("Prof. Wren Halloway"),
        start: "2025-03-21T09:00:00+08:00",
        end: "2025-03-21T10:00:00+08:00",
        start_utc: "20250321T010000Z",
        end_utc: "20250321T020000Z",
    },
    Session {
        slug: "tidal-keynote",
        title: "Keynote: Computing with tides",
        room: "Lantern Hall",
        mode: "In person",
        track: Some("Tidal Computing"),
        chair: Some("Dr. Bram Oakhollow"),
        start: "2025-03-21T10:15:00+08:00",
        end: "2025-03-21T11:00:00+08:00",
        start_utc: "20250321T021500Z",
        end_utc: "20250321T030000Z",
    },
    Session {
        slug: "session-a",
        title: "Fixture session A",
        room: "Tide Room A",
        mode: "Hybrid",
        track: Some("Tidal Computing"),
        chair: Some("Dr. Bram Oakhollow"),
        start: "2025-03-22T09:00:00+08:00",
        end: "2025-03-22T12:00:00+08:00",
        start_utc: "20250322T010000Z",
        end_utc: "20250322T040000Z",
    },
    Session {
        slug: "session-b",
        title: "Fixture session B",
        room: "Tide Room B",
        mode: "Hybrid",
        track: Some("Lantern Studies"),
        chair: Some("Dr. Osric Penhallow"),
        start: "2025-03-22T09:00:00+08:00",
        end: "2025-03-22T12:00:00+08:00",
        start_utc: "20250322T010000Z",
        end_utc: "20250322T040000Z",
    },
    Session {
        slug: "lantern-posters",
        title: "Lantern posters online",
        room: "Online Room",
        mode: "Online",
        track: Some("Lantern Studies"),
        chair: None,
        start: "2025-03-23T10:00:00+08:00",
        end: "2025-03-23T11:30:00+08:00",
        start_utc: "20250323T020000Z",
        end_utc: "20250323T033000Z",
    },
    Session {
        slug: "fixture-closing",
        title: "Fixture closing",
        room: "Lantern Hall",
        mode: "Hybrid",
        track: None,
        chair: Some("Prof. Wren Halloway"),
        start: "2025-03-23T14:00:00+08:00",
        end: "2025-03-23T15:00:00+08:00",
        start_utc: "20250323T060000Z",
        end_utc: "20250323T070000Z",
    },
];

/// The review form (issue 32): each criterion's key, label, scale length and weight, in
/// the form's order.
pub const REVIEW_CRITERIA: [(&str, &str, usize, i64); 2] =
    [("tidal-rigour", "Tidal rigour", 4, 2), ("lantern-clarity", "Lantern clarity", 3, 1)];
/// `site.review_deadline` (in [`TIME_ZONE`]), as the reviewers' pages say it, and the
/// instant it names.
pub const REVIEW_DEADLINE: &str = "2025-03-03 18:00";
pub const REVIEW_DEADLINE_LABEL: &str = "Monday, 3 March 2025, 18:00 Singapore time (UTC+08:00)";
pub const REVIEW_DEADLINE_AT: time::OffsetDateTime = time::macros::datetime!(2025-03-03 10:00 UTC);
