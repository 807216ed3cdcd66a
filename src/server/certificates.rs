//! What both certificate sources (`super::tls`'s files, `super::acme`) use: the crypto
//! provider and the expiry date of a chain, for the logs.

use std::sync::Arc;

use tokio_rustls::rustls::crypto::{CryptoProvider, ring};
use tokio_rustls::rustls::pki_types::CertificateDer;

/// The rustls provider of the whole server: ring, as the rest of the tree uses.
pub fn provider() -> Arc<CryptoProvider> {
    Arc::new(ring::default_provider())
}

/// The end of validity of a chain's leaf (RFC 3339), or a word saying why there is none.
pub fn leaf_expiry(chain: &[CertificateDer<'_>]) -> String {
    let Some(leaf) = chain.first() else { return "no certificate".into() };
    match x509_parser::parse_x509_certificate(leaf) {
        Ok((_, cert)) => cert
            .validity()
            .not_after
            .to_datetime()
            .format(&time::format_description::well_known::Rfc3339)
            .unwrap_or_else(|_| "unknown".into()),
        Err(_) => "unreadable".into(),
    }
}
