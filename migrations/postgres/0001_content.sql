-- Content tables: what organisers edit through migrations/seed/content.sql.
-- Collection and field names follow the spec (section 3) where it gives them;
-- `created`/`updated` are RFC 3339 UTC text so the collections API can return
-- them as the old content backend did. Money is in cents (BIGINT).
-- Kept portable between SQLite and PostgreSQL: no AUTOINCREMENT, no JSON columns;
-- list-valued fields are newline-separated TEXT.

CREATE TABLE site (
    id BIGINT PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,              -- full conference name
    short_name TEXT NOT NULL,        -- e.g. ICSIFT 2025
    edition TEXT NOT NULL,           -- e.g. 2025 edition
    tagline TEXT NOT NULL,
    description TEXT NOT NULL,       -- default meta description
    start_date TEXT NOT NULL,        -- YYYY-MM-DD, local to time_zone
    end_date TEXT NOT NULL,          -- YYYY-MM-DD, inclusive
    countdown_target TEXT NOT NULL,  -- RFC 3339 with offset, e.g. 2025-03-21T00:00:00+08:00
    time_zone TEXT NOT NULL,         -- IANA name, e.g. Asia/Manila
    utc_offset TEXT NOT NULL,        -- e.g. +08:00 (used for JSON-LD and iCalendar)
    venue_name TEXT NOT NULL,
    street_address TEXT NOT NULL,
    city TEXT NOT NULL,
    region TEXT NOT NULL,
    postal_code TEXT NOT NULL,
    country TEXT NOT NULL,           -- display name
    country_code TEXT NOT NULL,      -- ISO 3166-1 alpha-2
    map_embed_url TEXT NOT NULL,
    directions_url TEXT NOT NULL,
    virtual_url TEXT NOT NULL,       -- where virtual attendees join
    contact_email TEXT NOT NULL,
    contact_phone TEXT NOT NULL,     -- E.164, e.g. +639171234567
    website TEXT NOT NULL,
    facebook_url TEXT NOT NULL,
    instagram_url TEXT NOT NULL,
    twitter_url TEXT NOT NULL,
    linkedin_url TEXT NOT NULL,
    youtube_url TEXT NOT NULL,
    paper_due_date TEXT NOT NULL,    -- YYYY-MM-DD
    endorsement TEXT NOT NULL,       -- the endorsing association, as shown in the hero and notice
    organizer_name TEXT NOT NULL,
    organizer_url TEXT NOT NULL,
    scopus_banner TEXT NOT NULL,     -- the home page's top banner text
    focus_areas TEXT NOT NULL,       -- newline-separated
    conference_goal TEXT NOT NULL,   -- the objective card's goal sentence (AboutUs)
    about_text TEXT NOT NULL,        -- About Conference block paragraph
    overview TEXT NOT NULL,          -- /AboutConference overview (paragraphs separated by blank lines)
    about_us_text TEXT NOT NULL,     -- /AboutUs about text (paragraphs separated by blank lines)
    vision_text TEXT NOT NULL,       -- /AboutUs vision block
    promo_title TEXT NOT NULL,       -- home promotional block (carbon-neutral / plant-a-tree)
    promo_text TEXT NOT NULL,
    cancellation_summary TEXT NOT NULL, -- the pricing page's policy card text
    letter_image TEXT NOT NULL,      -- notice popup's endorsement letter image path
    og_image TEXT NOT NULL,          -- default social image path, 1200x630
    logo TEXT NOT NULL               -- site logo path
);

-- spec: Timeline date item (collection dates)
CREATE TABLE dates (
    id TEXT PRIMARY KEY,
    date TEXT NOT NULL,              -- YYYY-MM-DD
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);

-- spec: Committee member (collection committee)
CREATE TABLE committee (
    id TEXT PRIMARY KEY,
    committee TEXT NOT NULL,         -- group: Core Committee | Advisory Board - Education | Advisory Board - Management | Advisory Board - Engineering
    name TEXT NOT NULL,
    designation TEXT NOT NULL,
    details TEXT NOT NULL,
    country TEXT NOT NULL,
    img TEXT,                        -- image path; NULL shows the placeholder
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);

-- spec: Schedule entry (collection schedule)
CREATE TABLE schedule (
    id TEXT PRIMARY KEY,
    date TEXT NOT NULL,              -- YYYY-MM-DD
    start_time TEXT NOT NULL,        -- HH:MM local
    end_time TEXT NOT NULL,          -- HH:MM local
    title TEXT NOT NULL,
    location TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);

-- spec: Speaker (collection speakers); `position` is the spec's `order` field
CREATE TABLE speakers (
    id TEXT PRIMARY KEY,
    position BIGINT NOT NULL,
    category TEXT NOT NULL CHECK (category IN ('guest', 'keynote', 'session')),
    name TEXT NOT NULL,
    role TEXT NOT NULL,
    image TEXT NOT NULL,
    bio TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);

-- spec: Co-organizer logo (co_organizers_img)
CREATE TABLE co_organizers_img (
    id TEXT PRIMARY KEY,
    img_url TEXT NOT NULL,
    img_title TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);

-- spec: Conference material (download_buttons); `link` is the file name under static/materials/
CREATE TABLE download_buttons (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    link TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);

-- Logos shown in the hero (sponsor) and on /AboutUs (partner).
CREATE TABLE partners (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('sponsor', 'partner')),
    name TEXT NOT NULL,
    logo TEXT NOT NULL,
    url TEXT NOT NULL,
    position BIGINT NOT NULL
);

-- spec section 9: ticket prices. id is the plan id the payment API takes.
CREATE TABLE ticket_plans (
    id TEXT PRIMARY KEY,             -- presenter-virtual | presenter-physical | listener-virtual | listener-physical
    audience TEXT NOT NULL CHECK (audience IN ('presenter', 'listener')),
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    price_cents BIGINT NOT NULL CHECK (price_cents > 0),
    currency TEXT NOT NULL,
    features TEXT NOT NULL,          -- newline-separated
    price_subtext TEXT NOT NULL,
    theme TEXT NOT NULL,
    attendance TEXT NOT NULL CHECK (attendance IN ('virtual', 'physical')),
    position BIGINT NOT NULL
);

-- spec section 9: sponsor packages
CREATE TABLE sponsor_packages (
    id TEXT PRIMARY KEY,             -- platinum | diamond | gold | silver
    title TEXT NOT NULL,
    price_cents BIGINT NOT NULL CHECK (price_cents > 0),
    currency TEXT NOT NULL,
    benefits TEXT NOT NULL,          -- newline-separated
    icon TEXT NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE highlights (
    slug TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    summary TEXT NOT NULL,
    image TEXT NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE highlight_topics (
    id TEXT PRIMARY KEY,
    highlight_slug TEXT NOT NULL REFERENCES highlights (slug) ON DELETE CASCADE,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE awards (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('main', 'sustainability')),
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    icon TEXT NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE goals (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    icon TEXT NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE objectives (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    icon TEXT NOT NULL,
    position BIGINT NOT NULL
);

-- section: home (the statistics strip) | impact (/AboutUs impact statistics)
CREATE TABLE statistics (
    id TEXT PRIMARY KEY,
    section TEXT NOT NULL CHECK (section IN ('home', 'impact')),
    label TEXT NOT NULL,
    value TEXT NOT NULL,             -- as displayed, e.g. 200+
    position BIGINT NOT NULL
);

-- section: why_attend | who_can_attend | registration_step (title + description)
CREATE TABLE about_items (
    id TEXT PRIMARY KEY,
    section TEXT NOT NULL CHECK (section IN ('why_attend', 'who_can_attend', 'registration_step')),
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE faqs (
    id TEXT PRIMARY KEY,
    question TEXT NOT NULL,
    answer TEXT NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE attractions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    description TEXT NOT NULL,
    image TEXT NOT NULL,
    distance TEXT NOT NULL,
    position BIGINT NOT NULL
);

-- spec: Legal policy item (name, content, link); content is split into sections
-- so the terms and privacy pages can show them as an accordion.
CREATE TABLE policies (
    slug TEXT PRIMARY KEY,           -- cancellation-policy | terms-and-conditions | privacy-policy | cookie-policy
    name TEXT NOT NULL,
    link TEXT NOT NULL,              -- route, e.g. /Terms-&-Conditions
    summary TEXT NOT NULL,
    updated TEXT NOT NULL,           -- YYYY-MM-DD, shown as "Last updated"
    position BIGINT NOT NULL
);

CREATE TABLE policy_sections (
    id TEXT PRIMARY KEY,
    policy_slug TEXT NOT NULL REFERENCES policies (slug) ON DELETE CASCADE,
    heading TEXT NOT NULL,
    body TEXT NOT NULL,              -- paragraphs separated by blank lines
    position BIGINT NOT NULL
);

CREATE TABLE gallery (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,             -- also the image's alt text
    image TEXT NOT NULL,
    width BIGINT NOT NULL,
    height BIGINT NOT NULL,
    position BIGINT NOT NULL
);
