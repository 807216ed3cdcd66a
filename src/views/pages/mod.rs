//! The public pages.

/// What the pages about the event show: about us, the conference, awards, sponsorship, venue.
pub mod about;
/// What the attendee's pages show: the ticket, the name form, sending the link again, check-in.
pub mod attendee;
/// What the author's camera-ready step shows: each part, the forms, the error summary.
pub mod camera_ready;
/// What a certificate's verify page shows.
pub mod certificate;
/// What the programme's changelog shows.
pub mod changes;
/// What the not-found page and the full-page errors show.
pub mod errors;
/// What the home page shows: countdown, blocks, speakers, timeline, islands' props.
pub mod home;
/// What the participation pages show: committee, gallery, pricing, submission, highlights.
pub mod info;
/// The pages' schema.org JSON-LD: the conference, its sessions and talks, the venue.
pub mod json_ld;
/// What the newsletter's signed links show.
pub mod newsletter;
/// What `/Success` and `/Failed` show of an order.
pub mod payment_result;
/// What a policy page shows.
pub mod policies;
/// What the programme's pages show: the schedule under its filters, a session, the islands' props.
pub mod schedule;
/// What several public pages show alike: dates, speakers, URLs on `PUBLIC_URL`, JSON-LD in a script.
pub mod shared;
/// What the author's status page shows: the submission, its place in the programme, its public details.
pub mod submission_status;
/// What a talk's own page shows.
pub mod talk;
/// What the built-in TEST gateway shows.
pub mod test_gateway;
