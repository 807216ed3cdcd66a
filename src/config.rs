//! Runtime configuration: environment variables of DESIGN.md section 2, each also a flag.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;

use clap::Parser;

use crate::client_ip::TrustedProxies;

/// Server configuration; every field reads its environment variable when the flag is absent.
/// `Debug` never shows a secret (DESIGN.md section 2): see the impl below.
#[derive(Clone, Parser)]
pub struct Config {
    /// Socket to serve on.
    #[arg(long, env = "LISTEN_ADDR", default_value = "127.0.0.1:3000", global = true)]
    pub listen_addr: SocketAddr,

    /// Database URL; the SQLite file is created when missing.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://data/conference.db", global = true)]
    pub database_url: String,

    /// Folder for uploaded papers and mail files.
    #[arg(long, env = "DATA_DIR", default_value = "data", global = true)]
    pub data_dir: PathBuf,

    /// Absolute base URL for canonical and Open Graph links, the sitemap and gateway return URLs.
    /// Also the only origin allowed to POST from a browser.
    #[arg(long, env = "PUBLIC_URL", default_value = "http://127.0.0.1:3000", global = true)]
    pub public_url: String,

    /// SMTP server, e.g. `smtp://user:pass@host:587`; unset writes mail as `.eml` files under
    /// `DATA_DIR/mail`. Its value (it may hold a password) is never shown in `--help`.
    #[arg(long, env = "SMTP_URL", global = true, hide_env_values = true)]
    pub smtp_url: Option<String>,

    /// Sender address of every mail; defaults to the site's contact email from the seed.
    #[arg(long, env = "MAIL_FROM", global = true)]
    pub mail_from: Option<String>,

    /// Who receives organiser notices (defaults to the site's contact email from the seed) and
    /// who may sign in to `/organiser` (nobody when unset); a comma-separated list.
    #[arg(long, env = "ORGANISER_EMAIL", global = true)]
    pub organiser_email: Option<String>,

    /// Minutes an organiser session may stay unused before it ends (DESIGN.md section 12).
    #[arg(long, env = "ORGANISER_IDLE_MINUTES", default_value_t = 30, global = true)]
    pub organiser_idle_minutes: u64,

    /// Hours an organiser session lasts at most, however busy.
    #[arg(long, env = "ORGANISER_SESSION_HOURS", default_value_t = 12, global = true)]
    pub organiser_session_hours: u64,

    /// Who takes payments: `live` (CCAvenue; refuses to start without the three credentials),
    /// `test` (the built-in TEST gateway) or `off`. Unset: `live` when the three CCAvenue
    /// credentials are set, `test` when PUBLIC_URL is a loopback address, otherwise `off`.
    #[arg(long, env = "PAYMENTS_MODE", global = true, value_enum)]
    pub payments_mode: Option<ModeSetting>,

    /// CCAvenue merchant id; with the access code and working key set, payments go to CCAvenue
    /// unless PAYMENTS_MODE says otherwise.
    #[arg(long, env = "CCAVENUE_MERCHANT_ID", global = true)]
    pub ccavenue_merchant_id: Option<String>,

    /// CCAvenue access code (sent to the gateway as `access_code`); never shown in `--help`.
    #[arg(long, env = "CCAVENUE_ACCESS_CODE", global = true, hide_env_values = true)]
    pub ccavenue_access_code: Option<String>,

    /// CCAvenue working key (the AES key is its MD5); never leaves the server, never shown in
    /// `--help`.
    #[arg(long, env = "CCAVENUE_WORKING_KEY", global = true, hide_env_values = true)]
    pub ccavenue_working_key: Option<String>,

    /// Where the browser is sent to pay in live mode; defaults to CCAvenue's production
    /// initiate-transaction address.
    #[arg(long, env = "CCAVENUE_GATEWAY_URL", global = true)]
    pub ccavenue_gateway_url: Option<String>,

    /// CCAvenue's order status API; when set, a `Success` is confirmed there before it counts.
    #[arg(long, env = "CCAVENUE_STATUS_URL", global = true)]
    pub ccavenue_status_url: Option<String>,

    /// Largest paper upload accepted, in bytes (default 20 MiB).
    #[arg(long, env = "UPLOAD_MAX_BYTES", default_value_t = 20 * 1024 * 1024, global = true)]
    pub upload_max_bytes: u64,

    /// POST requests one client address may make per minute.
    #[arg(long, env = "RATE_LIMIT_PER_MINUTE", default_value_t = 30, global = true)]
    pub rate_limit_per_minute: u32,

    /// Seconds a client has to send a request's headers; also how long an idle keep-alive
    /// connection stays open. Protects against slowloris (headers dribbled a byte at a time).
    #[arg(long, env = "HEADER_READ_TIMEOUT_SECS", default_value_t = 10, global = true)]
    pub header_read_timeout_secs: u64,

    /// Seconds without a body byte after which a request ends (408). Protects against bodies
    /// that stall; a slow upload that keeps sending is never cut. Also the age after which an
    /// upload temp file counts as abandoned.
    #[arg(long, env = "BODY_TIMEOUT_SECS", default_value_t = 15, global = true)]
    pub body_timeout_secs: u64,

    /// Most connections open at once; 0 (the default) means the open-file limit less 256 kept
    /// for the database, papers and mail. Always kept below that.
    #[arg(long, env = "MAX_CONNECTIONS", default_value_t = 0, global = true)]
    pub max_connections: usize,

    /// Most connections one client address may hold open (trusted proxies exempt). Protects
    /// the others from one address taking every socket; a browser uses about 6.
    #[arg(long, env = "MAX_CONNECTIONS_PER_CLIENT", default_value_t = 128, global = true)]
    pub max_connections_per_client: usize,

    /// Seconds a SIGTERM waits for accepted requests to finish before the process exits.
    #[arg(long, env = "DRAIN_TIMEOUT_SECS", default_value_t = 20, global = true)]
    pub drain_timeout_secs: u64,

    /// Seconds a paper file without a database row is kept before the sweep removes it (a
    /// request between storing the file and committing its row needs a moment).
    #[arg(long, env = "ORPHAN_GRACE_SECS", default_value_t = 600, global = true)]
    pub orphan_grace_secs: u64,

    /// Seconds a mail worker's claim on an outbox row lasts: a row whose worker died is sent
    /// again after this (plus one 2 s poll), so within a minute by default.
    #[arg(long, env = "MAIL_LEASE_SECS", default_value_t = 50, global = true)]
    pub mail_lease_secs: u64,
    /// Reverse proxies and load balancers whose `X-Forwarded-For` / `Forwarded` name the
    /// client: comma-separated addresses or CIDR networks (`127.0.0.1,10.0.0.0/8`). Empty
    /// trusts none, and those headers are ignored. A bad entry stops start-up.
    #[arg(long, env = "TRUSTED_PROXIES", default_value = "", value_parser = TrustedProxies::from_str, global = true)]
    pub trusted_proxies: TrustedProxies,
}

/// `PAYMENTS_MODE` as written (DESIGN.md sections 2 and 6); `crate::payments::config`
/// resolves it into the mode in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ModeSetting {
    Live,
    Test,
    Off,
}

/// The origin (`scheme://host[:port]`, RFC 6454) of an absolute http(s) URL or an `Origin`
/// header, as the `url` crate serialises it: lower-cased, default port dropped, a
/// non-ASCII host in punycode. `None` for `null`, another scheme, a relative or unparsable
/// value, and a URL with credentials (a browser never sends them in `Origin`, and they never
/// belong in a CSP source). The one rule for the POST guard and the payment form's CSP.
pub fn origin_of(url: &str) -> Option<String> {
    let url = url::Url::parse(url.trim()).ok()?;
    let web = matches!(url.scheme(), "http" | "https");
    let credentials = !url.username().is_empty() || url.password().is_some();
    (web && !credentials && url.has_host()).then(|| url.origin().ascii_serialization())
}

impl std::fmt::Debug for Config {
    /// Everything but the secrets: `SMTP_URL` (it may hold a password), the CCAvenue access
    /// code and working key show only whether they are set.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let set = |v: &Option<String>| if v.is_some() { "(set)" } else { "(unset)" };
        f.debug_struct("Config")
            .field("listen_addr", &self.listen_addr)
            .field("database_url", &self.database_url)
            .field("data_dir", &self.data_dir)
            .field("public_url", &self.public_url)
            .field("smtp_url", &set(&self.smtp_url))
            .field("mail_from", &self.mail_from)
            .field("organiser_email", &self.organiser_email)
            .field("payments_mode", &self.payments_mode)
            .field("ccavenue_merchant_id", &self.ccavenue_merchant_id)
            .field("ccavenue_access_code", &set(&self.ccavenue_access_code))
            .field("ccavenue_working_key", &set(&self.ccavenue_working_key))
            .field("ccavenue_gateway_url", &self.ccavenue_gateway_url)
            .field("ccavenue_status_url", &self.ccavenue_status_url)
            .field("upload_max_bytes", &self.upload_max_bytes)
            .field("rate_limit_per_minute", &self.rate_limit_per_minute)
            .field("organiser_idle_minutes", &self.organiser_idle_minutes)
            .field("organiser_session_hours", &self.organiser_session_hours)
            .finish_non_exhaustive()
    }
}

impl Config {
    /// `PUBLIC_URL` without a trailing slash, so paths can be appended.
    pub fn base_url(&self) -> &str {
        self.public_url.trim_end_matches('/')
    }

    /// Absolute URL of a site path such as `/pricing`.
    /// Whether `PUBLIC_URL` is `https`: HSTS, and the organiser cookie's `Secure` and
    /// `__Host-` name, depend on it.
    pub fn is_https(&self) -> bool {
        self.public_url.trim().get(..8).is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
    }

    pub fn absolute(&self, path: &str) -> String {
        format!("{}{}", self.base_url(), path)
    }

    /// A configuration for tests: in-memory defaults, a given data folder.
    pub fn for_tests(data_dir: PathBuf) -> Self {
        Config {
            listen_addr: "127.0.0.1:0".parse().expect("valid address"),
            database_url: format!("sqlite://{}/conference.db", data_dir.display()),
            data_dir,
            public_url: "http://127.0.0.1:3000".into(),
            smtp_url: None,
            mail_from: None,
            organiser_email: None,
            payments_mode: None,
            ccavenue_merchant_id: None,
            ccavenue_access_code: None,
            ccavenue_working_key: None,
            ccavenue_gateway_url: None,
            ccavenue_status_url: None,
            upload_max_bytes: 20 * 1024 * 1024,
            organiser_idle_minutes: 30,
            organiser_session_hours: 12,
            rate_limit_per_minute: 30,
            header_read_timeout_secs: 10,
            body_timeout_secs: 15,
            max_connections: 0,
            max_connections_per_client: 128,
            drain_timeout_secs: 20,
            orphan_grace_secs: 600,
            mail_lease_secs: 50,
            trusted_proxies: TrustedProxies::default(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_compare_by_scheme_host_and_port() {
        assert_eq!(origin_of("http://127.0.0.1:3000/").as_deref(), Some("http://127.0.0.1:3000"));
        assert_eq!(origin_of("HTTPS://Example.ORG:443/path?q#f").as_deref(), Some("https://example.org"));
        assert_eq!(origin_of("http://example.org:80").as_deref(), Some("http://example.org"));
        assert_eq!(origin_of("http://example.org:8080").as_deref(), Some("http://example.org:8080"));
        assert_eq!(origin_of("null"), None);
        assert_eq!(origin_of("file:///etc/passwd"), None);
        assert_eq!(origin_of("http://user@evil.example"), None);
        assert_eq!(origin_of("HTTPS://User:pw@Example.org"), None, "credentials are never part of an origin");
        assert_eq!(origin_of("/relative"), None);
        assert_eq!(origin_of("https://evil.example; script-src *"), None, "nothing can slip into a CSP");
    }
}
