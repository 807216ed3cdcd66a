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
pub async fn seed(pool: &Pool) -> Result<(), conference::db::SeedError> {
    conference::db::seed_with(pool, SEED.to_owned()).await
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
