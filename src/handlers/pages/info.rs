//! Participation pages: `/committee`, `/gallery`, `/pricing`, `/submission` and
//! `/highlights/{slug}` (the programme's are in `super::schedule`).

use askama::Template;
use axum::extract::{Path, RawQuery, Request, State};
use axum::response::Response;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::base::money;
use crate::cache::pages::ClockUse;
use crate::clock::dates;
use crate::error::AppError;
use crate::handlers::render::{cached, html, html_response};
use crate::views::layout::{Block, BlockError, Layout, Meta, PageCtx};
// The currency the server charges custom payments in.
use crate::handlers::state::AppState;
use crate::payments::config::CURRENCY as CUSTOM_CURRENCY;
use crate::repo::content::{self, COMMITTEE_GROUPS, CommitteeMember, GalleryImage, Highlight, Item, TicketPlan};

/// What a closed form says when the calendar could not be read (fail closed).
const CALENDAR_UNREAD: &str = "This form is closed for the moment. Please try again later.";

/// Members of one committee group.
pub struct CommitteeGroup {
    pub name: &'static str,
    pub members: Vec<CommitteeMember>,
}

#[derive(Template)]
#[template(path = "pages/committee.html")]
pub struct CommitteePage {
    pub layout: Layout,
    /// Groups in the spec's order; empty groups are left out.
    pub groups: Block<Vec<CommitteeGroup>>,
}

pub async fn committee(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/committee", ClockUse::Year, render_committee).await
}

pub fn render_committee(page: &PageCtx<'_>) -> Result<String, AppError> {
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
    html(&CommitteePage { layout, groups })
}

#[derive(Template)]
#[template(path = "pages/gallery.html")]
pub struct GalleryPage {
    pub layout: Layout,
    pub images: Block<Vec<GalleryImage>>,
}

pub async fn gallery(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    cached(&state, request.headers(), "/gallery", ClockUse::Year, render_gallery).await
}

pub fn render_gallery(page: &PageCtx<'_>) -> Result<String, AppError> {
    let layout = Layout::new(page, |site| {
        Meta::new(
            format!("Gallery | {}", site.short_name),
            format!("Photos from {}: sessions, workshops and delegates.", site.short_name),
            "/gallery",
        )
    })?;
    html(&GalleryPage { layout, images: page.content.gallery.clone() })
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

/// Query of `/pricing`: what the page's links and forms send when JavaScript is off.
#[derive(Debug, Default, Deserialize)]
struct PricingQuery {
    /// A ticket plan id, from a card's Register Now link.
    plan: Option<String>,
    /// A custom amount, from the Custom Payment form.
    amount: Option<String>,
}

/// GET `/pricing`: cached when it has no query; `?plan=` and `?amount=` (the page without
/// JavaScript) are rendered per request, from the snapshot all the same.
pub async fn pricing(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
    request: Request,
) -> Result<Response, AppError> {
    match query.filter(|q| !q.is_empty()) {
        // Per minute: registration closes at a minute (`crate::calendar`), and a page cached
        // before it must not outlive it; a changed deadline raises the content version.
        None => cached(&state, request.headers(), "/pricing", ClockUse::Minute, |p| render_pricing(p, None)).await,
        Some(query) => {
            let snapshot = state.content.snapshot().await;
            let body = render_pricing(&state.page_ctx(&snapshot), Some(&query))?;
            Ok(html_response(axum::http::StatusCode::OK, body))
        }
    }
}

/// `/pricing`'s HTML; `query` is the raw query string when there is one.
pub fn render_pricing(page: &PageCtx<'_>, query: Option<&str>) -> Result<String, AppError> {
    // A malformed query string is ignored rather than refused: this is a page, not an API.
    let query: PricingQuery = query.and_then(|q| serde_urlencoded::from_str(q).ok()).unwrap_or_default();
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
                selected: query.plan.as_deref() == Some(p.id.as_str()),
                plan: p.clone(),
            })
            .collect()),
        Err(_) => Err(BlockError),
    };
    let custom = match query.amount {
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
    html(&PricingPage {
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

pub async fn submission(State(state): State<AppState>, request: Request) -> Result<Response, AppError> {
    // Per minute: submissions close at a minute (`crate::calendar`); a changed deadline raises
    // the content version, which drops the cached page on every instance.
    cached(&state, request.headers(), "/submission", ClockUse::Minute, render_submission).await
}

pub fn render_submission(page: &PageCtx<'_>) -> Result<String, AppError> {
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
    html(&SubmissionPage { layout, paper_due, closed, upload_max_bytes: page.config.upload_max_bytes })
}

#[derive(Template)]
#[template(path = "pages/highlight.html")]
pub struct HighlightPage {
    pub layout: Layout,
    pub highlight: Highlight,
    pub topics: Block<Vec<Item>>,
}

/// `/highlights/{slug}`; an unknown slug is a 404 reading 'Highlight not found'.
pub async fn highlight(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    request: Request,
) -> Result<Response, AppError> {
    // Only known slugs reach the cache, so its size stays bounded by the content.
    let snapshot = state.content.snapshot().await;
    if snapshot.highlight(&slug).is_none() {
        return Err(AppError::NotFound("Highlight not found".into()));
    }
    let route = format!("/highlights/{slug}");
    cached(&state, request.headers(), &route, ClockUse::Year, |page| render_highlight(page, &slug)).await
}

pub fn render_highlight(page: &PageCtx<'_>, slug: &str) -> Result<String, AppError> {
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
    html(&HighlightPage { layout, highlight: highlight.clone(), topics: topics.map(<[Item]>::to_vec) })
}
