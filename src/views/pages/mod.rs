//! The public pages.

/// What several public pages show alike: dates, speakers, the venue's schema.org place.
pub mod shared;
/// The pages' schema.org JSON-LD: the conference, its sessions and talks, the venue.
pub mod json_ld;
/// What the programme's pages show: the schedule under its filters, a session, the islands' props.
pub mod schedule;
/// What the home page shows: countdown, blocks, speakers, timeline, islands' props.
pub mod home;
/// What a talk's own page shows.
pub mod talk;
/// What the pages about the event show: about us, the conference, awards, sponsorship, venue.
pub mod about;
/// What the participation pages show: committee, gallery, pricing, submission, highlights.
pub mod info;
/// What the programme's changelog shows.
pub mod changes;
/// What the author's status page shows: the submission, its place in the programme, its public details.
pub mod submission_status;
/// What the attendee's pages show: the ticket, the name form, sending the link again, check-in.
pub mod attendee;
/// What a certificate's verify page shows.
pub mod certificate;
