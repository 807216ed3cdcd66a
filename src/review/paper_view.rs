//! What a reviewer reads on the page of one paper (issue 32 items 5 and 6, DESIGN.md
//! section 15), gathered from the stored rows by the rules of [`super::anonymous`] (what of
//! the authors shows) and [`super::reviewing`] (the deadline, the review's version): the
//! paper's text, the review as stored, the other reviews once this reviewer submitted theirs
//! (when the settings let reviewers see them), and the discussion. The page itself is
//! `crate::handlers::review::papers`.

use time::OffsetDateTime;

use super::anonymous::{self, Authors, Shown};
use super::form::Form;
use super::reviewing::{self, Deadline};
use crate::clock::zone::Zone;
use crate::db::Pool;
use crate::error::AppError;
use crate::repo::reviewers;
use crate::repo::reviews::{self, AssignedPaper, Comment, NumberedReview, Review};

/// The page's facts about one paper for its reviewer.
#[derive(Debug, Clone)]
pub struct PaperView {
    /// "Abstract", or "The authors' message" when the paper has no public abstract.
    pub text_heading: &'static str,
    /// That text, trimmed, with every string of the authors the mode hides withheld.
    pub text: String,
    /// The authors as the review mode shows them; `None` in double-anonymous mode.
    pub authors: Option<Shown>,
    pub deadline: Option<Deadline>,
    /// Whether the deadline has passed: the review no longer changes.
    pub deadline_passed: bool,
    /// Today's review form.
    pub form: Form,
    /// This reviewer's review as saved.
    pub stored: Option<Review>,
    /// Whether it is submitted.
    pub submitted: bool,
    /// The form's [`reviewing::version`] of the stored review.
    pub version: String,
    /// Whether reviewers who submitted see the others' reviews (`reviewers_see_others`).
    pub see_others: bool,
    /// The other submitted reviews, or why they are not shown.
    pub others: Result<Vec<NumberedReview>, &'static str>,
    /// The paper's discussion, oldest first.
    pub comments: Vec<Comment>,
}

/// What the reviewer of `paper` reads on its page at `now`, times in the event's `zone`.
pub async fn paper_view(
    pool: &Pool,
    now: OffsetDateTime,
    zone: &Zone,
    paper: &AssignedPaper,
) -> Result<PaperView, AppError> {
    let settings = reviewers::settings(pool).await?;
    let deadline = Deadline::of(settings.review_deadline.as_deref(), zone);
    let deadline_passed = deadline.as_ref().is_some_and(|d| d.passed(now));
    let form = reviewing::review_form(pool).await?;
    let stored = reviews::review(pool, paper.assignment_id).await?;
    let submitted = stored.as_ref().is_some_and(|r| r.state == "submitted");

    let authors = Authors {
        name: &paper.name,
        author_name: &paper.author_name,
        co_author_name: &paper.co_author_name,
        email: &paper.email,
        phone: &paper.phone,
        country: &paper.country,
        department: &paper.department,
        university_organization: &paper.university_organization,
        reference: &paper.reference,
    };
    let hides = settings.hides_authors();
    let hidden = anonymous::hidden_strings(&authors, hides);
    let (text_heading, text) = if paper.public_abstract.trim().is_empty() {
        ("The authors' message", &paper.message)
    } else {
        ("Abstract", &paper.public_abstract)
    };
    let others = if settings.reviewers_see_others == 0 {
        Err("The organisers keep the other reviews of this paper to themselves.")
    } else if !submitted {
        Err("The other reviews of this paper appear here once you have submitted yours.")
    } else {
        Ok(reviews::other_reviews(pool, paper.submission_id, paper.assignment_id).await?)
    };
    Ok(PaperView {
        text_heading,
        text: anonymous::redact(text.trim(), &hidden),
        authors: anonymous::shown(&authors, hides),
        deadline,
        deadline_passed,
        form,
        version: reviewing::version(stored.as_ref()),
        stored,
        submitted,
        see_others: settings.reviewers_see_others != 0,
        others,
        comments: reviews::comments(pool, paper.submission_id).await?,
    })
}
