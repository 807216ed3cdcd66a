//! What each page shows, free of HTTP: the askama templates' structs, the view models built
//! from a domain function's outcome or the content snapshot, and the labels and formats pages
//! share. A handler reads the request, calls the domain and renders one of these; nothing here
//! takes a request, `AppState` or a response (DESIGN.md section 11).

/// The layout every public page shares: head, navigation, dock, footer, and the props of the
/// islands the layout itself mounts.
pub mod layout;
/// The organisers' area.
pub mod organiser;
/// The public pages.
pub mod pages;
/// The reviewers' area.
pub mod review;
