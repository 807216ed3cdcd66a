//! The visitor's address behind reverse proxies (DESIGN.md section 9, `TRUSTED_PROXIES`).
//!
//! Anyone can write `X-Forwarded-For` or `Forwarded`, so they are read only when the TCP peer
//! is a configured proxy, and then only as far as the chain of trusted proxies reaches: the
//! client is the right-most address that is not itself a trusted proxy. With no proxies
//! configured (the default) the headers are ignored and the client is the TCP peer.
//!
//! [`resolve`] is a middleware on the whole router that stores a [`ClientIp`] in the
//! request's extensions; the rate limit (`protect`) and the request log span (`routes`) read
//! it there, and handlers can take it as an extractor.

use std::convert::Infallible;
use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::str::FromStr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, header};
use axum::middleware::Next;
use axum::response::Response;
use ipnet::{IpNet, Ipv4Net};

/// One `TRUSTED_PROXIES` entry: an address, or a network in CIDR notation (`10.0.0.0/8`,
/// `fd00::/8`). A bare address is a /32 (IPv4) or /128 (IPv6) network; host bits after the
/// prefix are ignored (`192.168.1.77/24` is `192.168.1.0/24`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProxyNet(IpNet);

impl ProxyNet {
    /// Whether `addr` lies in this network. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`,
    /// as a dual-stack socket reports IPv4 peers) counts as its IPv4 address.
    pub fn contains(&self, addr: IpAddr) -> bool {
        self.0.contains(&canonical(addr))
    }
}

impl FromStr for ProxyNet {
    type Err = String;

    /// Errors: the entry is neither an address nor a network with a prefix length of 0 to 32
    /// (IPv4) or 0 to 128 (IPv6); the message names the entry.
    fn from_str(text: &str) -> Result<Self, String> {
        let net = match text.parse::<IpAddr>() {
            Ok(addr) => IpNet::from(addr),
            Err(_) => text.parse::<IpNet>().map_err(|_| {
                format!(
                    "{text:?} is not an IP address or CIDR network (e.g. 10.0.0.1 or 10.0.0.0/8, a prefix of 0 to 32 or 0 to 128)"
                )
            })?,
        };
        // Peers are compared in their IPv4 form (`canonical`), so an IPv4-mapped network is
        // kept as the IPv4 network it stands for, or it would never match.
        let net = match net {
            IpNet::V6(v6) => match (v6.addr().to_ipv4_mapped(), v6.prefix_len().checked_sub(96)) {
                (Some(v4), Some(prefix)) => Ipv4Net::new(v4, prefix).map_or(net, IpNet::V4),
                _ => net,
            },
            v4 => v4,
        };
        Ok(ProxyNet(net))
    }
}

/// `TRUSTED_PROXIES`: the reverse proxies and load balancers whose forwarding headers are
/// believed. Comma-separated addresses or CIDR networks; empty (the default) trusts none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Arc<[ProxyNet]>);

impl TrustedProxies {
    /// Whether `addr` is a trusted proxy. Also what the connection cap uses to exempt the
    /// balancer, whose one address carries every visitor's connections.
    pub fn contains(&self, addr: IpAddr) -> bool {
        self.0.iter().any(|net| net.contains(addr))
    }

    /// Whether no proxy is trusted (forwarding headers are never read).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The client address of a request that arrived from `peer` with `headers`.
    ///
    /// From an untrusted peer, the peer. From a trusted one, the chain the proxies wrote
    /// (`X-Forwarded-For` when present, which the sample nginx config writes; else RFC 7239
    /// `Forwarded`'s `for=`) is read right to left, skipping trusted proxies: the first
    /// untrusted address is the client. An entry that is not an address (`unknown`, an
    /// obfuscated name, garbage) ends the walk at the last address before it, since nothing
    /// left of it can be checked. When every entry is a trusted proxy, the left-most one.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = canonical(peer);
        if !self.contains(peer) {
            return peer;
        }
        let chain = if headers.contains_key("x-forwarded-for") {
            forwarded_for_chain(headers)
        } else {
            forwarded_chain(headers)
        };
        let mut client = peer;
        for entry in chain.iter().rev() {
            let Some(addr) = entry else { break };
            client = canonical(*addr);
            if !self.contains(client) {
                break;
            }
        }
        client
    }
}

impl FromStr for TrustedProxies {
    type Err = String;

    /// Comma-separated entries; blanks around them and empty entries are ignored, so an
    /// empty string (the default) trusts none. A bad entry is an error naming it.
    fn from_str(text: &str) -> Result<Self, String> {
        let nets = text
            .split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(ProxyNet::from_str)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(TrustedProxies(nets.into()))
    }
}

/// The client's address, as [`resolve`] worked it out. `None` when the request did not come
/// over a socket (tests driving the router directly): all such requests are one client.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientIp(pub Option<IpAddr>);

impl fmt::Display for ClientIp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(addr) => addr.fmt(f),
            None => f.write_str("unknown"),
        }
    }
}

impl ClientIp {
    /// The address stored by [`resolve`]; without it (a router built without the
    /// middleware), the TCP peer: never a header.
    pub fn of(extensions: &axum::http::Extensions) -> Self {
        extensions
            .get::<ClientIp>()
            .copied()
            .unwrap_or_else(|| ClientIp(extensions.get::<ConnectInfo<SocketAddr>>().map(|info| canonical(info.0.ip()))))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Infallible> {
        Ok(ClientIp::of(&parts.extensions))
    }
}

/// The middleware (`axum::middleware::from_fn_with_state(trusted_proxies, resolve)`): puts
/// the [`ClientIp`] of every request into its extensions. It must wrap the trace layer, so
/// the request's log span can name the client.
pub async fn resolve(State(proxies): State<TrustedProxies>, mut request: Request, next: Next) -> Response {
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip());
    let client = ClientIp(peer.map(|peer| proxies.client(peer, request.headers())));
    request.extensions_mut().insert(client);
    next.run(request).await
}

/// IPv4-mapped IPv6 addresses as their IPv4 form, so one visitor is one key and one log name.
fn canonical(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(addr, IpAddr::V4),
        v4 => v4,
    }
}

/// Every `X-Forwarded-For` entry, left to right across repeated header lines; `None` for one
/// that is not an address. Entries may carry a port (`192.0.2.1:4711`, `[2001:db8::1]:4711`).
fn forwarded_for_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    headers
        .get_all("x-forwarded-for")
        .iter()
        .flat_map(|value| match value.to_str() {
            Ok(text) => text.split(',').map(|entry| parse_node(entry.trim())).collect::<Vec<_>>(),
            Err(_) => vec![None],
        })
        .collect()
}

/// The `for=` of every `Forwarded` element (RFC 7239 section 4), left to right across
/// repeated header lines; `None` for an element without an address in `for=`. A line that
/// does not follow the grammar is one `None`: where its elements begin cannot be known.
fn forwarded_chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let mut chain = Vec::new();
    for value in headers.get_all(header::FORWARDED) {
        match value.to_str().ok().and_then(forwarded_nodes) {
            Some(nodes) => chain.extend(nodes.into_iter().map(|node| node.as_deref().and_then(parse_node))),
            None => chain.push(None),
        }
    }
    chain
}

/// The `for=` value of each element of one `Forwarded` line, quoted pairs undone; `None` for
/// the line when it breaks RFC 7239 section 4's grammar (`1#forwarded-element`, each
/// element `forwarded-pair *( ";" forwarded-pair )`, each pair `token "=" value`).
fn forwarded_nodes(line: &str) -> Option<Vec<Option<String>>> {
    const OWS: [char; 2] = [' ', '\t'];
    let mut nodes = Vec::new();
    let mut node = None;
    let mut rest = line.trim_start_matches(OWS);
    loop {
        // Empty elements and pairs (`a,,b`, `a;;b`) are allowed by the list syntax.
        if !rest.is_empty() && !rest.starts_with([',', ';']) {
            let name_end = rest.find(|c: char| !is_tchar(c)).unwrap_or(rest.len());
            let (name, after) = rest.split_at(name_end);
            if name.is_empty() {
                return None;
            }
            let (value, after) = value(after.strip_prefix('=')?)?;
            // Section 4: a parameter occurs at most once per element.
            if name.eq_ignore_ascii_case("for") && node.replace(value).is_some() {
                return None;
            }
            rest = after.trim_start_matches(OWS);
        }
        match rest.chars().next() {
            None => {
                nodes.push(node.take());
                return Some(nodes);
            }
            Some(',') => nodes.push(node.take()),
            Some(';') => {}
            Some(_) => return None,
        }
        rest = rest[1..].trim_start_matches(OWS);
    }
}

/// A value at the start of `text`, and what follows it. A quoted-string (RFC 9110 section
/// 5.6.4) has its quoted pairs undone (`\"` is `"`, `\\` is `\`); `None` when its closing
/// quote is missing. Otherwise a token, read up to the next delimiter: some proxies leave
/// `host:port` unquoted, and [`parse_node`] checks the value anyway.
fn value(text: &str) -> Option<(String, &str)> {
    let Some(quoted) = text.strip_prefix('"') else {
        let end = text.find([',', ';', '"', ' ', '\t']).unwrap_or(text.len());
        return (end > 0).then(|| (text[..end].to_owned(), &text[end..]));
    };
    let mut value = String::new();
    let mut chars = quoted.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((value, &quoted[i + 1..])),
            '\\' => value.push(chars.next()?.1),
            c => value.push(c),
        }
    }
    None
}

/// A `tchar` of RFC 9110 section 5.6.2, what parameter names are made of.
fn is_tchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// An address as forwarding headers write it (RFC 7239 section 6): `192.0.2.1`,
/// `192.0.2.1:4711`, `[2001:db8::1]`, `[2001:db8::1]:4711`, a port possibly obfuscated
/// (`192.0.2.1:_p1`), or a bare IPv6 address as `X-Forwarded-For` writes it. `None` for
/// `unknown`, an obfuscated node (`_hidden`) or anything else.
fn parse_node(node: &str) -> Option<IpAddr> {
    if let Ok(addr) = node.parse::<IpAddr>() {
        return Some(addr);
    }
    let (addr, port) = match node.strip_prefix('[') {
        Some(bracketed) => {
            let (v6, after) = bracketed.split_once(']')?;
            let port = if after.is_empty() { None } else { Some(after.strip_prefix(':')?) };
            (IpAddr::V6(v6.parse::<Ipv6Addr>().ok()?), port)
        }
        None => {
            let (v4, port) = node.split_once(':')?;
            (IpAddr::V4(v4.parse::<Ipv4Addr>().ok()?), Some(port))
        }
    };
    port.is_none_or(is_node_port).then_some(addr)
}

/// `node-port` of RFC 7239 section 6.1: `1*5DIGIT`, or `obfport`: `"_" 1*(ALPHA / DIGIT /
/// "." / "_" / "-")`.
fn is_node_port(port: &str) -> bool {
    let digits = (1..=5).contains(&port.len()) && port.bytes().all(|b| b.is_ascii_digit());
    let obfuscated = port
        .strip_prefix('_')
        .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)));
    digits || obfuscated
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_str(value).unwrap());
        }
        map
    }

    fn proxies(text: &str) -> TrustedProxies {
        text.parse().unwrap()
    }

    #[test]
    fn cidr_entries_match_their_network_only() {
        let net: ProxyNet = "10.1.0.0/16".parse().unwrap();
        assert!(net.contains(ip("10.1.255.7")));
        assert!(!net.contains(ip("10.2.0.1")));
        assert!(net.contains(ip("::ffff:10.1.0.9")), "an IPv4-mapped peer is its IPv4 address");
        let single: ProxyNet = "127.0.0.1".parse().unwrap();
        assert!(single.contains(ip("127.0.0.1")));
        assert!(!single.contains(ip("127.0.0.2")));
        let v6: ProxyNet = "2001:db8::/32".parse().unwrap();
        assert!(v6.contains(ip("2001:db8:ffff::1")));
        assert!(!v6.contains(ip("2001:db9::1")));
        assert!(!v6.contains(ip("10.1.0.1")));
        let everything: ProxyNet = "0.0.0.0/0".parse().unwrap();
        assert!(everything.contains(ip("203.0.113.9")));
        let odd: ProxyNet = "192.168.1.77/24".parse().unwrap();
        assert!(odd.contains(ip("192.168.1.1")), "host bits of the network are ignored");
    }

    #[test]
    fn bad_entries_are_named_in_the_error() {
        for bad in [
            "10.0.0.0/33",
            "::/129",
            "10.0.0.0/",
            "10.0.0.0/x",
            "proxy.example",
            "10.0.0",
            "10.0.0.1/-1",
            "10.0.0.0/+8",
        ] {
            let err = TrustedProxies::from_str(&format!("127.0.0.1, {bad}")).unwrap_err();
            assert!(err.contains(bad), "{bad}: {err}");
        }
        assert!(TrustedProxies::from_str("").unwrap().is_empty());
        assert!(TrustedProxies::from_str(" , ").unwrap().is_empty());
        let list = proxies(" 127.0.0.1 , 10.0.0.0/8,fd00::/8 ");
        assert!(list.contains(ip("10.9.9.9")) && list.contains(ip("fd00::1")) && list.contains(ip("127.0.0.1")));
        assert!(!list.contains(ip("192.0.2.1")));
    }

    #[test]
    fn headers_from_an_untrusted_peer_are_ignored() {
        let spoofed = headers(&[("x-forwarded-for", "198.51.100.1"), ("forwarded", "for=198.51.100.2")]);
        assert_eq!(TrustedProxies::default().client(ip("203.0.113.5"), &spoofed), ip("203.0.113.5"));
        assert_eq!(proxies("10.0.0.0/8").client(ip("203.0.113.5"), &spoofed), ip("203.0.113.5"));
    }

    #[test]
    fn the_right_most_untrusted_forwarded_for_entry_is_the_client() {
        let list = proxies("127.0.0.1, 10.0.0.0/8");
        // The visitor wrote "1.2.3.4" themselves; the edge proxy appended their real address.
        let chain = headers(&[("x-forwarded-for", "1.2.3.4, 198.51.100.7, 10.0.0.2")]);
        assert_eq!(list.client(ip("127.0.0.1"), &chain), ip("198.51.100.7"));
        // Repeated header lines are one list.
        let split = headers(&[("x-forwarded-for", "1.2.3.4"), ("x-forwarded-for", "198.51.100.7:5123, 10.0.0.2")]);
        assert_eq!(list.client(ip("127.0.0.1"), &split), ip("198.51.100.7"));
        // Nothing but proxies: the left-most.
        let inner = headers(&[("x-forwarded-for", "10.0.0.3, 10.0.0.2")]);
        assert_eq!(list.client(ip("127.0.0.1"), &inner), ip("10.0.0.3"));
        // Garbage stops the walk at the last address that could be checked.
        let garbage = headers(&[("x-forwarded-for", "198.51.100.7, nonsense, 10.0.0.2")]);
        assert_eq!(list.client(ip("127.0.0.1"), &garbage), ip("10.0.0.2"));
        // No header: the trusted peer itself.
        assert_eq!(list.client(ip("127.0.0.1"), &HeaderMap::new()), ip("127.0.0.1"));
        // IPv6 entries, bracketed with a port.
        let v6 = headers(&[("x-forwarded-for", "[2001:db8::7]:443")]);
        assert_eq!(list.client(ip("::ffff:127.0.0.1"), &v6), ip("2001:db8::7"));
    }

    #[test]
    fn the_forwarded_header_is_read_per_rfc_7239() {
        let list = proxies("127.0.0.1");
        let one = headers(&[("forwarded", "for=198.51.100.7;proto=https;by=127.0.0.1")]);
        assert_eq!(list.client(ip("127.0.0.1"), &one), ip("198.51.100.7"));
        let chain = headers(&[("forwarded", r#"for="1.2.3.4", For="[2001:db8:cafe::17]:4711";proto=http"#)]);
        assert_eq!(list.client(ip("127.0.0.1"), &chain), ip("2001:db8:cafe::17"));
        let two_lines = headers(&[("forwarded", "for=1.2.3.4"), ("forwarded", "for=\"198.51.100.8:80\"")]);
        assert_eq!(list.client(ip("127.0.0.1"), &two_lines), ip("198.51.100.8"));
        let quoted_comma = headers(&[("forwarded", r#"for=198.51.100.9;host="a,b""#)]);
        assert_eq!(list.client(ip("127.0.0.1"), &quoted_comma), ip("198.51.100.9"));
        let hidden = headers(&[("forwarded", "for=198.51.100.7, for=_hidden")]);
        assert_eq!(list.client(ip("127.0.0.1"), &hidden), ip("127.0.0.1"), "an obfuscated node cannot be checked");
        // X-Forwarded-For wins when both came: it is what the sample proxy writes.
        let both = headers(&[("forwarded", "for=1.2.3.4"), ("x-forwarded-for", "198.51.100.7")]);
        assert_eq!(list.client(ip("127.0.0.1"), &both), ip("198.51.100.7"));
    }

    #[test]
    fn quoted_pairs_in_forwarded_are_undone() {
        let (list, proxy) = (proxies("127.0.0.1"), ip("127.0.0.1"));
        let client = |value: &str| list.client(proxy, &headers(&[("forwarded", value)]));
        // Any character may be escaped in a quoted-string (RFC 9110 section 5.6.4).
        assert_eq!(client(r#"for="\[2001:db8::1\]:4711""#), ip("2001:db8::1"));
        assert_eq!(client(r#"for="198.51.100.\7""#), ip("198.51.100.7"));
        // Escaped quotes belong to the value: `"[2001:db8::1]:4711"`, quotes and all, is no
        // address, so the walk ends at the proxy.
        assert_eq!(client(r#"for=198.51.100.9, for="\"[2001:db8::1]:4711\"""#), proxy);
        // An escaped quote does not end a quoted-string, so the comma after it splits nothing.
        assert_eq!(client(r#"for=198.51.100.7;host="a\",for=203.0.113.66""#), ip("198.51.100.7"));
        // `\\` is one backslash, and the quote after it closes the string.
        assert_eq!(client(r#"for=198.51.100.7;host="a\\", for=198.51.100.8"#), ip("198.51.100.8"));
    }

    #[test]
    fn a_malformed_forwarded_line_names_no_client() {
        let (list, proxy) = (proxies("127.0.0.1"), ip("127.0.0.1"));
        for bad in [
            // `"a\\"` is a whole quoted-string; the `b"` after it is not part of the grammar.
            r#"for="a\\"b""#,
            r#"for="198.51.100.7\\"b""#,
            // The last quote is escaped, so the string never closes.
            r#"for="198.51.100.7\""#,
            r#"for="198.51.100.7"x"#,
            "for=198.51.100.7;for=198.51.100.8",
            "=198.51.100.7",
            "for",
        ] {
            let forwarded = headers(&[("forwarded", &format!("for=203.0.113.1, {bad}"))]);
            assert_eq!(list.client(proxy, &forwarded), proxy, "{bad}");
        }
    }

    #[test]
    fn obfuscated_identifiers_per_rfc_7239_section_6() {
        let (list, proxy) = (proxies("127.0.0.1, 10.0.0.0/8"), ip("127.0.0.1"));
        let client = |value: &str| list.client(proxy, &headers(&[("forwarded", value)]));
        // An obfuscated port hides the port only: the address is the client's.
        assert_eq!(client(r#"for="198.51.100.7:_p0rt""#), ip("198.51.100.7"));
        assert_eq!(client(r#"for="[2001:db8::7]:_a.b-c""#), ip("2001:db8::7"));
        // An obfuscated node or `unknown` cannot be checked: the walk ends before it.
        assert_eq!(client("for=198.51.100.7, for=_gazonk"), proxy);
        assert_eq!(client("for=198.51.100.7, for=unknown"), proxy);
        assert_eq!(client("for=198.51.100.7, for=_hidden, for=10.0.0.2"), ip("10.0.0.2"));
        // `_` alone and six digits are no port.
        assert_eq!(client(r#"for="198.51.100.7:_""#), proxy);
        assert_eq!(client(r#"for="198.51.100.7:123456""#), proxy);
    }

    #[test]
    fn an_ipv4_mapped_entry_is_its_ipv4_network() {
        // Peers are compared in their IPv4 form, so such an entry must be too, or it never matches.
        let net: ProxyNet = "::ffff:10.1.0.0/112".parse().unwrap();
        assert!(net.contains(ip("10.1.2.3")) && net.contains(ip("::ffff:10.1.2.3")));
        assert!(!net.contains(ip("10.2.0.1")));
        assert!(proxies("::ffff:127.0.0.1").contains(ip("127.0.0.1")));
    }
}
