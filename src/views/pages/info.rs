//! What the participation pages show: `/committee`, `/gallery`, `/pricing`, `/submission`
//! and `/highlights/{slug}`, from the content snapshot and the conference calendar.

use askama::Template;
use serde_json::{Value, json};

use crate::base::money;
use crate::clock::dates;
use crate::error::AppError;
// The currency the server charges custom payments in.
use crate::base::money::CURRENCY as CUSTOM_CURRENCY;
use crate::repo::content::{self, COMMITTEE_GROUPS, CommitteeMember, GalleryImage, Highlight, Item, TicketPlan};
use crate::views::layout::{Block, BlockError, Layout, Meta, PageCtx};

/// What a closed form says when the calendar could not be read (fail closed).
const CALENDAR_UNREAD: &str = "This form is closed for the moment. Please try again later.";

/// Members of one committee group.
pub struct CommitteeGroup {
    pub name: &'static str,
    pub members: Vec<CommitteeMember>,
}

/// Drawn by `templates/pages/committee.html`.
#[derive(Template)]
#[template(path = "pages/committee.html")]
pub struct CommitteePage {
    pub layout: Layout,
    /// Groups in the spec's order; empty groups are left out.
    pub groups: Block<Vec<CommitteeGroup>>,
}

/// `/committee` from the content snapshot.
///
/// Errors: the site row is not loaded.
pub fn committee_page(page: &PageCtx<'_>) -> Result<CommitteePage, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Organising Committee | {}", site.short_name),
            format!("The core committee and advisory boards of {}.", site.name),
            "/committee",
        )
    })?;
    let groups = page.content.committee.as_ref().map_err(|e| *e).map(|members| {
        COMMITTEE_GROUPS
            .iter()
            .map(|name| CommitteeGroup {
                name,
                members: members.iter().filter(|m| m.committee == *name).cloned().collect(),
            })
            .filter(|g| !g.members.is_empty())
            .collect()
    });
    Ok(CommitteePage { layout, groups })
}

/// Drawn by `templates/pages/gallery.html`.
#[derive(Template)]
#[template(path = "pages/gallery.html")]
pub struct GalleryPage {
    pub layout: Layout,
    pub images: Block<Vec<GalleryImage>>,
}

/// `/gallery` from the content snapshot.
///
/// Errors: the site row is not loaded.
pub fn gallery_page(page: &PageCtx<'_>) -> Result<GalleryPage, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Gallery | {}", site.short_name),
            format!("Photos from {}: sessions, workshops and delegates.", site.short_name),
            "/gallery",
        )
    })?;
    Ok(GalleryPage { layout, images: page.content.gallery.clone() })
}

/// A ticket plan with its display price.
pub struct PlanCard {
    pub plan: TicketPlan,
    pub price: String,
    /// Props of its `TicketCheckout` island: the plan id the payment API takes, the title,
    /// the price in cents and the currency (display only: the server charges its own price).
    pub props: Value,
    /// The visitor followed this card's Register Now link without JavaScript
    /// (`/pricing?plan=ID`): the card says how to register anyway.
    pub selected: bool,
}

impl PlanCard {
    pub fn features(&self) -> Vec<&str> {
        content::lines(&self.plan.features)
    }
}

/// The custom payment form as the server renders it: its fallback without JavaScript, where
/// the form is a GET to `/pricing?amount=...` and the server shows the breakdown.
pub struct CustomFallback {
    /// The amount as typed (empty when none was sent).
    pub amount: String,
    /// `(amount, tax, total)` for display, when the amount is valid.
    pub breakdown: Option<(String, String, String)>,
    /// An amount was sent and it is not a valid positive amount (spec section 5).
    pub invalid: bool,
}

/// Drawn by `templates/pages/pricing.html`.
#[derive(Template)]
#[template(path = "pages/pricing.html")]
pub struct PricingPage {
    pub layout: Layout,
    pub presenter: Block<Vec<PlanCard>>,
    pub listener: Block<Vec<PlanCard>>,
    pub steps: Block<Vec<Item>>,
    pub custom: CustomFallback,
    /// Props of the `CustomPayment` island.
    pub custom_props: Value,
    pub invalid_amount_message: &'static str,
    /// Why no registration starts any more (`registration_closes` passed, DESIGN.md section
    /// 20): the cards say "Registration closed" instead of offering Register Now or Pay.
    pub registration_closed: Option<String>,
}

/// `/pricing`'s page; without JavaScript, `plan` is the ticket plan a card's Register Now
/// link named (`?plan=`), whose card then says how to register anyway, and `amount` the
/// custom amount the Custom Payment form sent (`?amount=`), shown with its breakdown.
pub fn pricing_page(page: &PageCtx<'_>, plan: Option<&str>, amount: Option<String>) -> Result<PricingPage, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Registration & Tickets | {}", site.short_name),
            format!(
                "Register for {}: presenter and listener tickets, virtual or in person, and custom payments.",
                site.short_name
            ),
            "/pricing",
        )
    })?;
    let plans = &page.content.ticket_plans;
    let contact_email = layout.site.contact_email.clone();
    let cards = |audience: &str, plans: &Block<Vec<TicketPlan>>| match plans {
        Ok(plans) => Ok(plans
            .iter()
            .filter(|p| p.audience == audience)
            .map(|p| PlanCard {
                price: money::format_display(p.price_cents, &p.currency),
                props: json!({
                    "plan": p.id,
                    "title": p.title,
                    "amountCents": p.price_cents,
                    "currency": p.currency,
                    "contactEmail": contact_email,
                }),
                selected: plan == Some(p.id.as_str()),
                plan: p.clone(),
            })
            .collect()),
        Err(_) => Err(BlockError),
    };
    let custom = match amount {
        None => CustomFallback { amount: String::new(), breakdown: None, invalid: false },
        Some(amount) => {
            let display = |cents| money::format_display(cents, CUSTOM_CURRENCY);
            // The same numbers the island shows: tax is total - amount so the lines add up.
            let breakdown = money::custom_total_cents(&amount).ok().map(|total| {
                let base = money::parse_amount(&amount).unwrap_or(0);
                (display(base), display(total - base), display(total))
            });
            CustomFallback { invalid: breakdown.is_none(), breakdown, amount }
        }
    };
    Ok(PricingPage {
        presenter: cards("presenter", plans),
        listener: cards("listener", plans),
        steps: page.content.registration_steps.clone(),
        custom_props: json!({
            "currency": CUSTOM_CURRENCY,
            "contactEmail": contact_email,
            "initialAmount": custom.amount,
        }),
        custom,
        invalid_amount_message: money::INVALID_AMOUNT_MESSAGE,
        registration_closed: crate::views::layout::calendar_of(page.content)
            .map_or_else(|| Some(CALENDAR_UNREAD.to_owned()), |calendar| calendar.registration_closed(page.now)),
        layout,
    })
}

/// Drawn by `templates/pages/submission.html`.
#[derive(Template)]
#[template(path = "pages/submission.html")]
pub struct SubmissionPage {
    pub layout: Layout,
    pub paper_due: String,
    /// Why no paper is taken any more (`paper_due_date` passed, DESIGN.md section 20), with
    /// whom to write to; the form is then not offered.
    pub closed: Option<String>,
    /// `UPLOAD_MAX_BYTES`: the largest paper accepted, in bytes.
    pub upload_max_bytes: u64,
}

impl SubmissionPage {
    pub fn sources(&self) -> &'static [(&'static str, &'static str)] {
        &crate::forms::paper_form::CONFERENCE_SOURCES
    }

    /// Props of the `PaperForm` island: the conferenceSource options and the size limit.
    pub fn paper_form_props(&self) -> serde_json::Value {
        serde_json::json!({ "sources": crate::forms::paper_form::CONFERENCE_SOURCES, "maxBytes": self.upload_max_bytes })
    }

    /// The size limit for people, e.g. `20 MB`.
    pub fn upload_max_label(&self) -> String {
        crate::forms::paper_form::human_size(i64::try_from(self.upload_max_bytes).unwrap_or(i64::MAX))
            .replace(".0 ", " ")
    }
}

/// `/submission` from the content snapshot.
///
/// Errors: the site row is not loaded.
pub fn submission_page(page: &PageCtx<'_>) -> Result<SubmissionPage, AppError> {
    // `site.paper_due_date` is the one in force here (`Layout::new`).
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Paper Submission | {}", site.short_name),
            format!(
                "Submit your abstract or full paper to {} by {}. Guidelines and online submission form.",
                site.short_name,
                dates::long(&site.paper_due_date)
            ),
            "/submission",
        )
    })?;
    let paper_due = dates::long(&layout.site.paper_due_date);
    let closed = crate::views::layout::calendar_of(page.content)
        .map_or_else(|| Some(CALENDAR_UNREAD.to_owned()), |calendar| calendar.submissions_closed(page.now));
    Ok(SubmissionPage { layout, paper_due, closed, upload_max_bytes: page.config.upload_max_bytes })
}

/// Drawn by `templates/pages/highlight.html`.
#[derive(Template)]
#[template(path = "pages/highlight.html")]
pub struct HighlightPage {
    pub layout: Layout,
    pub highlight: Highlight,
    pub topics: Block<Vec<Item>>,
}

/// The highlight `slug`'s page.
///
/// Errors: 404 'Highlight not found' for a slug the content does not have; the site row is
/// not loaded.
pub fn highlight_page(page: &PageCtx<'_>, slug: &str) -> Result<HighlightPage, AppError> {
    let (highlight, topics) =
        page.content.highlight(slug).ok_or_else(|| AppError::NotFound("Highlight not found".into()))?;
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("{} | {}", highlight.title, site.short_name),
            highlight.summary.clone(),
            format!("/highlights/{}", highlight.slug),
        )
        .article()
    })?;
    Ok(HighlightPage { layout, highlight: highlight.clone(), topics: topics.map(<[Item]>::to_vec) })
}
