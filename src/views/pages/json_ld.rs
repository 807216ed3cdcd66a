//! The pages' schema.org JSON-LD (DESIGN.md section 4): the conference as an `Event` for
//! search engines' event results, its sessions and talks as `Event`s of their own, and the
//! venue as a `Place`. Every URL is on `PUBLIC_URL` (`base`, without its trailing `/`).

use serde_json::{Value, json};

use crate::base::money;
use crate::programme::{TimedSession, TimedTalk};
use crate::repo::content::{Site, Speaker, TicketPlan};
use crate::views::pages::shared::on_base;

/// The venue as a schema.org `Place` named `name`, with the site's postal address.
pub fn venue_place(site: &Site, name: &str) -> Value {
    json!({
        "@type": "Place",
        "name": name,
        "address": {
            "@type": "PostalAddress",
            "streetAddress": site.street_address,
            "addressLocality": site.city,
            "addressRegion": site.region,
            "postalCode": site.postal_code,
            "addressCountry": site.country_code,
        }
    })
}

/// schema.org `Event` for Google's event rich results: dates with offset, mixed attendance,
/// a physical `Place` and a `VirtualLocation`, organizer, one `Offer` per ticket plan and the
/// speakers as `performer` (`Person` with name, job title and affiliation, read from the
/// speaker's role "Title, Organisation"). Every URL is on `public_url` (PUBLIC_URL): the
/// seed's `virtual_url` gives only the path.
pub fn event_json_ld<'a>(
    site: &Site,
    public_url: &str,
    plans: &[TicketPlan],
    speakers: impl IntoIterator<Item = &'a Speaker>,
) -> Value {
    let base = public_url.trim_end_matches('/');
    let performers: Vec<Value> = speakers
        .into_iter()
        .map(|speaker| {
            let (job_title, affiliation) = match speaker.role.split_once(", ") {
                Some((title, organisation)) => (Some(title.trim()), organisation.trim()),
                None => (None, speaker.role.trim()),
            };
            let mut person = json!({
                "@type": "Person",
                "name": speaker.name,
                "affiliation": { "@type": "Organization", "name": affiliation },
            });
            if let Some(title) = job_title {
                person["jobTitle"] = json!(title);
            }
            person
        })
        .collect();
    let offers: Vec<Value> = plans
        .iter()
        .map(|plan| {
            json!({
                "@type": "Offer",
                "name": plan.title,
                "price": money::format_cents(plan.price_cents),
                "priceCurrency": plan.currency,
                "availability": "https://schema.org/InStock",
                "url": format!("{base}/pricing"),
                "validFrom": "2024-10-01T00:00:00+08:00",
            })
        })
        .collect();
    json!({
        "@context": "https://schema.org",
        "@type": "Event",
        "name": site.name,
        "description": site.description,
        "startDate": format!("{}T09:00:00{}", site.start_date, site.utc_offset),
        "endDate": format!("{}T18:00:00{}", site.end_date, site.utc_offset),
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": "https://schema.org/MixedEventAttendanceMode",
        "location": [
            venue_place(site, &site.venue_name),
            { "@type": "VirtualLocation", "url": on_base(base, &site.virtual_url) }
        ],
        "image": [format!("{base}{}", site.og_image)],
        "organizer": { "@type": "Organization", "name": site.organizer_name, "url": site.organizer_url },
        "offers": offers,
        "performer": performers,
        "url": format!("{base}/"),
    })
}

/// The conference as a schema.org `Event` (the programme's parent): dates, mixed attendance,
/// the venue and the online location.
pub fn conference_event(site: &Site, base: &str) -> Value {
    json!({
        "@type": "Event",
        "name": site.name,
        "description": site.description,
        "startDate": site.start_date,
        "endDate": site.end_date,
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": "https://schema.org/MixedEventAttendanceMode",
        "location": [venue_place(site, &site.venue_name), { "@type": "VirtualLocation", "url": on_base(base, &site.virtual_url) }],
        "organizer": { "@type": "Organization", "name": site.organizer_name, "url": site.organizer_url },
    })
}

/// A session as a schema.org `Event`: its times with the zone's offset, its attendance mode,
/// and its location: the room at the venue (`Place`) when it is held there, the online
/// location (`VirtualLocation`) when it is streamed, both when hybrid.
pub fn session_event(site: &Site, base: &str, session: &TimedSession) -> Value {
    json!({
        "@type": "Event",
        "name": session.session.title,
        "description": session.session.description,
        "startDate": session.start_iso(),
        "endDate": session.end_iso(),
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": attendance_mode(session),
        "location": locations(site, base, session),
        "url": format!("{base}{}", session.path()),
        "organizer": { "@type": "Organization", "name": site.organizer_name, "url": site.organizer_url },
    })
}

/// The schema.org attendance mode of a session (and of its talks): offline in person, online
/// online, mixed when hybrid.
pub fn attendance_mode(session: &TimedSession) -> &'static str {
    match session.session.mode.as_str() {
        "in_person" => "https://schema.org/OfflineEventAttendanceMode",
        "online" => "https://schema.org/OnlineEventAttendanceMode",
        _ => "https://schema.org/MixedEventAttendanceMode",
    }
}

/// Where a session (and each of its talks) takes place: the room at the venue (`Place`)
/// when it is held there, the online location (`VirtualLocation`) when it is streamed, both
/// when hybrid.
pub fn locations(site: &Site, base: &str, session: &TimedSession) -> Vec<Value> {
    let mut location = Vec::new();
    if session.at_venue() {
        location.push(venue_place(site, &format!("{}, {}", session.room, site.venue_name)));
    }
    if session.streamed() {
        location.push(json!({ "@type": "VirtualLocation", "url": on_base(base, &site.virtual_url) }));
    }
    location
}

/// A talk as a schema.org `Event` of its own page: its times with the zone's offset, its
/// session's attendance mode and location, its presenter as `performer`, its public abstract
/// as `description` when it has one, and the conference as `superEvent`.
pub fn talk_event(site: &Site, base: &str, session: &TimedSession, talk: &TimedTalk) -> Value {
    let t = &talk.talk;
    let mut parent = conference_event(site, base);
    parent["url"] = json!(format!("{base}/"));
    let mut event = json!({
        "@context": "https://schema.org",
        "@type": "Event",
        "name": t.title,
        "startDate": talk.start_iso(),
        "endDate": talk.end_iso(),
        "eventStatus": "https://schema.org/EventScheduled",
        "eventAttendanceMode": attendance_mode(session),
        "location": locations(site, base, session),
        "url": format!("{base}{}", talk.path()),
        "performer": { "@type": "Person", "name": t.presenter },
        "organizer": { "@type": "Organization", "name": site.organizer_name, "url": site.organizer_url },
        "superEvent": parent,
    });
    if !t.r#abstract.is_empty() {
        event["description"] = json!(t.r#abstract);
    }
    event
}
