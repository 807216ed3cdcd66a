//! Runtime configuration: environment variables of DESIGN.md section 2, each also a flag.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::str::FromStr;

use clap::Parser;

use crate::base::client_ip::TrustedProxies;

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

    /// Desk staff who may sign in to the check-in desk (`/organiser/check-in`) and reach
    /// nothing else; a comma-separated list, read on every request. Unset: no desk staff.
    #[arg(long, env = "CHECKIN_EMAIL", global = true)]
    pub checkin_email: Option<String>,

    /// The days check-in is open: comma-separated `YYYY-MM-DD` in the event's zone, or `any`.
    /// Unset: the conference's days (`site.start_date` to `site.end_date`). A bad value stops
    /// start-up.
    #[arg(long, env = "CHECKIN_DAYS", default_value = "", value_parser = CheckInDays::from_str, global = true)]
    pub checkin_days: CheckInDays,

    /// Scans one desk session may send a second (issue 40 item 3); past it the desk answers
    /// 429. Ten a second is far above what a person at a door scans (pretixSCAN's queues run
    /// at about one a second) and stops a stuck scanner or a script. 0 is taken as 1.
    #[arg(long, env = "CHECKIN_SCANS_PER_SECOND", default_value_t = 10, global = true)]
    pub checkin_scans_per_second: u32,

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
    /// Mails one instance hands to the relay at once (issue 40 item 4): each sender claims its
    /// own outbox row, as another instance's would, so a mail still goes out once. One at a
    /// time kept up with about 20 mails a second on one core, below a registration rush's
    /// 44 (`bench/README.md`, `worst-hour.sh`). 0 is taken as 1.
    #[arg(long, env = "MAIL_SENDERS", default_value_t = 4, global = true)]
    pub mail_senders: usize,
    /// Reverse proxies and load balancers whose `X-Forwarded-For` / `Forwarded` name the
    /// client: comma-separated addresses or CIDR networks (`127.0.0.1,10.0.0.0/8`). Empty
    /// trusts none, and those headers are ignored. A bad entry stops start-up.
    #[arg(long, env = "TRUSTED_PROXIES", default_value = "", value_parser = TrustedProxies::from_str, global = true)]
    pub trusted_proxies: TrustedProxies,

    /// HTTPS in the server (DESIGN.md section 13): `off` (plain HTTP, right behind a balancer),
    /// `files` (`TLS_CERT` and `TLS_KEY`) or `acme` (certificates obtained and renewed from
    /// `ACME_DIRECTORY`). Any other value stops start-up.
    #[arg(long, env = "TLS", value_enum, default_value = "off", global = true)]
    pub tls: TlsMode,

    /// With `TLS=files`: the certificate chain (PEM, leaf first); reloaded on SIGHUP and when
    /// the file changes.
    #[arg(long, env = "TLS_CERT", global = true)]
    pub tls_cert: Option<PathBuf>,

    /// With `TLS=files`: the private key (PEM: PKCS#8, PKCS#1 or SEC1).
    #[arg(long, env = "TLS_KEY", global = true)]
    pub tls_key: Option<PathBuf>,

    /// With `TLS=acme`: names besides `PUBLIC_URL`'s host on the certificate, comma-separated.
    #[arg(long, env = "TLS_DOMAINS", default_value = "", global = true)]
    pub tls_domains: String,

    /// With `TLS=acme`: the ACME directory (RFC 8555); Let's Encrypt's production one by default.
    #[arg(long, env = "ACME_DIRECTORY", default_value = LETS_ENCRYPT_DIRECTORY, global = true)]
    pub acme_directory: String,

    /// With `TLS=acme`: who the CA writes to about the certificates (`mailto:` added when absent).
    #[arg(long, env = "ACME_CONTACT", global = true)]
    pub acme_contact: Option<String>,

    /// With `TLS=acme`: PEM roots trusted for a private ACME directory, besides the web's.
    #[arg(long, env = "ACME_CA_FILE", global = true)]
    pub acme_ca_file: Option<PathBuf>,

    /// With TLS on: the plain-HTTP socket that redirects to `https://` (308) and answers ACME
    /// HTTP-01 challenges. Unset: port 80 of `LISTEN_ADDR`'s address with `TLS=acme`, none with
    /// `TLS=files`.
    #[arg(long, env = "HTTP_LISTEN_ADDR", global = true)]
    pub http_listen_addr: Option<SocketAddr>,
}

/// `CHECKIN_DAYS` (DESIGN.md section 16): the days the check-in desk accepts tickets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CheckInDays {
    /// Unset: the conference's days, from the seed.
    #[default]
    Conference,
    /// `any`: every day (a rehearsal, tests).
    Any,
    /// These days, in the event's zone.
    Days(Vec<time::Date>),
}

impl FromStr for CheckInDays {
    type Err = String;

    /// `""` (the conference's days), `any`, or `YYYY-MM-DD[,YYYY-MM-DD...]`; anything else is
    /// refused with the value that failed.
    fn from_str(value: &str) -> Result<Self, Self::Err> {
        let value = value.trim();
        if value.is_empty() {
            return Ok(CheckInDays::Conference);
        }
        if value.eq_ignore_ascii_case("any") {
            return Ok(CheckInDays::Any);
        }
        let format = time::macros::format_description!("[year]-[month]-[day]");
        let mut days = Vec::new();
        for entry in value.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let day = time::Date::parse(entry, &format)
                .map_err(|_| format!("CHECKIN_DAYS: {entry:?} is not a date (YYYY-MM-DD); use dates or `any`"))?;
            days.push(day);
        }
        if days.is_empty() {
            return Err("CHECKIN_DAYS names no day; leave it unset for the conference's days, or write `any`".into());
        }
        Ok(CheckInDays::Days(days))
    }
}

/// Let's Encrypt's production ACME directory, `ACME_DIRECTORY`'s default.
pub const LETS_ENCRYPT_DIRECTORY: &str = "https://acme-v02.api.letsencrypt.org/directory";

/// `TLS` as written (DESIGN.md section 13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TlsMode {
    Off,
    Files,
    Acme,
}

/// Where the certificate comes from, once `TLS` and its variables are checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TlsSource {
    /// `TLS=files`: PEM files, reloaded when they change.
    Files { cert: PathBuf, key: PathBuf },
    /// `TLS=acme`: ordered for `domains` (PUBLIC_URL's host first), cached in `cache_dir`.
    Acme { domains: Vec<String>, directory: String, contact: Vec<String>, ca_file: Option<PathBuf>, cache_dir: PathBuf },
}

/// HTTPS as configured: the certificate's source and the plain port, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TlsSettings {
    pub source: TlsSource,
    /// The socket that redirects plain HTTP (and answers HTTP-01 challenges).
    pub http_listen_addr: Option<SocketAddr>,
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
            .field("checkin_email", &self.checkin_email)
            .field("checkin_days", &self.checkin_days)
            .field("checkin_scans_per_second", &self.checkin_scans_per_second)
            .field("payments_mode", &self.payments_mode)
            .field("ccavenue_merchant_id", &self.ccavenue_merchant_id)
            .field("ccavenue_access_code", &set(&self.ccavenue_access_code))
            .field("ccavenue_working_key", &set(&self.ccavenue_working_key))
            .field("ccavenue_gateway_url", &self.ccavenue_gateway_url)
            .field("ccavenue_status_url", &self.ccavenue_status_url)
            .field("upload_max_bytes", &self.upload_max_bytes)
            .field("rate_limit_per_minute", &self.rate_limit_per_minute)
            .field("mail_senders", &self.mail_senders)
            .field("organiser_idle_minutes", &self.organiser_idle_minutes)
            .field("organiser_session_hours", &self.organiser_session_hours)
            .field("tls", &self.tls)
            .finish_non_exhaustive()
    }
}

impl Config {
    /// `PUBLIC_URL` without a trailing slash, so paths can be appended.
    pub fn base_url(&self) -> &str {
        self.public_url.trim_end_matches('/')
    }

    /// Whether `PUBLIC_URL` is `https`: HSTS, and the organiser cookie's `Secure` and
    /// `__Host-` name, depend on it.
    pub fn is_https(&self) -> bool {
        self.public_url.trim().get(..8).is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://"))
    }

    /// Absolute URL of a site path such as `/pricing`.
    pub fn absolute(&self, path: &str) -> String {
        format!("{}{}", self.base_url(), path)
    }

    /// HTTPS as configured, `None` with `TLS=off`. Fails closed with a message naming the
    /// variable: `files` without both files, TLS with a `PUBLIC_URL` that is not `https://`
    /// (cookies and HSTS follow it), `acme` for an address instead of a domain name.
    pub fn tls_settings(&self) -> Result<Option<TlsSettings>, String> {
        let source = match self.tls {
            TlsMode::Off => return Ok(None),
            TlsMode::Files => match (&self.tls_cert, &self.tls_key) {
                (Some(cert), Some(key)) => TlsSource::Files { cert: cert.clone(), key: key.clone() },
                _ => return Err("TLS=files needs both TLS_CERT and TLS_KEY (PEM files)".into()),
            },
            TlsMode::Acme => TlsSource::Acme {
                domains: self.acme_domains()?,
                directory: self.acme_directory.trim().to_string(),
                contact: self
                    .acme_contact
                    .iter()
                    .map(|c| c.trim())
                    .filter(|c| !c.is_empty())
                    .map(|c| if c.starts_with("mailto:") { c.to_string() } else { format!("mailto:{c}") })
                    .collect(),
                ca_file: self.acme_ca_file.clone(),
                cache_dir: self.data_dir.join("acme"),
            },
        };
        if !self.is_https() {
            let mode = if self.tls == TlsMode::Acme { "acme" } else { "files" };
            return Err(format!("TLS={mode} needs PUBLIC_URL to start with https:// (it is {})", self.public_url));
        }
        let http_listen_addr = match (self.http_listen_addr, &source) {
            (Some(addr), _) => Some(addr),
            (None, TlsSource::Acme { .. }) => Some(SocketAddr::new(self.listen_addr.ip(), 80)),
            (None, TlsSource::Files { .. }) => None,
        };
        Ok(Some(TlsSettings { source, http_listen_addr }))
    }

    /// The names an ACME certificate covers: `PUBLIC_URL`'s host, then `TLS_DOMAINS`, lower
    /// case, each once.
    fn acme_domains(&self) -> Result<Vec<String>, String> {
        let url = url::Url::parse(self.public_url.trim()).map_err(|e| format!("PUBLIC_URL is not a URL: {e}"))?;
        let host = match url.host() {
            Some(url::Host::Domain(host)) => host.to_string(),
            _ => {
                return Err("TLS=acme needs PUBLIC_URL with a domain name (ACME certifies names, not addresses)".into());
            }
        };
        let mut domains = vec![host];
        for extra in self.tls_domains.split(',').map(|d| d.trim().to_ascii_lowercase()).filter(|d| !d.is_empty()) {
            if extra.parse::<std::net::IpAddr>().is_ok() || extra.contains(['/', ':', ' ']) {
                return Err(format!("TLS_DOMAINS: {extra:?} is not a domain name"));
            }
            if !domains.contains(&extra) {
                domains.push(extra);
            }
        }
        Ok(domains)
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
            checkin_email: None,
            checkin_days: CheckInDays::Conference,
            checkin_scans_per_second: 10,
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
            mail_senders: 4,
            trusted_proxies: TrustedProxies::default(),
            tls: TlsMode::Off,
            tls_cert: None,
            tls_key: None,
            tls_domains: String::new(),
            acme_directory: LETS_ENCRYPT_DIRECTORY.into(),
            acme_contact: None,
            acme_ca_file: None,
            http_listen_addr: None,
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

    fn parsed(vars: &[(&str, &str)]) -> Result<Config, clap::Error> {
        let args = std::iter::once("conference".to_string())
            .chain(vars.iter().map(|(name, value)| format!("--{}={value}", name.to_lowercase().replace('_', "-"))));
        Config::try_parse_from(args)
    }

    #[test]
    fn checkin_days_are_the_conference_any_or_dates_and_a_bad_one_stops_start_up() {
        assert_eq!(parsed(&[]).unwrap().checkin_days, CheckInDays::Conference);
        assert_eq!(parsed(&[("CHECKIN_DAYS", "ANY")]).unwrap().checkin_days, CheckInDays::Any);
        let days = parsed(&[("CHECKIN_DAYS", "2025-03-20, 2025-03-21")]).unwrap().checkin_days;
        let expected = [time::macros::date!(2025 - 03 - 20), time::macros::date!(2025 - 03 - 21)];
        assert_eq!(days, CheckInDays::Days(expected.to_vec()));
        for bad in ["2025-13-01", "tomorrow", "21/03/2025", ","] {
            let err = parsed(&[("CHECKIN_DAYS", bad)]).expect_err(bad).to_string();
            assert!(err.contains("CHECKIN_DAYS"), "{bad}: {err}");
        }
    }

    #[test]
    fn tls_is_off_by_default_and_an_unknown_mode_stops_start_up() {
        let config = parsed(&[]).unwrap();
        assert_eq!(config.tls_settings(), Ok(None));
        let err = parsed(&[("TLS", "on")]).expect_err("an unknown TLS value is refused");
        assert!(err.to_string().contains("off, files, acme"), "{err}");
    }

    #[test]
    fn tls_files_needs_both_files_and_an_https_public_url() {
        let https = ("PUBLIC_URL", "https://conf.example.org");
        let err = parsed(&[("TLS", "files"), https, ("TLS_CERT", "c.pem")]).unwrap().tls_settings().unwrap_err();
        assert!(err.contains("TLS_CERT and TLS_KEY"), "{err}");
        let plain = parsed(&[("TLS", "files"), ("TLS_CERT", "c.pem"), ("TLS_KEY", "k.pem")]).unwrap();
        assert!(plain.tls_settings().unwrap_err().contains("PUBLIC_URL to start with https://"));
        let ok = parsed(&[("TLS", "files"), https, ("TLS_CERT", "c.pem"), ("TLS_KEY", "k.pem")]).unwrap();
        let settings = ok.tls_settings().unwrap().unwrap();
        assert_eq!(settings.source, TlsSource::Files { cert: "c.pem".into(), key: "k.pem".into() });
        assert_eq!(settings.http_listen_addr, None, "no plain port unless asked for");
    }

    #[test]
    fn tls_acme_certifies_the_public_host_and_listens_on_port_80() {
        let config = parsed(&[
            ("TLS", "acme"),
            ("PUBLIC_URL", "https://Conf.Example.org/"),
            ("TLS_DOMAINS", "www.example.org, conf.example.org,"),
            ("ACME_CONTACT", "you@example.org"),
            ("LISTEN_ADDR", "0.0.0.0:443"),
            ("DATA_DIR", "/srv/conf"),
        ])
        .unwrap();
        let settings = config.tls_settings().unwrap().unwrap();
        let TlsSource::Acme { domains, directory, contact, cache_dir, .. } = settings.source else { panic!("acme") };
        assert_eq!(domains, ["conf.example.org", "www.example.org"]);
        assert_eq!(directory, LETS_ENCRYPT_DIRECTORY);
        assert_eq!(contact, ["mailto:you@example.org"]);
        assert_eq!(cache_dir, PathBuf::from("/srv/conf/acme"));
        assert_eq!(settings.http_listen_addr, Some("0.0.0.0:80".parse().unwrap()));
        let address = parsed(&[("TLS", "acme"), ("PUBLIC_URL", "https://192.0.2.1")]).unwrap();
        assert!(address.tls_settings().unwrap_err().contains("domain name"));
    }
}
