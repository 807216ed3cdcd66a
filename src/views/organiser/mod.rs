//! The organisers' pages.

/// The review assignment pages: the overview, the staged preview, one paper's reviewers.
pub mod assignments;
/// The certificates' pages: the list with its counts, the step before a revoke.
pub mod certificates;
/// The check-in desk: its page and the answers it shows.
pub mod check_in;
/// The dashboard: counts, mail, sessions and the latest audit entries.
pub mod dashboard;
/// The decision pages: the review of a selection, the preview of applying.
pub mod decide;
/// The detail page: one item with every field, the forms that change it, its history.
pub mod detail;
/// An item's history: the audit log's entries about it in the words organisers use.
pub mod history;
/// Contact messages: the list's rows and filters, a message's page.
pub mod messages;
/// Orders: the list's rows and filters, an order's page.
pub mod orders;
/// The programme pages: the draft, its forms, a paper's public abstract and presenter.
pub mod programme;
/// The other lists: subscribers, the mail outbox, the audit log.
pub mod records;
/// The review progress page: figures, papers below their reviews, overdue reviewers.
pub mod review_progress;
/// The reviewers' page: the list, the counts, the invite forms.
pub mod reviewers;
/// The settings page: the operational deadlines and their form.
pub mod settings;
/// What every organiser page shares: cells, controls, times, the area's navigation, labels
/// of audit actions and actors, the list page and its pager.
pub mod shared;
/// The stream links' page: the streamed sessions and their forms.
pub mod streams;
/// One submission's page: its fields, reviews and discussion, its decision form.
pub mod submission;
/// The submissions' list: rows, filters, the notice of what a selection staged.
pub mod submissions;
