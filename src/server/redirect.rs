//! The plain-HTTP port with TLS on (DESIGN.md section 13, issue 23): every request gets a 308
//! to the same path and query on `PUBLIC_URL`'s `https://` origin (RFC 9110 section 15.4.9:
//! the method and body are kept), except the ACME HTTP-01 challenge under way, answered with
//! its key authorization (RFC 8555 section 8.3). HSTS comes with the HTTPS answers.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Method, StatusCode, header};
use axum::response::Response;
use hyper::body::Incoming;

use super::accept::Answer;
use super::acme::{CHALLENGE_PATH, Challenges};

/// The plain port's answers.
#[derive(Clone)]
pub struct Redirect {
    /// `https://host[:port]`, without a trailing slash.
    origin: Arc<str>,
    challenges: Option<Challenges>,
}

impl Redirect {
    /// Redirects to `origin` (an `https://` origin); answers `challenges` when ACME is on.
    pub fn new(origin: &str, challenges: Option<Challenges>) -> Self {
        Redirect { origin: origin.trim_end_matches('/').into(), challenges }
    }

    /// The answer to `method` on `uri`.
    pub fn respond(&self, method: &Method, uri: &axum::http::Uri) -> Response {
        let path = uri.path();
        if let (Some(challenges), Some(token)) = (&self.challenges, path.strip_prefix(CHALLENGE_PATH))
            && (method == Method::GET || method == Method::HEAD)
        {
            return match challenges.key_authorization(token) {
                Some(key_authorization) => plain(StatusCode::OK, key_authorization),
                None => plain(StatusCode::NOT_FOUND, "No such ACME challenge.\n".into()),
            };
        }
        let target = uri.path_and_query().map_or("/", |p| p.as_str());
        let mut response = Response::new(Body::empty());
        *response.status_mut() = StatusCode::PERMANENT_REDIRECT;
        let location = format!("{}{}", self.origin, target);
        match location.parse() {
            Ok(location) => {
                response.headers_mut().insert(header::LOCATION, location);
            }
            Err(_) => return plain(StatusCode::BAD_REQUEST, "Bad request target.\n".into()),
        }
        response
    }
}

fn plain(status: StatusCode, text: String) -> Response {
    let mut response = Response::new(Body::from(text));
    *response.status_mut() = status;
    response.headers_mut().insert(header::CONTENT_TYPE, header::HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}

impl Answer for Redirect {
    type Future = std::future::Ready<Result<Response, Infallible>>;

    fn answer(&self, request: hyper::Request<Incoming>, _peer: SocketAddr) -> Self::Future {
        std::future::ready(Ok(self.respond(request.method(), request.uri())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_and_method_redirects_to_the_same_target_on_https() {
        let redirect = Redirect::new("https://conf.example.org/", None);
        for (method, target) in
            [(Method::GET, "/"), (Method::POST, "/api/contact?x=1"), (Method::GET, "/.well-known/acme-challenge/t")]
        {
            let response = redirect.respond(&method, &target.parse().unwrap());
            assert_eq!(response.status(), StatusCode::PERMANENT_REDIRECT);
            assert_eq!(response.headers()[header::LOCATION], format!("https://conf.example.org{target}").as_str());
        }
    }
}
