//! The payment configuration in one place: which gateway, which keys, where the browser goes
//! and where the gateway answers (DESIGN.md sections 2 and 6).

use crate::config::{Config, ModeSetting, origin_of};

/// Working key of the built-in TEST gateway. TEST ONLY: it is public (it is in this source
/// file), so anything encrypted with it proves nothing. It is used only in [`Mode::Test`], and
/// then `/test-gateway` is the only "gateway" that can be reached.
pub const TEST_WORKING_KEY: &str = "TESTWORKINGKEY0123456789ABCDEF01";

/// Access code of the built-in test gateway (test only).
pub const TEST_ACCESS_CODE: &str = "TEST";

/// Merchant id of the built-in test gateway (test only).
pub const TEST_MERCHANT_ID: &str = "TEST";

/// Path of the built-in test gateway.
pub const TEST_GATEWAY_PATH: &str = "/test-gateway";

/// CCAvenue's production initiate-transaction address (integration kit): the live default
/// when `CCAVENUE_GATEWAY_URL` is not set (DESIGN.md section 2).
pub const CCAVENUE_LIVE_GATEWAY_URL: &str =
    "https://secure.ccavenue.com/transaction/transaction.do?command=initiateTransaction";

/// Path the gateway posts its answer to, for both `redirect_url` and `cancel_url`.
pub const HANDLE_PATH: &str = "/api/ccavenue-handle";

/// Currency of every order (spec section 9: currency USD).
pub use crate::base::money::CURRENCY;

/// The environment variables of the three CCAvenue credentials, in the order checked.
pub const CREDENTIAL_VARIABLES: [&str; 3] = ["CCAVENUE_MERCHANT_ID", "CCAVENUE_ACCESS_CODE", "CCAVENUE_WORKING_KEY"];

/// Who takes payments. Fails closed: only an explicit choice or the three credentials make
/// it `Live`, only an explicit choice or a loopback `PUBLIC_URL` make it `Test`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// CCAvenue with the configured credentials.
    Live,
    /// The built-in TEST gateway with [`TEST_WORKING_KEY`].
    Test,
    /// No payments: Register and Pay explain that online payment is not open yet;
    /// `/api/ccavenue-initiate` answers 503 and no gateway answer decides anything.
    Off,
}

impl Mode {
    /// The value stored with each order (`orders.payments_mode`) and written in logs.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Live => "live",
            Mode::Test => "test",
            Mode::Off => "off",
        }
    }
}

/// A payment configuration the server refuses to start with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PaymentConfigError {
    /// `PAYMENTS_MODE=live` without every credential; names the missing variables.
    #[error("PAYMENTS_MODE=live needs the CCAvenue credentials; missing: {}", .0.join(", "))]
    MissingCredentials(Vec<&'static str>),
}

/// Everything the payment code needs, derived from [`Config`]. `Debug` leaves the keys out.
#[derive(Clone)]
pub struct PaymentConfig {
    pub mode: Mode,
    /// Why an unset `PAYMENTS_MODE` resolved to `Off`, for the start-up warning.
    pub off_reason: Option<String>,
    /// `merchant_id` of every request (empty when off).
    pub merchant_id: String,
    /// `access_code` the browser posts with `encRequest` (and the status call sends).
    pub access_code: String,
    /// The key whose MD5 is the AES key (never leaves the server; empty when off, so nothing
    /// decrypts).
    pub working_key: String,
    /// Where the browser posts `encRequest` and `access_code` (empty when off). Stored with
    /// each order as the gateway that created it.
    pub gateway_url: String,
    /// CCAvenue's order status API; when set, a `Success` is confirmed there before it counts.
    pub status_url: Option<String>,
    /// `PUBLIC_URL` + [`HANDLE_PATH`]: the request's `redirect_url` and `cancel_url`.
    pub return_url: String,
}

impl std::fmt::Debug for PaymentConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentConfig")
            .field("mode", &self.mode)
            .field("merchant_id", &self.merchant_id)
            .field("gateway_url", &self.gateway_url)
            .field("return_url", &self.return_url)
            .finish_non_exhaustive()
    }
}

impl PaymentConfig {
    /// The configuration `config` asks for, or why the server must not start with it
    /// (DESIGN.md section 6). Empty values count as unset.
    pub fn resolve(config: &Config) -> Result<PaymentConfig, PaymentConfigError> {
        let set = |v: &Option<String>| v.as_deref().map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
        let credentials =
            [set(&config.ccavenue_merchant_id), set(&config.ccavenue_access_code), set(&config.ccavenue_working_key)];
        let missing: Vec<&'static str> = CREDENTIAL_VARIABLES
            .into_iter()
            .zip(&credentials)
            .filter_map(|(name, value)| value.is_none().then_some(name))
            .collect();
        let (mode, off_reason) = match config.payments_mode {
            Some(ModeSetting::Live) if !missing.is_empty() => {
                return Err(PaymentConfigError::MissingCredentials(missing));
            }
            Some(ModeSetting::Live) => (Mode::Live, None),
            Some(ModeSetting::Test) => (Mode::Test, None),
            Some(ModeSetting::Off) => (Mode::Off, None),
            None if missing.is_empty() => (Mode::Live, None),
            // Some credentials but not all: someone meant live; never fall back to the test
            // gateway, which would let anyone "pay" on a site meant to take real money.
            None if missing.len() < CREDENTIAL_VARIABLES.len() => {
                (Mode::Off, Some(format!("CCAvenue credentials incomplete, missing {}", missing.join(", "))))
            }
            None if is_loopback_url(&config.public_url) => (Mode::Test, None),
            None => (
                Mode::Off,
                Some("no CCAvenue credentials and PUBLIC_URL is not a loopback address (set PAYMENTS_MODE)".into()),
            ),
        };
        let status_url = set(&config.ccavenue_status_url);
        let return_url = config.absolute(HANDLE_PATH);
        let [merchant_id, access_code, working_key] = credentials;
        Ok(match mode {
            Mode::Live => PaymentConfig {
                mode,
                off_reason,
                merchant_id: merchant_id.unwrap_or_default(),
                access_code: access_code.unwrap_or_default(),
                working_key: working_key.unwrap_or_default(),
                gateway_url: set(&config.ccavenue_gateway_url).unwrap_or_else(|| CCAVENUE_LIVE_GATEWAY_URL.into()),
                status_url,
                return_url,
            },
            Mode::Test => PaymentConfig {
                mode,
                off_reason,
                merchant_id: TEST_MERCHANT_ID.into(),
                access_code: TEST_ACCESS_CODE.into(),
                working_key: TEST_WORKING_KEY.into(),
                gateway_url: config.absolute(TEST_GATEWAY_PATH),
                // The test gateway has no status API; CCAvenue's would not know its orders.
                status_url: None,
                return_url,
            },
            Mode::Off => PaymentConfig {
                mode,
                off_reason,
                merchant_id: String::new(),
                access_code: String::new(),
                working_key: String::new(),
                gateway_url: String::new(),
                status_url: None,
                return_url,
            },
        })
    }

    /// [`PaymentConfig::resolve`] for code that runs after start-up checked it: a
    /// configuration that must not start is taken as `Off` (fail closed).
    pub fn from_config(config: &Config) -> PaymentConfig {
        PaymentConfig::resolve(config).unwrap_or_else(|err| PaymentConfig {
            mode: Mode::Off,
            off_reason: Some(err.to_string()),
            merchant_id: String::new(),
            access_code: String::new(),
            working_key: String::new(),
            gateway_url: String::new(),
            status_url: None,
            return_url: config.absolute(HANDLE_PATH),
        })
    }

    /// Whether the built-in test gateway is on.
    pub fn is_test(&self) -> bool {
        self.mode == Mode::Test
    }

    /// The origin the browser's payment form posts to, for the CSP `form-action` directive:
    /// CCAvenue's origin when live; `PUBLIC_URL`'s origin in test mode (the test gateway's
    /// Approve/Decline/Cancel forms post to the absolute return URL, which is 'self' unless
    /// the site is reached under another name); none when off.
    pub fn form_action_origin(&self) -> Option<String> {
        match self.mode {
            Mode::Live => origin_of(&self.gateway_url),
            Mode::Test => origin_of(&self.return_url),
            Mode::Off => None,
        }
    }
}

/// Whether `url`'s host is `localhost` or a loopback IP address (127.0.0.0/8, `::1`).
pub fn is_loopback_url(url: &str) -> bool {
    match url::Url::parse(url.trim()).ok().and_then(|u| u.host().map(|h| h.to_owned())) {
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        None => false,
    }
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
    fn no_credentials_on_a_public_url_is_off() {
        let p = PaymentConfig::resolve(&config()).unwrap();
        assert_eq!(p.mode, Mode::Off);
        assert!(p.off_reason.is_some());
        assert_eq!(p.working_key, "");
        assert_eq!(p.form_action_origin(), None);
    }

    #[test]
    fn no_credentials_on_loopback_is_the_test_gateway() {
        for url in ["http://127.0.0.1:3000", "http://localhost:8080/", "http://[::1]:3000", "http://127.0.0.2"] {
            let mut c = config();
            c.public_url = url.into();
            let p = PaymentConfig::resolve(&c).unwrap();
            assert_eq!(p.mode, Mode::Test, "{url}");
            assert_eq!(p.working_key, TEST_WORKING_KEY);
            assert_eq!((p.merchant_id.as_str(), p.access_code.as_str()), ("TEST", "TEST"));
        }
        for url in ["http://127.0.0.1.example.org", "http://localhost.example.org", "http://10.0.0.1", "not a url"] {
            let mut c = config();
            c.public_url = url.into();
            assert_eq!(PaymentConfig::resolve(&c).unwrap().mode, Mode::Off, "{url}");
        }
    }

    #[test]
    fn credentials_are_live_with_ccavenues_production_address_by_default() {
        let mut c = config();
        c.ccavenue_merchant_id = Some("12345".into());
        c.ccavenue_access_code = Some("AVAB01".into());
        c.ccavenue_working_key = Some("K".into());
        let p = PaymentConfig::resolve(&c).unwrap();
        assert_eq!(p.mode, Mode::Live);
        assert_eq!(p.gateway_url, CCAVENUE_LIVE_GATEWAY_URL);
        assert_eq!(p.form_action_origin().as_deref(), Some("https://secure.ccavenue.com"));
        assert!(!format!("{p:?}").contains("AVAB01"));
        c.ccavenue_gateway_url =
            Some("https://test.ccavenue.com/transaction/transaction.do?command=initiateTransaction".into());
        let p = PaymentConfig::resolve(&c).unwrap();
        assert_eq!(p.form_action_origin().as_deref(), Some("https://test.ccavenue.com"));
        c.payments_mode = Some(ModeSetting::Off);
        assert_eq!(PaymentConfig::resolve(&c).unwrap().mode, Mode::Off);
        c.payments_mode = Some(ModeSetting::Test);
        assert_eq!(PaymentConfig::resolve(&c).unwrap().working_key, TEST_WORKING_KEY);
    }

    #[test]
    fn partial_credentials_turn_payments_off() {
        let mut c = config();
        c.public_url = "http://127.0.0.1:3000".into();
        c.ccavenue_merchant_id = Some("12345".into());
        c.ccavenue_working_key = Some("  ".into());
        let p = PaymentConfig::resolve(&c).unwrap();
        assert_eq!(p.mode, Mode::Off);
        assert!(p.off_reason.unwrap().contains("CCAVENUE_ACCESS_CODE, CCAVENUE_WORKING_KEY"));
    }

    #[test]
    fn live_without_credentials_refuses_and_names_them() {
        let mut c = config();
        c.payments_mode = Some(ModeSetting::Live);
        c.ccavenue_access_code = Some("AVAB01".into());
        assert_eq!(
            PaymentConfig::resolve(&c).unwrap_err(),
            PaymentConfigError::MissingCredentials(vec!["CCAVENUE_MERCHANT_ID", "CCAVENUE_WORKING_KEY"])
        );
        assert_eq!(PaymentConfig::from_config(&c).mode, Mode::Off);
    }
}
