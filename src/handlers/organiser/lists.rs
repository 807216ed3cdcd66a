//! What every filtered organiser list does with a request, written once (DESIGN.md section 12,
//! issue 20 item 4): read the query against the parameters the list knows, show one page of
//! rows in the shared [`ListPage`], or stream the CSV of exactly that filtered view. A list is
//! a [`List`] constant naming its words, parameters, filter and CSV; its handler only fetches
//! the page's rows from `repo/` and turns them into cells.

use axum::http::StatusCode;
use axum::response::Response;

use super::download::{self, CsvList};
use super::query::Params;
use super::session::Organiser;
use super::sign_in::layout;
use crate::error::AppError;
use crate::handlers::render::render;
use crate::handlers::state::AppState;
use crate::views::organiser::shared::{Cell, Control, ListPage, Pager};

/// One organiser list: `F` is its filter (as `repo/` takes it), `T` a row as `repo/` streams it.
pub struct List<F: 'static, T: 'static> {
    /// The heading and the page's title.
    pub title: &'static str,
    /// The list's address; its CSV is at `<path>.csv`.
    pub path: &'static str,
    /// The query parameters it knows besides `page`; any other is a 400.
    pub known: &'static [&'static str],
    /// The filter read from the parameters; a bad value is a 400 saying what was wrong.
    pub filter: fn(&Params) -> Result<F, AppError>,
    pub columns: &'static [&'static str],
    pub csv: CsvList<F, T>,
}

/// A list's query as read: the parameters, the filter and the page number (from 1).
pub struct ListQuery<F> {
    pub params: Params,
    pub filter: F,
    pub page: i64,
}

/// One page of a list as its handler fetched it.
pub struct Rows {
    /// Counts shown above the table, e.g. subscribers by status.
    pub summary: Vec<(String, i64)>,
    pub controls: Vec<Control>,
    pub cells: Vec<Vec<Cell>>,
    /// How many rows the filter takes in all pages.
    pub total: i64,
}

impl<F: Send + Sync + 'static, T: Send + 'static> List<F, T> {
    /// Reads `raw` (the query string); 400 on an unknown or repeated parameter, a bad filter
    /// value or a bad page number.
    pub fn read(&self, raw: Option<&str>) -> Result<ListQuery<F>, AppError> {
        let params = Params::parse(raw, self.known)?;
        let filter = (self.filter)(&params)?;
        let page = params.page()?;
        Ok(ListQuery { params, filter, page })
    }

    /// The page of `rows` with the list's layout, filter form and pager.
    pub async fn page(&self, state: &AppState, query: &ListQuery<F>, rows: Rows) -> Result<ListPage, AppError> {
        Ok(ListPage {
            layout: layout(state, self.title, self.path).await?,
            heading: self.title,
            path: self.path,
            summary: rows.summary,
            controls: rows.controls,
            columns: self.columns.to_vec(),
            rows: rows.cells,
            pager: Pager::new(self.path, &query.params.filters(), query.page, rows.total),
            bulk: None,
        })
    }

    /// [`List::page`] rendered, 200.
    pub async fn show(&self, state: &AppState, query: &ListQuery<F>, rows: Rows) -> Result<Response, AppError> {
        render(StatusCode::OK, &self.page(state, query, rows).await?)
    }

    /// GET `<path>.csv`: every row of the filtered view, with the columns of the matching
    /// `conference export`; audited as `export.csv` with the filters.
    pub async fn csv(&self, state: &AppState, organiser: &Organiser, raw: Option<&str>) -> Result<Response, AppError> {
        let query = self.read(raw)?;
        download::csv(state, organiser, self.csv, query.filter, query.params.details()).await
    }
}
