//! The payment configuration in one place: which gateway, which keys, where the browser goes
//! and where the gateway answers (DESIGN.md sections 2 and 6).

use crate::config::Config;

/// Working key of the built-in TEST gateway. TEST ONLY: it is public (it is in this source
/// file), so anything encrypted with it proves nothing. It is used only while no CCAvenue
/// credentials are set, and then `/test-gateway` is the only "gateway" that can be reached.
pub const TEST_WORKING_KEY: &str = "TESTWORKINGKEY0123456789ABCDEF01";

/// Access code of the built-in test gateway (test only).
pub const TEST_ACCESS_CODE: &str = "TEST";

/// Merchant id of the built-in test gateway (test only).
pub const TEST_MERCHANT_ID: &str = "TEST";

/// Path of the built-in test gateway.
pub const TEST_GATEWAY_PATH: &str = "/test-gateway";

/// CCAvenue's test initiate-transaction address (integration kit), the gateway used when
/// credentials are set and `CCAVENUE_GATEWAY_URL` is not.
pub const CCAVENUE_TEST_GATEWAY_URL: &str =
    "https://test.ccavenue.com/transaction/transaction.do?command=initiateTransaction";

/// Path the gateway posts its answer to, for both `redirect_url` and `cancel_url`.
pub const HANDLE_PATH: &str = "/api/ccavenue-handle";

/// Currency of every order (spec section 9: currency USD).
pub const CURRENCY: &str = "USD";

/// Which gateway payments go through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// No credentials: the built-in test gateway with [`TEST_WORKING_KEY`].
    Test,
    /// All three credentials set: CCAvenue.
    Live,
    /// Some credentials set but not all. Payments are refused rather than falling back to
    /// the test gateway, which would let anyone "pay" on a site meant to take real money.
    Incomplete {
        /// The environment variables that are missing.
        missing: Vec<&'static str>,
    },
}

/// Everything the payment code needs, derived from [`Config`].
#[derive(Debug, Clone)]
pub struct PaymentConfig {
    pub mode: Mode,
    /// `merchant_id` of every request.
    pub merchant_id: String,
    /// `access_code` the browser posts with `encRequest` (and the status call sends).
    pub access_code: String,
    /// The key whose MD5 is the AES key (never leaves the server).
    pub working_key: String,
    /// Where the browser posts `encRequest` and `access_code`.
    pub gateway_url: String,
    /// CCAvenue's order status API; when set, a `Success` is confirmed there before it counts.
    pub status_url: Option<String>,
    /// `PUBLIC_URL` + [`HANDLE_PATH`]: the request's `redirect_url` and `cancel_url`.
    pub return_url: String,
}

impl PaymentConfig {
    /// Reads the `CCAVENUE_*` settings; empty values count as unset.
    pub fn from_config(config: &Config) -> PaymentConfig {
        let set = |v: &Option<String>| v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
        let merchant_id = set(&config.ccavenue_merchant_id);
        let access_code = set(&config.ccavenue_access_code);
        let working_key = set(&config.ccavenue_working_key);
        let status_url = set(&config.ccavenue_status_url);
        let return_url = config.absolute(HANDLE_PATH);
        match (merchant_id, access_code, working_key) {
            (None, None, None) => PaymentConfig {
                mode: Mode::Test,
                merchant_id: TEST_MERCHANT_ID.into(),
                access_code: TEST_ACCESS_CODE.into(),
                working_key: TEST_WORKING_KEY.into(),
                gateway_url: config.absolute(TEST_GATEWAY_PATH),
                status_url,
                return_url,
            },
            (Some(merchant_id), Some(access_code), Some(working_key)) => PaymentConfig {
                mode: Mode::Live,
                merchant_id,
                access_code,
                working_key,
                gateway_url: set(&config.ccavenue_gateway_url).unwrap_or_else(|| CCAVENUE_TEST_GATEWAY_URL.into()),
                status_url,
                return_url,
            },
            (merchant_id, access_code, working_key) => {
                let missing = [
                    ("CCAVENUE_MERCHANT_ID", merchant_id.is_none()),
                    ("CCAVENUE_ACCESS_CODE", access_code.is_none()),
                    ("CCAVENUE_WORKING_KEY", working_key.is_none()),
                ]
                .into_iter()
                .filter_map(|(name, absent)| absent.then_some(name))
                .collect();
                PaymentConfig {
                    mode: Mode::Incomplete { missing },
                    merchant_id: String::new(),
                    access_code: String::new(),
                    // Never the test key: nothing the test gateway encrypts may count here.
                    working_key: String::new(),
                    gateway_url: String::new(),
                    status_url,
                    return_url,
                }
            }
        }
    }

    /// Whether the built-in test gateway is on (no credentials at all).
    pub fn is_test(&self) -> bool {
        self.mode == Mode::Test
    }

    /// The origin the browser's payment form posts to, for the CSP `form-action` directive:
    /// CCAvenue's origin when live; `PUBLIC_URL`'s origin in test mode (the test gateway's
    /// Approve/Decline/Cancel forms post to the absolute return URL, which is 'self' unless
    /// the site is reached under another name).
    pub fn form_action_origin(&self) -> Option<String> {
        match self.mode {
            Mode::Live => origin_of(&self.gateway_url),
            Mode::Test => origin_of(&self.return_url),
            Mode::Incomplete { .. } => None,
        }
    }
}

/// `scheme://host[:port]` of an absolute http(s) URL; `None` for anything else.
pub fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    // Credentials in a URL never belong in a CSP source.
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let valid = !host.is_empty() && host.bytes().all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b));
    valid.then(|| format!("{}://{}", scheme.to_ascii_lowercase(), host.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn config() -> Config {
        let mut c = Config::for_tests(PathBuf::from("unused"));
        c.public_url = "https://conf.example.org/".into();
        c
    }

    #[test]
    fn no_credentials_is_the_test_gateway() {
        let p = PaymentConfig::from_config(&config());
        assert_eq!(p.mode, Mode::Test);
        assert_eq!(p.working_key, TEST_WORKING_KEY);
        assert_eq!((p.merchant_id.as_str(), p.access_code.as_str()), ("TEST", "TEST"));
        assert_eq!(p.gateway_url, "https://conf.example.org/test-gateway");
        assert_eq!(p.return_url, "https://conf.example.org/api/ccavenue-handle");
        assert_eq!(p.form_action_origin().as_deref(), Some("https://conf.example.org"));
    }

    #[test]
    fn credentials_are_live_with_ccavenues_test_address_by_default() {
        let mut c = config();
        c.ccavenue_merchant_id = Some("12345".into());
        c.ccavenue_access_code = Some("AVAB01".into());
        c.ccavenue_working_key = Some("K".into());
        let p = PaymentConfig::from_config(&c);
        assert_eq!(p.mode, Mode::Live);
        assert_eq!(p.gateway_url, CCAVENUE_TEST_GATEWAY_URL);
        assert_eq!(p.form_action_origin().as_deref(), Some("https://test.ccavenue.com"));
        c.ccavenue_gateway_url =
            Some("https://secure.ccavenue.com/transaction/transaction.do?command=initiateTransaction".into());
        let p = PaymentConfig::from_config(&c);
        assert_eq!(p.form_action_origin().as_deref(), Some("https://secure.ccavenue.com"));
    }

    #[test]
    fn partial_credentials_turn_payments_off() {
        let mut c = config();
        c.ccavenue_merchant_id = Some("12345".into());
        c.ccavenue_working_key = Some("  ".into());
        let p = PaymentConfig::from_config(&c);
        assert_eq!(p.mode, Mode::Incomplete { missing: vec!["CCAVENUE_ACCESS_CODE", "CCAVENUE_WORKING_KEY"] });
        assert!(!p.is_test());
        assert_eq!(p.form_action_origin(), None);
    }

    #[test]
    fn origins() {
        assert_eq!(origin_of("http://127.0.0.1:3000/x?y#z").as_deref(), Some("http://127.0.0.1:3000"));
        assert_eq!(origin_of("HTTPS://User:pw@Example.org").as_deref(), Some("https://example.org"));
        assert_eq!(origin_of("ftp://example.org"), None);
        assert_eq!(origin_of("/relative"), None);
        assert_eq!(origin_of("https://evil.example; script-src *"), None);
    }
}
