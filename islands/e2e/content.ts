// Values of the suite's content seed, tests/fixtures/content.sql, that specs assert (the
// server under test is seeded with it, see playwright.config.ts). Specs never pin the
// production seed's names or prices: organisers edit those.

/** The site row. */
export const SITE = {
  name: 'Fixture Symposium on Tidal Computing and Lantern Studies',
  shortName: 'FIXCON 2025',
  endorsement: 'Guild of Imaginary Harbours',
  venue: 'Quillmouth Institute of Tides',
  city: 'Port Quill',
  country: 'Lanternland',
  website: 'https://fixcon.example.net',
  email: 'desk@fixcon.example.net',
  phone: '+15550100200',
  /** As the notice popup writes the dates. */
  dates: '21-23 March 2025',
  paperDue: '18 March 2099',
} as const;

/**
 * The home page's countdown target on the server under test: 30 days ahead of the real clock
 * when the run started (playwright.config.ts), as the fixture's own target has passed.
 */
export const COUNTDOWN_TARGET = Date.parse(process.env.E2E_COUNTDOWN_TARGET ?? '');

export interface Plan {
  id: string;
  title: string;
  /** The amount as the gateway and /Success show it, e.g. "145.00". */
  amount: string;
}

export const PRESENTER_VIRTUAL: Plan = { id: 'presenter-virtual', title: 'Remote Speaker', amount: '145.00' };
export const PRESENTER_PHYSICAL: Plan = { id: 'presenter-physical', title: 'Harbour Speaker', amount: '245.00' };
export const LISTENER_VIRTUAL: Plan = { id: 'listener-virtual', title: 'Remote Guest', amount: '55.00' };
export const LISTENER_PHYSICAL: Plan = { id: 'listener-physical', title: 'Harbour Guest', amount: '125.00' };
/** Every ticket plan, in page order. */
export const PLANS = [PRESENTER_VIRTUAL, PRESENTER_PHYSICAL, LISTENER_VIRTUAL, LISTENER_PHYSICAL];
/** The features of each plan, one per list item. */
export const PLAN_FEATURES: Record<string, string[]> = {
  'presenter-virtual': ['Fixture Ticket', 'Fixture Certificate'],
  'presenter-physical': ['Fixture Ticket', 'Fixture Certificate', 'Lantern Dinner'],
  'listener-virtual': ['Fixture Ticket'],
  'listener-physical': ['Fixture Ticket', 'Lantern Dinner'],
};

/** A sponsor package; `shown` with thousands separators, `amount` as the gateway shows it. */
export const GOLD_PACKAGE = { id: 'gold', title: 'Beacon', shown: '4,000.00', amount: '4000.00' } as const;
export const PLATINUM_PACKAGE = { id: 'platinum', title: 'Lighthouse', shown: '9,000.00', amount: '9000.00' } as const;

/** Policies: a section heading each page shows, and what the panels assert. */
export const POLICIES = {
  cancellation: { firstSection: 'Fixture refunds', summary: 'Fixture refunds: full, then half, then none.' },
  terms: { firstSection: 'Agreeing to the fixture terms' },
  privacy: {
    summary: 'What the fixture keeps about you.',
    sections: ['Who keeps your data', 'What the fixture collects', 'Why the fixture uses it'],
    /** Text of the last section. */
    lastText: 'Fixture papers are kept in a locked lantern.',
  },
  cookie: { firstSection: 'What your browser keeps' },
} as const;

/** A sustainability award, and the first highlight's title. */
export const AWARD = 'Steady Lantern';
export const FIRST_HIGHLIGHT = 'Tidal Engines';

/** The programme (tests/fixtures/content.sql: rooms, tracks, sessions; issue 31). */
export const PROGRAMME = {
  zone: 'Singapore time (UTC+08:00)',
  days: ['Friday, 21 March 2025', 'Saturday, 22 March 2025', 'Sunday, 23 March 2025'],
  sessions: [
    'Opening of the fixture symposium',
    'Keynote: Computing with tides',
    'Fixture session A',
    'Fixture session B',
    'Lantern posters online',
    'Fixture closing',
  ],
  /** A session's page, and its title. */
  session: { path: '/schedule/sessions/session-a', title: 'Fixture session A' },
  /** A track's name and the sessions it holds. */
  track: { name: 'Lantern Studies', sessions: ['Fixture session B', 'Lantern posters online'] },
} as const;
