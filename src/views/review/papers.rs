//! What a paper's page shows its reviewer (issue 32 items 5 and 6, DESIGN.md section 15):
//! the paper by its review code, the review form, the other reviews once this reviewer
//! submitted, the discussion and "I have a conflict".

use time::OffsetDateTime;

use crate::clock::zone::Zone;
use crate::repo::reviews::{AssignedPaper, NumberedReview};
use crate::review::anonymous::Shown;
use crate::review::form::{FieldErrors, Sent, sent_of};
use crate::review::paper_view::PaperView;
use crate::views::layout::Layout;
use crate::views::review::shared::{CommentView, ReviewForm, ReviewView, paper_href, state_label};

/// What a page draws in place of the stored values, after a refused post.
pub enum Typed {
    /// The review form as sent, its field errors and the summary.
    Review { sent: Sent, errors: FieldErrors },
    /// A discussion message as typed, and its error.
    Comment { body: String, error: String },
}

/// The paper's page as drawn (`templates/review/paper.html`).
#[derive(askama::Template)]
#[template(path = "review/paper.html")]
pub struct PaperPage {
    pub layout: Layout,
    pub code: String,
    pub title: String,
    pub paper_type: String,
    pub presentation_type: String,
    /// "Abstract" or "The authors' message".
    pub text_heading: &'static str,
    pub text: String,
    pub authors: Option<Shown>,
    pub file_href: String,
    pub file_name: String,
    pub deadline: Option<(String, String)>,
    pub deadline_passed: bool,
    /// How far off the deadline is, in words (`in 5 days`), while it has not passed.
    pub deadline_words: Option<String>,
    pub notice: Option<&'static str>,
    pub problem: Option<String>,
    pub my_state: &'static str,
    pub number: i64,
    /// This reviewer's review as saved (from its copy).
    pub mine: Option<ReviewView>,
    /// `None` after the deadline.
    pub form: Option<ReviewForm>,
    /// The other submitted reviews, when this reviewer may see them.
    pub others: Option<Vec<ReviewView>>,
    /// Why the other reviews are not shown, when they are not.
    pub others_note: Option<&'static str>,
    /// Whether reviewers who submitted see the others' reviews (`reviewers_see_others`).
    pub see_others: bool,
    pub comments: Vec<CommentView>,
    pub comment_action: String,
    pub comment_body: String,
    pub comment_error: Option<String>,
    pub conflict_action: String,
}

impl PaperPage {
    /// The page of `paper` for its reviewer from what the domain read of it (`view`), times in
    /// `zone`, the form open until the deadline; `typed` (after a refused post) is drawn in
    /// place of the stored values; `file_name` is the paper's download name. The notice and
    /// the problem are the caller's to set.
    pub fn of(
        layout: Layout,
        paper: &AssignedPaper,
        view: PaperView,
        zone: &Zone,
        now: OffsetDateTime,
        file_name: String,
        typed: Option<Typed>,
    ) -> PaperPage {
        let (comment_body, comment_error, review_typed) = match typed {
            Some(Typed::Comment { body, error }) => (body, Some(error), None),
            Some(Typed::Review { sent, errors }) => (String::new(), None, Some((sent, errors))),
            None => (String::new(), None, None),
        };
        let review_form = (!view.deadline_passed).then(|| {
            let stored = || (view.stored.as_ref().map(sent_of).unwrap_or_default(), FieldErrors::new());
            let (sent, errors) = review_typed.unwrap_or_else(stored);
            let action = format!("{}/review", paper_href(&paper.review_code));
            ReviewForm::new(action, view.version.clone(), &view.form, &sent, &errors, view.submitted)
        });
        let (others, others_note) = match &view.others {
            Ok(others) => {
                let shown = |o: &NumberedReview| {
                    ReviewView::of(format!("Reviewer {}", o.number), format!("reviewer-{}", o.number), &o.review, zone)
                };
                (Some(others.iter().map(shown).collect()), None)
            }
            Err(note) => (None, Some(*note)),
        };
        let comments = view.comments.iter().map(|c| CommentView::of(c, paper.reviewer_id, zone)).collect();
        let href = paper_href(&paper.review_code);
        PaperPage {
            layout,
            code: paper.review_code.clone(),
            title: paper.title.clone(),
            paper_type: paper.paper_type.clone(),
            presentation_type: paper.presentation_type.clone(),
            text_heading: view.text_heading,
            text: view.text,
            authors: view.authors,
            file_href: format!("{href}/paper"),
            file_name,
            deadline: view.deadline.as_ref().map(|d| (d.label(), d.iso())),
            deadline_passed: view.deadline_passed,
            deadline_words: view
                .deadline
                .as_ref()
                .filter(|_| !view.deadline_passed)
                .map(|d| crate::calendar::deadline::words(d.at, now)),
            notice: None,
            problem: None,
            my_state: state_label(view.stored.as_ref().map(|r| r.state.as_str())),
            number: paper.reviewer_number,
            mine: view.stored.as_ref().map(|r| ReviewView::of("Your review as saved".into(), "saved".into(), r, zone)),
            form: review_form,
            others,
            others_note,
            see_others: view.see_others,
            comments,
            comment_action: format!("{href}/comments"),
            comment_body,
            comment_error,
            conflict_action: format!("{href}/conflict"),
        }
    }
}
