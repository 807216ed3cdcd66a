-- =============================================================================
-- ICSIFT 2025: content seed
-- =============================================================================
--
-- Everything the public site shows (texts, dates, people, prices, policies,
-- images) comes from the rows below. The schema is migrations/0001_content.sql.
--
-- HOW TO EDIT AND RE-APPLY
--   1. Edit the INSERT statements below. Strings are in single quotes; write a
--      quote inside a string twice (it''s). Line breaks inside a string are kept:
--      list fields (focus_areas, features, benefits) take one item per line, and
--      long texts (overview, policy bodies) separate paragraphs with a blank line.
--   2. Keep the SQL plain and portable (it must run on SQLite and PostgreSQL):
--      no BEGIN/COMMIT (the seed command wraps the file in one transaction),
--      no database-specific functions.
--   3. Images live under static/img/ and are referenced as '/static/img/...';
--      materials (download_buttons.link) are file names under static/materials/.
--   4. Rebuild and re-apply with:
--          cargo run --release -- seed
--      The binary embeds this file and the static/ folder at build time, so
--      `cargo run` (which rebuilds) picks up your edits; an already built
--      `conference seed` applies the copy it was built with.
--      The seed runs in one transaction: it deletes every content row and
--      inserts the rows below, so either all of it applies or nothing changes.
--      Visitors' data (registrations, orders, paper submissions, messages,
--      newsletter subscribers) is never touched.
--   5. Timestamps (created, updated) are RFC 3339 UTC. Ordering that depends on
--      them:
--        dates              timeline in ascending `created` order
--        committee          newest `created` first within each group
--        co_organizers_img  newest `created` first
--        download_buttons   newest `created` first
--      Other lists are ordered by their `position` column.
--   6. Money is in cents: 21900 = USD 219.00.
--
-- SAMPLE CONTENT: the venue, contact details, organiser, endorsing association,
-- every person, and every sponsor/partner below are illustrative placeholders.
-- People carry "John Doe"-style placeholder names from several countries and
-- invented institutions. Replace them with real, consented details before launch.
-- The example.org / example.com domains are reserved and deliver no mail.
-- =============================================================================

DELETE FROM policy_sections;
DELETE FROM highlight_topics;
DELETE FROM policies;
DELETE FROM highlights;
DELETE FROM gallery;
DELETE FROM attractions;
DELETE FROM faqs;
DELETE FROM about_items;
DELETE FROM statistics;
DELETE FROM objectives;
DELETE FROM goals;
DELETE FROM awards;
DELETE FROM sponsor_packages;
DELETE FROM ticket_plans;
DELETE FROM partners;
DELETE FROM download_buttons;
DELETE FROM co_organizers_img;
DELETE FROM speakers;
DELETE FROM sessions;
DELETE FROM rooms;
DELETE FROM tracks;
DELETE FROM committee;
DELETE FROM dates;
DELETE FROM site;
DELETE FROM mail_templates;
DELETE FROM review_criteria;
DELETE FROM webmail_domains;
DELETE FROM certificate_signatories;

-- -----------------------------------------------------------------------------
-- Site settings (exactly one row, id = 1)
-- SAMPLE: venue (Bayanihan University of Manila), street address, phone,
-- e-mail, website, social accounts, organiser (Sampaguita Research &
-- Publications Inc.) and the endorsing association are invented placeholders.
--
-- Cancellation policy: the old site stated three conflicting policies
--   (a) full refund at least 30 days before; within 30 days non-refundable but
--       transferable to another attendee;
--   (b) full refund up to 30 days before, 50% from 29 to 15 days before, none
--       after that, transfers up to 7 days before;
--   (c) 75% refund 60 days before, 50% at 30 days, none within 30 days.
-- This seed publishes reading (b) only, with dates counted back from
-- 21 March 2025, and states it the same way in site.cancellation_summary, the
-- cancellation-policy page and the refunds section of the terms. If you change
-- it, change all three places.
-- -----------------------------------------------------------------------------

INSERT INTO site (
    id, name, short_name, edition, tagline, description,
    start_date, end_date, countdown_target, time_zone, utc_offset,
    venue_name, street_address, city, region, postal_code, country, country_code,
    map_embed_url, directions_url, virtual_url,
    contact_email, contact_phone, website,
    facebook_url, instagram_url, twitter_url, linkedin_url, youtube_url,
    paper_due_date, endorsement, organizer_name, organizer_url,
    scopus_banner, focus_areas, conference_goal,
    about_text, overview, about_us_text, vision_text,
    promo_title, promo_text, cancellation_summary,
    letter_image, og_image, logo
) VALUES (
    1,
    'International Conference on Sustainability, Innovation and Future Technologies',
    'ICSIFT 2025',
    '2025 edition',
    'Shaping tomorrow''s sustainable landscape through research, innovation and collaboration',
    'ICSIFT 2025: the International Conference on Sustainability, Innovation and Future Technologies, 21-23 March 2025 in Manila, Philippines and online. Present, publish and connect.',
    '2025-03-21',
    '2025-03-23',
    '2025-03-21T00:00:00+08:00',
    'Asia/Manila',
    '+08:00',
    'Bayanihan University of Manila',
    'Grand Convention Hall, 1150 Taft Avenue, Ermita',
    'Manila',
    'Metro Manila',
    '1000',
    'Philippines',
    'PH',
    'https://www.google.com/maps?q=Taft+Avenue,+Ermita,+Manila,+Philippines&output=embed',
    'https://www.google.com/maps/dir/?api=1&destination=Taft+Avenue%2C+Ermita%2C+Manila%2C+Philippines',
    'https://icsift.example.org/pricing',
    'info@icsift.example.org',
    '+639171234567',
    'https://icsift.example.org',
    'https://www.facebook.com/icsift.conference',
    'https://www.instagram.com/icsift.conference',
    'https://twitter.com/icsift_conf',
    'https://www.linkedin.com/company/icsift-conference',
    'https://www.youtube.com/@icsift-conference',
    '2025-03-18',
    'National Association of State Universities and Colleges',
    'Sampaguita Research & Publications Inc.',
    'https://sampaguita-research.example.org',
    'Selected papers will be processed for Scopus indexed journals or proceedings',
    'Climate Change
Renewable Energy
Circular Economy',
    'To turn research on climate change, renewable energy and the circular economy into practical solutions by bringing academia, industry, government and communities to one table.',
    'The International Conference on Sustainability, Innovation and Future Technologies (ICSIFT 2025) brings together academicians, researchers, industry professionals, policymakers, entrepreneurs and students to share research and practical solutions for a sustainable future. Over three days in Manila and online, participants present papers, join workshops and panel discussions, and build partnerships around climate change, renewable energy and the circular economy.',
    'ICSIFT 2025 is a hybrid international conference held from 21 to 23 March 2025 at Bayanihan University of Manila, Philippines, with every session also open to virtual participants. It is organised by Sampaguita Research & Publications Inc. and endorsed by the National Association of State Universities and Colleges.

The conference is a meeting place for people who study sustainability and for people who put it into practice. Researchers present peer-reviewed work in oral and poster sessions; industry professionals and policymakers share what works in the field; students meet mentors and future collaborators. Selected papers will be processed for Scopus indexed journals or proceedings.

The programme follows three focus areas: climate change, renewable energy and the circular economy. Around them, our highlight tracks cover sustainable technologies, innovation for a sustainable future and smart future technologies, from solar micro-grids and green buildings to artificial intelligence for climate action.',
    'ICSIFT brings researchers, educators, industry and government together every year to share work that makes our economies cleaner, fairer and more resilient. The 2025 edition takes place in Manila and online, so that participants who cannot travel can still present and take part.

The conference is organised by Sampaguita Research & Publications Inc., a research services company that supports academic publishing and scholarly events, and is endorsed by the National Association of State Universities and Colleges. It runs as a carbon-neutral, paper-light event.',
    'We envision a region where good research travels quickly from the laboratory to the community: where a student''s thesis on rice-straw bioplastics can meet a manufacturer, and a city engineer can find the data behind a flood model. ICSIFT exists to make those meetings happen, in person and online, every year.',
    'A carbon-neutral conference that plants trees',
    'ICSIFT 2025 is run as a carbon-neutral event: we measure the emissions of the venue, catering, printed materials and organiser travel, cut what we can by going hybrid and paper-light, and offset the rest. For every registration we plant a tree with our reforestation partners, and 5% of every custom payment fee goes to reforestation.',
    'Full refund for cancellations received on or before 19 February 2025 (30 days or more before the conference); 50% refund from 20 February to 6 March 2025 (29 to 15 days before); no refund from 7 March 2025. Registrations can be transferred to another person until 14 March 2025 (7 days before). Journal publication carries a separate fee.',
    '/static/img/endorsement-letter.svg',
    '/static/img/og-image.png',
    '/static/img/logo.svg'
);

-- Attendees and receipts (DESIGN.md section 16): until when attendees may change the name on
-- their ticket (YYYY-MM-DD HH:MM in time_zone; NULL for no limit), the receipts' number
-- prefix, the seller they name, and whether they are called invoices (1) or receipts (0).
UPDATE site SET
    attendee_changes_until = '2025-03-14 23:59',
    receipt_prefix = 'ICSIFT',
    seller_name = 'Sampaguita Research & Publications Inc.',
    seller_address = '1150 Taft Avenue, Ermita, Manila 1000, Philippines',
    seller_tax_number = 'TIN 000-000-000-000',
    invoice_wording = 0
WHERE id = 1;

-- -----------------------------------------------------------------------------
-- Important dates (the home timeline, ascending `created` = chronological)
-- -----------------------------------------------------------------------------

INSERT INTO dates (id, date, title, description, created, updated) VALUES
('date-abstract-deadline', '2025-02-28', 'Abstract Submission Deadline', 'Last day to submit an abstract (250-300 words) through the submission page.', '2024-11-01T08:00:00Z', '2024-11-01T08:00:00Z'),
('date-notification', '2025-03-07', 'Notification of Acceptance', 'Authors receive the review decision and presentation details by e-mail.', '2024-11-01T08:01:00Z', '2024-11-01T08:01:00Z'),
('date-registration-deadline', '2025-03-15', 'Registration Deadline', 'Presenters register by this date for their paper to appear in the programme. Listener registration stays open until the conference.', '2024-11-01T08:02:00Z', '2024-11-01T08:02:00Z'),
('date-paper-due', '2025-03-18', 'Full Paper Submission Due', 'Last day to submit the full paper (PDF or Word) for review and publication.', '2024-11-01T08:03:00Z', '2024-11-01T08:03:00Z'),
('date-day-1', '2025-03-21', 'Conference Day 1', 'Registration, opening ceremony, keynote addresses and technical sessions.', '2024-11-01T08:04:00Z', '2024-11-01T08:04:00Z'),
('date-day-2', '2025-03-22', 'Conference Day 2', 'Keynote address, parallel technical sessions, poster session and workshops.', '2024-11-01T08:05:00Z', '2024-11-01T08:05:00Z'),
('date-day-3', '2025-03-23', 'Conference Day 3', 'Virtual sessions, panel discussion, awards ceremony and closing.', '2024-11-01T08:06:00Z', '2024-11-01T08:06:00Z');

-- -----------------------------------------------------------------------------
-- Committee
-- SAMPLE: every member below is an illustrative placeholder (placeholder names
-- such as Juan dela Cruz, Erika Mustermann or Nguyen Van A; invented
-- institutions). Listed newest `created` first within each group, so the first
-- member of each group below has the latest timestamp. img NULL = placeholder.
-- -----------------------------------------------------------------------------

INSERT INTO committee (id, committee, name, designation, details, country, img, created, updated) VALUES
('cm-core-1', 'Core Committee', 'Prof. Juan dela Cruz', 'Conference Chair', 'Professor of Environmental Engineering, Bayanihan University of Manila', 'Philippines', '/static/img/committee/juan-dela-cruz.svg', '2024-10-01T09:05:00Z', '2024-10-01T09:05:00Z'),
('cm-core-2', 'Core Committee', 'Dr. Maria Clara Santos', 'Conference Co-Chair', 'Director, Centre for Climate Resilience, Lakandula State University', 'Philippines', '/static/img/committee/maria-clara-santos.svg', '2024-10-01T09:04:00Z', '2024-10-01T09:04:00Z'),
('cm-core-3', 'Core Committee', 'Dr. Taro Yamada', 'Technical Programme Chair', 'Associate Professor, Graduate School of Environmental Studies, Kanto Institute of Technology', 'Japan', '/static/img/committee/taro-yamada.svg', '2024-10-01T09:03:00Z', '2024-10-01T09:03:00Z'),
('cm-core-4', 'Core Committee', 'Dr. Jan Kowalski', 'Publication Chair', 'Associate Professor of Materials Science, Vistula University of Technology', 'Poland', NULL, '2024-10-01T09:02:00Z', '2024-10-01T09:02:00Z'),
('cm-core-5', 'Core Committee', 'Ms. Ana Reyes', 'Conference Secretary', 'Research Coordinator, Sampaguita Research & Publications Inc.', 'Philippines', NULL, '2024-10-01T09:01:00Z', '2024-10-01T09:01:00Z'),

('cm-edu-1', 'Advisory Board - Education', 'Prof. Erika Mustermann', 'Chair, Advisory Board - Education', 'Professor of Education for Sustainable Development, Rhineland University of Education', 'Germany', '/static/img/committee/erika-mustermann.svg', '2024-10-01T08:04:00Z', '2024-10-01T08:04:00Z'),
('cm-edu-2', 'Advisory Board - Education', 'Dr. Nguyen Van A', 'Advisory Board Member', 'Dean, Faculty of Teacher Education, Red River University of Education', 'Vietnam', '/static/img/committee/nguyen-van-a.svg', '2024-10-01T08:03:00Z', '2024-10-01T08:03:00Z'),
('cm-edu-3', 'Advisory Board - Education', 'Dr. Siti binti Abdullah', 'Advisory Board Member', 'Senior Lecturer, School of Educational Studies, Straits University', 'Malaysia', NULL, '2024-10-01T08:02:00Z', '2024-10-01T08:02:00Z'),
('cm-edu-4', 'Advisory Board - Education', 'Prof. Joe Bloggs', 'Advisory Board Member', 'Professor of Science Education, University of Eastbridge', 'United Kingdom', '/static/img/committee/joe-bloggs.svg', '2024-10-01T08:01:00Z', '2024-10-01T08:01:00Z'),

('cm-mgmt-1', 'Advisory Board - Management', 'Prof. John Q. Public', 'Chair, Advisory Board - Management', 'Professor of Sustainable Business, Great Lakes School of Management', 'United States', '/static/img/committee/john-q-public.svg', '2024-10-01T07:04:00Z', '2024-10-01T07:04:00Z'),
('cm-mgmt-2', 'Advisory Board - Management', 'Dr. Mario Rossi', 'Advisory Board Member', 'Associate Professor of Operations Management, Po Valley Business School', 'Italy', NULL, '2024-10-01T07:03:00Z', '2024-10-01T07:03:00Z'),
('cm-mgmt-3', 'Advisory Board - Management', 'Dr. Ramesh Kumar', 'Advisory Board Member', 'Professor of Strategic Management, Deccan Institute of Management Studies', 'India', '/static/img/committee/ramesh-kumar.svg', '2024-10-01T07:02:00Z', '2024-10-01T07:02:00Z'),
('cm-mgmt-4', 'Advisory Board - Management', 'Dr. Budi Santoso', 'Advisory Board Member', 'Lecturer in Green Supply Chain Management, Nusantara School of Business', 'Indonesia', NULL, '2024-10-01T07:01:00Z', '2024-10-01T07:01:00Z'),

('cm-eng-1', 'Advisory Board - Engineering', 'Prof. Jean Dupont', 'Chair, Advisory Board - Engineering', 'Professor of Energy Systems, Loire Valley Institute of Technology', 'France', '/static/img/committee/jean-dupont.svg', '2024-10-01T06:05:00Z', '2024-10-01T06:05:00Z'),
('cm-eng-2', 'Advisory Board - Engineering', 'Dr. Kim Cheol-su', 'Advisory Board Member', 'Principal Researcher, Han River Institute of Energy Technology', 'South Korea', '/static/img/committee/kim-cheol-su.svg', '2024-10-01T06:04:00Z', '2024-10-01T06:04:00Z'),
('cm-eng-3', 'Advisory Board - Engineering', 'Dr. Juan Perez', 'Advisory Board Member', 'Associate Professor of Civil and Environmental Engineering, Andes Technical University', 'Chile', NULL, '2024-10-01T06:03:00Z', '2024-10-01T06:03:00Z'),
('cm-eng-4', 'Advisory Board - Engineering', 'Engr. Pedro Santos', 'Advisory Board Member', 'Senior Lecturer in Electrical Engineering, Kalayaan Polytechnic College', 'Philippines', '/static/img/committee/pedro-santos.svg', '2024-10-01T06:02:00Z', '2024-10-01T06:02:00Z'),
('cm-eng-5', 'Advisory Board - Engineering', 'Dr. Sven Svensson', 'Advisory Board Member', 'Associate Professor of Industrial Ecology, Nordic Institute of Technology', 'Sweden', NULL, '2024-10-01T06:01:00Z', '2024-10-01T06:01:00Z');

-- -----------------------------------------------------------------------------
-- The programme (/schedule, /schedule/sessions/<slug>, /schedule.ics): rooms,
-- tracks and sessions.
--   rooms     slug, name, position (the order filters and lists use)
--   tracks    slug, name, position
--   sessions  slug (its page's address: lower case, digits and hyphens; keep it
--             once published, calendars know a session by it), title,
--             description, kind (keynote, technical, poster, workshop, panel,
--             ceremony, break, social), track (a track's slug, or NULL for a
--             session for everyone), room (a room's slug), starts_at and
--             ends_at ('YYYY-MM-DD HH:MM' in site.time_zone, Asia/Manila),
--             mode (in_person, online, hybrid), chair (a public name, or NULL)
-- `conference seed` refuses an unknown time zone, a session that does not end
-- after it starts, and a room holding two sessions at the same time, naming
-- them. The online room is where online-only sessions are streamed.
-- SAMPLE: the chairs are the sample speakers below.
-- -----------------------------------------------------------------------------

INSERT INTO rooms (slug, name, position) VALUES
('grand-hall', 'Grand Convention Hall', 1),
('room-201', 'Room 201', 2),
('room-202', 'Room 202', 3),
('room-203', 'Room 203', 4),
('exhibition-hall', 'Exhibition Hall', 5),
('main-lobby', 'Main Lobby', 6),
('dining-hall', 'University Dining Hall', 7),
('garden', 'University Garden', 8),
('arboretum', 'University Arboretum', 9),
('online-stage', 'Online stage', 10);

INSERT INTO tracks (slug, name, position) VALUES
('climate-change', 'Climate Change', 1),
('renewable-energy', 'Renewable Energy', 2),
('circular-economy', 'Circular Economy', 3),
('smart-technologies', 'Smart Technologies', 4);

INSERT INTO sessions (slug, title, description, kind, track, room, starts_at, ends_at, mode, chair, created, updated) VALUES
('registration-day-1', 'Registration and welcome kits', 'Collect your badge, programme and welcome kit.', 'break', NULL, 'main-lobby', '2025-03-21 08:00', '2025-03-21 09:00', 'in_person', NULL, '2024-12-01T08:00:00Z', '2024-12-01T08:00:00Z'),
('opening-ceremony', 'Opening ceremony and welcome addresses', 'The conference opens with welcome addresses from the organisers, the host university and the endorsing association.', 'ceremony', NULL, 'grand-hall', '2025-03-21 09:00', '2025-03-21 09:45', 'hybrid', 'Dr. Maria Lourdes Garcia', '2024-12-01T08:01:00Z', '2024-12-01T08:01:00Z'),
('keynote-renewable-energy-island-nations', 'Keynote: Renewable energy systems for island nations', 'How island grids move to renewable energy: storage, interconnection and community ownership.', 'keynote', 'renewable-energy', 'grand-hall', '2025-03-21 09:45', '2025-03-21 10:30', 'hybrid', 'Dr. Matti Meikalainen', '2024-12-01T08:02:00Z', '2024-12-01T08:02:00Z'),
('coffee-break-day-1', 'Coffee break and networking', 'Coffee, tea and time to meet other participants.', 'break', NULL, 'main-lobby', '2025-03-21 10:30', '2025-03-21 10:45', 'in_person', NULL, '2024-12-01T08:03:00Z', '2024-12-01T08:03:00Z'),
('technical-1a-climate-change', 'Technical session 1A: Climate Change', 'Oral presentations of accepted papers on climate change.', 'technical', 'climate-change', 'room-201', '2025-03-21 10:45', '2025-03-21 12:15', 'hybrid', 'Dr. Maria Lourdes Garcia', '2024-12-01T08:04:00Z', '2024-12-01T08:04:00Z'),
('technical-1b-renewable-energy', 'Technical session 1B: Renewable Energy', 'Oral presentations of accepted papers on renewable energy.', 'technical', 'renewable-energy', 'room-202', '2025-03-21 10:45', '2025-03-21 12:15', 'hybrid', 'Dr. Matti Meikalainen', '2024-12-01T08:04:30Z', '2024-12-01T08:04:30Z'),
('lunch-day-1', 'Lunch', 'Lunch for in-person participants.', 'break', NULL, 'dining-hall', '2025-03-21 12:15', '2025-03-21 13:30', 'in_person', NULL, '2024-12-01T08:05:00Z', '2024-12-01T08:05:00Z'),
('keynote-circular-economy-in-practice', 'Keynote: Circular economy in practice', 'Lessons from industrial parks that reuse their waste streams.', 'keynote', 'circular-economy', 'grand-hall', '2025-03-21 13:30', '2025-03-21 14:15', 'hybrid', 'Dr. Ali bin Abu', '2024-12-01T08:06:00Z', '2024-12-01T08:06:00Z'),
('technical-2a-circular-economy', 'Technical session 2A: Circular Economy', 'Oral presentations of accepted papers on the circular economy.', 'technical', 'circular-economy', 'room-201', '2025-03-21 14:15', '2025-03-21 16:00', 'hybrid', 'Dr. Ali bin Abu', '2024-12-01T08:07:00Z', '2024-12-01T08:07:00Z'),
('technical-2b-smart-technologies', 'Technical session 2B: Smart Technologies', 'Oral presentations of accepted papers on smart technologies for sustainability.', 'technical', 'smart-technologies', 'room-202', '2025-03-21 14:15', '2025-03-21 16:00', 'hybrid', 'Dr. Matti Meikalainen', '2024-12-01T08:07:30Z', '2024-12-01T08:07:30Z'),
('welcome-reception', 'Welcome reception', 'Drinks and music in the garden for in-person participants.', 'social', NULL, 'garden', '2025-03-21 16:00', '2025-03-21 17:30', 'in_person', NULL, '2024-12-01T08:08:00Z', '2024-12-01T08:08:00Z'),

('registration-day-2', 'Morning registration', 'Badges for participants arriving on the second day.', 'break', NULL, 'main-lobby', '2025-03-22 08:30', '2025-03-22 09:00', 'in_person', NULL, '2024-12-01T08:09:00Z', '2024-12-01T08:09:00Z'),
('keynote-climate-science-decision-makers', 'Keynote: Climate science for decision makers', 'Turning climate projections into decisions a city council can take.', 'keynote', 'climate-change', 'grand-hall', '2025-03-22 09:00', '2025-03-22 09:45', 'hybrid', 'Dr. Maria Lourdes Garcia', '2024-12-01T08:10:00Z', '2024-12-01T08:10:00Z'),
('technical-3a-climate-change', 'Technical session 3A: Climate Change', 'Oral presentations of accepted papers on climate change.', 'technical', 'climate-change', 'room-201', '2025-03-22 09:45', '2025-03-22 12:00', 'hybrid', 'Dr. Maria Lourdes Garcia', '2024-12-01T08:11:00Z', '2024-12-01T08:11:00Z'),
('technical-3b-renewable-energy', 'Technical session 3B: Renewable Energy', 'Oral presentations of accepted papers on renewable energy.', 'technical', 'renewable-energy', 'room-202', '2025-03-22 09:45', '2025-03-22 12:00', 'hybrid', 'Dr. Matti Meikalainen', '2024-12-01T08:11:10Z', '2024-12-01T08:11:10Z'),
('technical-3c-circular-economy', 'Technical session 3C: Circular Economy', 'Oral presentations of accepted papers on the circular economy.', 'technical', 'circular-economy', 'room-203', '2025-03-22 09:45', '2025-03-22 12:00', 'hybrid', 'Dr. Ali bin Abu', '2024-12-01T08:11:20Z', '2024-12-01T08:11:20Z'),
('lunch-day-2', 'Lunch', 'Lunch for in-person participants.', 'break', NULL, 'dining-hall', '2025-03-22 12:00', '2025-03-22 13:15', 'in_person', NULL, '2024-12-01T08:12:00Z', '2024-12-01T08:12:00Z'),
('poster-session', 'Poster session', 'Authors present their posters; walk the hall and ask questions.', 'poster', NULL, 'exhibition-hall', '2025-03-22 13:15', '2025-03-22 14:45', 'in_person', 'Dr. Ali bin Abu', '2024-12-01T08:13:00Z', '2024-12-01T08:13:00Z'),
('workshop-life-cycle-assessment', 'Workshop: Life-cycle assessment', 'A hands-on introduction to life-cycle assessment of products and services.', 'workshop', 'circular-economy', 'room-201', '2025-03-22 14:45', '2025-03-22 16:30', 'hybrid', 'Dr. Ali bin Abu', '2024-12-01T08:14:00Z', '2024-12-01T08:14:00Z'),
('workshop-writing-for-scopus-journals', 'Workshop: Writing for Scopus indexed journals', 'How to prepare a manuscript for a Scopus indexed journal, from structure to review.', 'workshop', NULL, 'room-202', '2025-03-22 14:45', '2025-03-22 16:30', 'hybrid', 'Dr. Maria Lourdes Garcia', '2024-12-01T08:14:30Z', '2024-12-01T08:14:30Z'),
('tree-planting', 'Tree-planting activity', 'Participants plant native trees in the university arboretum.', 'social', NULL, 'arboretum', '2025-03-22 16:30', '2025-03-22 17:30', 'in_person', NULL, '2024-12-01T08:15:00Z', '2024-12-01T08:15:00Z'),

('virtual-presentations', 'Virtual presentation sessions', 'Online presentations of accepted papers by authors who attend virtually.', 'technical', NULL, 'online-stage', '2025-03-23 09:00', '2025-03-23 11:00', 'online', 'Dr. Matti Meikalainen', '2024-12-01T08:16:00Z', '2024-12-01T08:16:00Z'),
('panel-financing-green-transition', 'Panel discussion: Financing the green transition', 'Bankers, researchers and policymakers on paying for the energy transition.', 'panel', NULL, 'grand-hall', '2025-03-23 11:00', '2025-03-23 12:00', 'hybrid', 'Dr. Maria Lourdes Garcia', '2024-12-01T08:17:00Z', '2024-12-01T08:17:00Z'),
('lunch-day-3', 'Lunch', 'Lunch for in-person participants.', 'break', NULL, 'dining-hall', '2025-03-23 12:00', '2025-03-23 13:00', 'in_person', NULL, '2024-12-01T08:18:00Z', '2024-12-01T08:18:00Z'),
('awards-ceremony', 'Awards ceremony', 'The best paper, presentation and sustainability awards.', 'ceremony', NULL, 'grand-hall', '2025-03-23 13:00', '2025-03-23 14:30', 'hybrid', 'Dr. Ali bin Abu', '2024-12-01T08:19:00Z', '2024-12-01T08:19:00Z'),
('closing-ceremony', 'Closing ceremony and ICSIFT 2026 announcement', 'Closing words and the place and dates of the next edition.', 'ceremony', NULL, 'grand-hall', '2025-03-23 14:30', '2025-03-23 15:30', 'hybrid', 'Dr. Maria Lourdes Garcia', '2024-12-01T08:20:00Z', '2024-12-01T08:20:00Z');

-- -----------------------------------------------------------------------------
-- Speakers (tabs by category: guest = Guest of Honor, keynote = Keynote
-- Speaker, session = Session Chair; ordered by position)
-- SAMPLE: every speaker below is an illustrative placeholder with an invented
-- institution and biography.
-- -----------------------------------------------------------------------------

INSERT INTO speakers (id, position, category, name, role, image, bio, created, updated) VALUES
('spk-juana-dela-cruz', 1, 'guest', 'Dr. Juana dela Cruz', 'President, National Association of State Universities and Colleges', '/static/img/speakers/juana-dela-cruz.svg',
 'Dr. Juana dela Cruz leads the National Association of State Universities and Colleges, which brings together public higher education institutions across the Philippines. A former university president and professor of agricultural economics, she has championed research partnerships between state universities and local governments. She will open the conference with a message on the role of public universities in the climate transition.',
 '2024-11-15T08:00:00Z', '2024-11-15T08:00:00Z'),
('spk-fred-nurk', 2, 'guest', 'Prof. Fred Nurk', 'Vice-Chancellor, Coral Coast University, Australia', '/static/img/speakers/fred-nurk.svg',
 'Professor Fred Nurk is Vice-Chancellor of Coral Coast University, where he started a campus-wide programme that reached net-zero operations in 2023. Trained as a marine ecologist, he spent fifteen years studying reef recovery in the Pacific before moving into university leadership. He speaks on how institutions can lead by example.',
 '2024-11-15T08:01:00Z', '2024-11-15T08:01:00Z'),

('spk-ola-nordmann', 3, 'keynote', 'Prof. Ola Nordmann', 'Professor of Renewable Energy Systems, Fjordland University of Science and Technology, Norway', '/static/img/speakers/ola-nordmann.svg',
 'Professor Ola Nordmann researches how hydropower, wind and solar can be combined into stable grids for remote and island communities. His group has designed hybrid micro-grids for coastal villages in Norway, Indonesia and the Philippines. He has published more than 120 journal papers and advises regional energy agencies. His keynote looks at renewable energy systems for island nations.',
 '2024-11-15T08:02:00Z', '2024-11-15T08:02:00Z'),
('spk-zhang-san', 4, 'keynote', 'Dr. Zhang San', 'Chief Scientist, Pearl River Institute for Circular Economy, China', '/static/img/speakers/zhang-san.svg',
 'Dr. Zhang San studies material flows in manufacturing regions and how industrial parks can share energy, water and by-products. She led the design of an eco-industrial park that reuses most of its process water. Her keynote, Circular economy in practice, presents lessons from a decade of industrial symbiosis projects.',
 '2024-11-15T08:03:00Z', '2024-11-15T08:03:00Z'),
('spk-fulana-de-tal', 5, 'keynote', 'Prof. Fulana de Tal', 'Professor of Climate Science, Atlantic Federal University, Brazil', '/static/img/speakers/fulana-de-tal.svg',
 'Professor Fulana de Tal is a climate scientist who works on regional climate projections and their use in city planning. She has contributed to national adaptation plans and trains municipal staff to read and apply climate data. Her keynote explains how decision makers can use climate science under uncertainty.',
 '2024-11-15T08:04:00Z', '2024-11-15T08:04:00Z'),

('spk-matti-meikalainen', 6, 'session', 'Dr. Matti Meikalainen', 'Senior Researcher, Baltic Energy Research Centre, Finland', '/static/img/speakers/matti-meikalainen.svg',
 'Dr. Matti Meikalainen works on smart grids, demand response and the integration of electric vehicles into distribution networks. He has coordinated several international research projects on flexible energy systems. He chairs the Smart Technologies sessions.',
 '2024-11-15T08:05:00Z', '2024-11-15T08:05:00Z'),
('spk-ali-bin-abu', 7, 'session', 'Dr. Ali bin Abu', 'Associate Professor of Chemical Engineering, Straits University, Malaysia', '/static/img/speakers/ali-bin-abu.svg',
 'Dr. Ali bin Abu develops low-cost processes that turn agricultural waste such as palm fronds and rice husks into bio-based materials. He has worked with smallholder cooperatives to pilot these processes in rural mills. He chairs the Circular Economy sessions.',
 '2024-11-15T08:06:00Z', '2024-11-15T08:06:00Z'),
('spk-maria-lourdes-garcia', 8, 'session', 'Dr. Maria Lourdes Garcia', 'Associate Professor of Environmental Science, Lakandula State University, Philippines', '/static/img/speakers/maria-lourdes-garcia.svg',
 'Dr. Maria Lourdes Garcia studies coastal flooding and community-based adaptation in Philippine cities. Her fieldwork with barangay disaster-risk offices has shaped local early-warning practices. She chairs the Climate Change sessions.',
 '2024-11-15T08:07:00Z', '2024-11-15T08:07:00Z');

-- Who gives each keynote session (issue 31 item 2): a speaker above, shown as the session's talk.
UPDATE sessions SET speaker = 'spk-ola-nordmann' WHERE slug = 'keynote-renewable-energy-island-nations';
UPDATE sessions SET speaker = 'spk-zhang-san' WHERE slug = 'keynote-circular-economy-in-practice';
UPDATE sessions SET speaker = 'spk-fulana-de-tal' WHERE slug = 'keynote-climate-science-decision-makers';

-- -----------------------------------------------------------------------------
-- Co-organizer logos (newest `created` first)
-- SAMPLE: invented institutions.
-- -----------------------------------------------------------------------------

INSERT INTO co_organizers_img (id, img_url, img_title, created, updated) VALUES
('co-bayanihan', '/static/img/logos/bayanihan-university.svg', 'Bayanihan University of Manila', '2024-10-15T08:03:00Z', '2024-10-15T08:03:00Z'),
('co-lakandula', '/static/img/logos/lakandula-state-university.svg', 'Lakandula State University', '2024-10-15T08:02:00Z', '2024-10-15T08:02:00Z'),
('co-kalayaan', '/static/img/logos/kalayaan-polytechnic.svg', 'Kalayaan Polytechnic College', '2024-10-15T08:01:00Z', '2024-10-15T08:01:00Z'),
('co-sampaguita', '/static/img/logos/sampaguita-research.svg', 'Sampaguita Research & Publications Inc.', '2024-10-15T08:00:00Z', '2024-10-15T08:00:00Z');

-- -----------------------------------------------------------------------------
-- Conference materials (download buttons, newest `created` first). `link` is a
-- file name under static/materials/. Titles are trimmed when shown: the stray
-- spaces around ' Call for Papers ' are deliberate and harmless.
-- -----------------------------------------------------------------------------

INSERT INTO download_buttons (id, title, link, created, updated) VALUES
('dl-brochure', 'Conference Brochure', 'icsift-2025-brochure.pdf', '2024-11-20T08:02:00Z', '2024-11-20T08:02:00Z'),
('dl-call-for-papers', ' Call for Papers ', 'icsift-2025-call-for-papers.pdf', '2024-11-20T08:01:00Z', '2024-11-20T08:01:00Z'),
('dl-sponsorship', 'Sponsorship Prospectus', 'icsift-2025-sponsorship-prospectus.pdf', '2024-11-20T08:00:00Z', '2024-11-20T08:00:00Z');

-- -----------------------------------------------------------------------------
-- Sponsor logos (hero) and partner logos (/AboutUs)
-- SAMPLE: invented organisations; URLs use the reserved example.com domain.
-- -----------------------------------------------------------------------------

INSERT INTO partners (id, kind, name, logo, url, position) VALUES
('sp-solaris', 'sponsor', 'Solaris Grid Energy Corp.', '/static/img/logos/solaris-grid.svg', 'https://solaris-grid.example.com', 1),
('sp-ecocycle', 'sponsor', 'EcoCycle Materials Inc.', '/static/img/logos/ecocycle-materials.svg', 'https://ecocycle.example.com', 2),
('sp-blueharbor', 'sponsor', 'BlueHarbor Water Systems', '/static/img/logos/blueharbor-water.svg', 'https://blueharbor.example.com', 3),
('pt-green-campus', 'partner', 'Green Campus Network Asia', '/static/img/logos/green-campus-network.svg', 'https://green-campus.example.com', 1),
('pt-apcef', 'partner', 'Asia-Pacific Circular Economy Forum', '/static/img/logos/apcef.svg', 'https://apcef.example.com', 2),
('pt-young-researchers', 'partner', 'Young Researchers Society of the Philippines', '/static/img/logos/young-researchers.svg', 'https://young-researchers.example.com', 3),
('pt-open-climate', 'partner', 'Open Climate Data Alliance', '/static/img/logos/open-climate-data.svg', 'https://open-climate.example.com', 4),
('pt-reforest', 'partner', 'Sierra Madre Reforestation Trust', '/static/img/logos/sierra-madre-reforestation.svg', 'https://reforestation-trust.example.com', 5);

-- -----------------------------------------------------------------------------
-- Ticket plans (spec section 9; USD, cents). The id is the plan id the payment
-- API takes; the server charges these amounts, never the browser's.
-- -----------------------------------------------------------------------------

INSERT INTO ticket_plans (id, audience, title, description, price_cents, currency, features, price_subtext, theme, attendance, position) VALUES
('presenter-virtual', 'presenter', 'Presenter Virtual', 'Present your paper online and take part in every session from anywhere.', 21900, 'USD', 'Conference Tickets
Certificates
Easy Access
Paid Membership', 'per presenter; journal publication fee separate', 'light', 'virtual', 1),
('presenter-physical', 'presenter', 'Presenter Physical', 'Present your paper in person in Manila, with conference kit, meals and networking events.', 31900, 'USD', 'Conference Tickets
Certificates
Easy Access
Paid Membership', 'per presenter; journal publication fee separate', 'featured', 'physical', 2),
('listener-virtual', 'listener', 'Listener Virtual', 'Attend every session online, ask questions and join the virtual networking rooms.', 9900, 'USD', 'Conference Tickets
Certificates
Easy Access
Paid Membership', 'per attendee', 'light', 'virtual', 3),
('listener-physical', 'listener', 'Listener Physical', 'Attend in person in Manila, with conference kit, meals and networking events.', 19900, 'USD', 'Conference Tickets
Certificates
Easy Access
Paid Membership', 'per attendee', 'featured', 'physical', 4);

-- -----------------------------------------------------------------------------
-- Sponsor packages (spec section 9; USD, cents). Benefits one per line, as the
-- spec lists them. icon: an icon name the templates map to an inline icon.
-- -----------------------------------------------------------------------------

INSERT INTO sponsor_packages (id, title, price_cents, currency, benefits, icon, position) VALUES
('platinum', 'Platinum', 1500000, 'USD', '1 VIP
Registration for 12 students and 5 faculty
Stage honor
Full-page ad
Media coverage
2 video bites', '/static/img/icons/crown.svg', 1),
('diamond', 'Diamond', 1200000, 'USD', 'Session chair
Registration for 10 students and 3 faculty
Full-page ad
5-minute media slot
1 video', '/static/img/icons/gem.svg', 2),
('gold', 'Gold', 1000000, 'USD', 'Registration for 8 students and 2 faculty
Full-page ad
Anchor
Standee', '/static/img/icons/medal.svg', 3),
('silver', 'Silver', 750000, 'USD', 'Registration for 5 students and 1 faculty
2 volunteers
Half-page ad
Print media', '/static/img/icons/award.svg', 4);

-- -----------------------------------------------------------------------------
-- Highlights (three home cards, /highlights/{slug}) and their topics
-- -----------------------------------------------------------------------------

INSERT INTO highlights (slug, title, summary, image, position) VALUES
('sustainable-technologies', 'Sustainable Technologies', 'Clean energy, green buildings, water and food systems: technologies that cut emissions and waste while improving lives.', '/static/img/highlights/sustainable-technologies.svg', 1),
('innovation-sustainable-future', 'Innovation for a Sustainable Future', 'Business models, policy, finance and education that turn sustainability research into lasting change.', '/static/img/highlights/innovation-sustainable-future.svg', 2),
('smart-future-technologies', 'Smart Future Technologies', 'Artificial intelligence, the Internet of Things, smart grids and new materials for resilient, low-carbon societies.', '/static/img/highlights/smart-future-technologies.svg', 3);

INSERT INTO highlight_topics (id, highlight_slug, title, description, position) VALUES
('ht-st-1', 'sustainable-technologies', 'Renewable Energy Generation and Storage', 'Solar, wind, hydro, geothermal and bioenergy systems, batteries and hydrogen, and their integration into grids and micro-grids.', 1),
('ht-st-2', 'sustainable-technologies', 'Green Buildings and Low-Carbon Construction', 'Energy-efficient design, passive cooling for tropical climates, low-carbon materials and building retrofits.', 2),
('ht-st-3', 'sustainable-technologies', 'Water and Wastewater Technologies', 'Treatment, reuse and desalination, rainwater harvesting and nature-based solutions for water security.', 3),
('ht-st-4', 'sustainable-technologies', 'Sustainable Agriculture and Food Systems', 'Climate-smart farming, aquaculture, post-harvest technologies and reducing food loss and waste.', 4),
('ht-st-5', 'sustainable-technologies', 'Carbon Capture, Utilisation and Storage', 'Technologies and natural sinks that remove or reuse carbon dioxide, and how to measure them.', 5),

('ht-isf-1', 'innovation-sustainable-future', 'Circular Business Models', 'Product-as-a-service, reuse and repair, industrial symbiosis and extended producer responsibility.', 1),
('ht-isf-2', 'innovation-sustainable-future', 'Climate Policy, Governance and Finance', 'Carbon pricing, green bonds, climate disclosure and the policies that speed up the transition.', 2),
('ht-isf-3', 'innovation-sustainable-future', 'Social Innovation and Community Resilience', 'Community-led adaptation, disaster risk reduction and inclusive solutions for vulnerable groups.', 3),
('ht-isf-4', 'innovation-sustainable-future', 'Education for Sustainable Development', 'Curricula, teaching methods and campus initiatives that prepare students for green careers.', 4),
('ht-isf-5', 'innovation-sustainable-future', 'Green Entrepreneurship', 'Start-ups, incubators and small businesses that bring sustainable products and services to market.', 5),

('ht-sft-1', 'smart-future-technologies', 'Artificial Intelligence for Climate Action', 'Machine learning for forecasting, energy optimisation, climate modelling and environmental monitoring.', 1),
('ht-sft-2', 'smart-future-technologies', 'Internet of Things and Smart Cities', 'Sensor networks, smart mobility, smart water and waste systems, and data platforms for cities.', 2),
('ht-sft-3', 'smart-future-technologies', 'Smart Grids and Electric Mobility', 'Demand response, vehicle-to-grid, charging infrastructure and digital control of distribution networks.', 3),
('ht-sft-4', 'smart-future-technologies', 'Remote Sensing and Digital Twins', 'Satellite and drone data, geographic information systems and digital twins for planning and monitoring.', 4),
('ht-sft-5', 'smart-future-technologies', 'Advanced and Bio-Based Materials', 'Biodegradable plastics, recycled composites, nanomaterials and materials for clean energy devices.', 5),
('ht-sft-6', 'smart-future-technologies', 'Blockchain and Supply-Chain Transparency', 'Traceability, carbon accounting and verification of sustainable sourcing.', 6);

-- -----------------------------------------------------------------------------
-- Awards (/awards). icon: an icon name the templates map to an inline icon.
-- -----------------------------------------------------------------------------

INSERT INTO awards (id, kind, title, description, icon, position) VALUES
('award-best-presentation', 'main', 'Best Paper Presentation', 'For the presenter who communicates research most clearly and engagingly, judged on structure, clarity, use of time and answers to questions. Given in each technical session, in person and online.', '/static/img/icons/presentation.svg', 1),
('award-best-paper', 'main', 'Best Paper', 'For the most original, rigorous and significant full paper, selected by the technical programme committee on novelty, methodology, results and relevance to sustainability.', '/static/img/icons/trophy.svg', 2),
('award-best-student', 'main', 'Best Interpretation Student Presentation', 'For the undergraduate or postgraduate student who best interprets their findings and explains what they mean for policy, industry or communities.', '/static/img/icons/graduation-cap.svg', 3),
('award-green-innovation', 'sustainability', 'Green Innovation', 'For a technology, product or process that measurably reduces emissions, energy use or waste and is ready to scale.', '/static/img/icons/leaf.svg', 1),
('award-community-impact', 'sustainability', 'Community Impact', 'For a project that has improved the resilience, health or livelihoods of a community through sustainable practice.', '/static/img/icons/users.svg', 2),
('award-circular-economy', 'sustainability', 'Circular Economy Champion', 'For an organisation or researcher who has kept materials in use and designed waste out of a product, service or supply chain.', '/static/img/icons/recycle.svg', 3);

-- -----------------------------------------------------------------------------
-- Goals (the home page's draggable row of five)
-- -----------------------------------------------------------------------------

INSERT INTO goals (id, title, description, icon, position) VALUES
('goal-climate-action', 'Climate Action', 'Turn climate research into mitigation and adaptation measures that cities and communities can use.', '/static/img/icons/cloud-sun.svg', 1),
('goal-clean-energy', 'Affordable and Clean Energy', 'Speed up the shift to reliable, affordable renewable energy for homes, industry and islands.', '/static/img/icons/sun.svg', 2),
('goal-circular-economy', 'Circular Economy', 'Design waste out of products and supply chains and keep materials in use for longer.', '/static/img/icons/recycle.svg', 3),
('goal-partnerships', 'Partnerships for the Goals', 'Connect universities, industry, government and civil society around shared sustainability projects.', '/static/img/icons/handshake.svg', 4),
('goal-education', 'Quality Education', 'Equip students and young researchers with the skills, mentors and networks for green careers.', '/static/img/icons/graduation-cap.svg', 5);

-- -----------------------------------------------------------------------------
-- Objectives (home)
-- -----------------------------------------------------------------------------

INSERT INTO objectives (id, title, description, icon, position) VALUES
('obj-knowledge', 'Promote Knowledge Exchange', 'Provide a forum where researchers, practitioners and policymakers share findings, methods and lessons learned across disciplines and borders.', '/static/img/icons/book-open.svg', 1),
('obj-collaboration', 'Foster Collaboration', 'Build lasting partnerships between academia, industry and government that lead to joint research, projects and funding.', '/static/img/icons/users.svg', 2),
('obj-sustainable-practices', 'Support Sustainable Practices', 'Encourage the adoption of proven solutions for climate change, renewable energy and the circular economy in organisations and communities.', '/static/img/icons/leaf.svg', 3),
('obj-visibility', 'Enhance Research Visibility', 'Give authors an international audience, with selected papers processed for Scopus indexed journals or proceedings.', '/static/img/icons/eye.svg', 4);

-- -----------------------------------------------------------------------------
-- Statistics: 'home' = the home strip (spec section 3); 'impact' = /AboutUs.
-- The spec's claims differ between the two (200+ vs 500+ participants); both
-- are kept as the spec states them.
-- -----------------------------------------------------------------------------

INSERT INTO statistics (id, section, label, value, position) VALUES
('stat-home-participants', 'home', 'Participants', '200+', 1),
('stat-home-awards', 'home', 'Awards', '15+', 2),
('stat-home-academicians', 'home', 'Certified Academicians', '55+', 3),
('stat-home-scholars', 'home', 'Research Scholars', '125+', 4),
('stat-home-professionals', 'home', 'Industrial Professionals', '10+', 5),
('stat-home-countries', 'home', 'Participating Countries', '10+', 6),
('stat-impact-participants', 'impact', 'Participants', '500+', 1),
('stat-impact-attendees', 'impact', 'Attendees from over 100 countries', '5,000+', 2),
('stat-impact-presentations', 'impact', 'Presentations and workshops', '250+', 3),
('stat-impact-partners', 'impact', 'Partner organisations', '50+', 4);

-- -----------------------------------------------------------------------------
-- About lists: why_attend, who_can_attend (/AboutUs, /AboutConference) and
-- registration_step (/pricing, five steps)
-- -----------------------------------------------------------------------------

INSERT INTO about_items (id, section, title, description, position) VALUES
('why-present', 'why_attend', 'Present to an International Audience', 'Share your work with academicians, researchers and professionals from more than 10 countries, in person in Manila or online.', 1),
('why-publish', 'why_attend', 'Publication Opportunities', 'Selected papers will be processed for Scopus indexed journals or proceedings.', 2),
('why-learn', 'why_attend', 'Learn from Leading Experts', 'Keynote addresses, panel discussions and hands-on workshops on climate change, renewable energy and the circular economy.', 3),
('why-network', 'why_attend', 'Network and Collaborate', 'Meet potential co-authors, industry partners, funders and policymakers during sessions, breaks and the welcome reception.', 4),
('why-recognition', 'why_attend', 'Recognition and Certificates', 'Every participant receives a certificate, and outstanding papers and presentations compete for 15+ awards.', 5),
('why-green', 'why_attend', 'A Carbon-Neutral Event', 'Take part in a paper-light, carbon-neutral conference that plants a tree for every registration.', 6),

('who-academicians', 'who_can_attend', 'Academicians', 'Faculty members and lecturers who teach and research sustainability, engineering, management and education.', 1),
('who-researchers', 'who_can_attend', 'Researchers', 'Research scholars, postdoctoral fellows and scientists presenting new findings.', 2),
('who-industry', 'who_can_attend', 'Industry Professionals', 'Engineers, managers and consultants applying sustainable technologies and practices.', 3),
('who-policymakers', 'who_can_attend', 'Policymakers', 'Government officials and advisers shaping climate, energy and environmental policy.', 4),
('who-entrepreneurs', 'who_can_attend', 'Entrepreneurs', 'Founders and innovators building green products, services and start-ups.', 5),
('who-students', 'who_can_attend', 'Students', 'Undergraduate and postgraduate students looking to present, learn and meet mentors.', 6),
('who-advocates', 'who_can_attend', 'Environmental Advocates', 'Members of NGOs and community groups working for the environment and climate justice.', 7),

('step-visit', 'registration_step', 'Visit the Website', 'Go to the conference website and open the Registration page.', 1),
('step-category', 'registration_step', 'Choose Your Category', 'Pick a presenter or listener ticket, virtual or physical, or enter a custom payment.', 2),
('step-form', 'registration_step', 'Complete the Form', 'Fill in your name, e-mail, phone, address and country.', 3),
('step-payment', 'registration_step', 'Make the Payment', 'Pay securely online with one of multiple payment options: credit or debit card, net banking or digital wallet.', 4),
('step-confirmation', 'registration_step', 'Receive Confirmation', 'You receive a confirmation e-mail with your receipt once the payment succeeds.', 5);

-- -----------------------------------------------------------------------------
-- FAQ (home, four questions)
-- -----------------------------------------------------------------------------

INSERT INTO faqs (id, question, answer, position) VALUES
('faq-virtual', 'Can I attend or present virtually?', 'Yes. ICSIFT 2025 is a hybrid conference: every session is streamed, and virtual presenters present live online. Choose a Virtual ticket when you register.', 1),
('faq-publication', 'Will my paper be published?', 'Accepted papers are presented at the conference, and selected papers will be processed for Scopus indexed journals or proceedings after peer review. Journal publication carries a separate fee that is not part of the registration fee.', 2),
('faq-deadlines', 'What are the submission deadlines?', 'Abstracts are due by 28 February 2025 and full papers by 18 March 2025. Submit them as PDF or Word files on the Submission page; e-mail submissions are not accepted unless we ask for them.', 3),
('faq-included', 'What does the registration fee include?', 'Every ticket includes conference access, certificates, easy access to all sessions and paid membership. Physical tickets also include the conference kit and meals in Manila.', 4);

-- -----------------------------------------------------------------------------
-- Attractions near the venue (/venue). Distances are approximate, from the
-- sample venue on Taft Avenue, Ermita.
-- -----------------------------------------------------------------------------

INSERT INTO attractions (id, name, description, image, distance, position) VALUES
('attr-intramuros', 'Intramuros', 'The historic walled city of Manila, founded in the 16th century, with Fort Santiago, cobblestone streets and San Agustin Church, a UNESCO World Heritage Site.', '/static/img/attractions/intramuros.svg', 'About 3 km (15 minutes by car)', 1),
('attr-rizal-park', 'Rizal Park', 'Also called Luneta, one of the largest urban parks in Asia, home to the Rizal Monument, gardens and open-air events.', '/static/img/attractions/rizal-park.svg', 'About 2 km (10 minutes by car)', 2),
('attr-manila-bay', 'Manila Bay', 'Walk the baywalk along Roxas Boulevard to watch the famous Manila Bay sunset.', '/static/img/attractions/manila-bay.svg', 'About 1.5 km (5 minutes by car)', 3),
('attr-national-museum', 'National Museum of the Philippines', 'The national museums of fine arts, anthropology and natural history, side by side beside Rizal Park.', '/static/img/attractions/national-museum.svg', 'About 2.5 km (10 minutes by car)', 4);

-- -----------------------------------------------------------------------------
-- Policies and their sections (accordion on the terms and privacy pages).
-- The cancellation policy is reading (b) of the spec; see the note at the top
-- of the site row. Review all legal texts with your adviser before launch.
-- -----------------------------------------------------------------------------

INSERT INTO policies (slug, name, link, summary, updated, position) VALUES
('cancellation-policy', 'Cancellation Policy', '/cancellation-policy', 'Full refund up to 30 days before the conference, 50% from 29 to 15 days before, no refund after that; registrations can be transferred until 7 days before. Journal publication carries a separate fee.', '2024-12-01', 1),
('terms-and-conditions', 'Terms & Conditions', '/Terms-&-Conditions', 'The terms that apply when you register for, submit a paper to or attend ICSIFT 2025.', '2024-12-01', 2),
('privacy-policy', 'Privacy Policy', '/Privacy-Policy', 'What personal data we collect through this website, why, who we share it with and how long we keep it.', '2024-12-01', 3),
('cookie-policy', 'Cookie Policy', '/cookie-policy', 'This website sets no advertising or tracking cookies; this page explains the little it stores in your browser.', '2024-12-01', 4);

INSERT INTO policy_sections (id, policy_slug, heading, body, position) VALUES
('pol-cancel-1', 'cancellation-policy', 'Scope', 'This policy applies to every registration for ICSIFT 2025: presenter and listener tickets, virtual and physical, and custom payments.

Deadlines are counted back from the first conference day, 21 March 2025, in Philippine time (UTC+08:00). A cancellation counts from the day we receive your e-mail.', 1),
('pol-cancel-2', 'cancellation-policy', 'Refunds', 'On or before 19 February 2025 (30 days or more before the conference): full refund of the registration fee.

From 20 February to 6 March 2025 (29 to 15 days before the conference): 50% refund of the registration fee.

From 7 March 2025 (14 days or fewer before the conference), and for participants who do not attend: no refund.', 2),
('pol-cancel-3', 'cancellation-policy', 'Transfers', 'You may transfer your registration to another person free of charge until 14 March 2025 (7 days before the conference). E-mail us your order ID and the new participant''s name, e-mail address and affiliation. If you are a presenter, tell us who will present the paper. After 14 March 2025 registrations cannot be transferred.', 3),
('pol-cancel-4', 'cancellation-policy', 'Journal publication fee', 'The registration fee does not include journal publication. Selected papers processed for Scopus indexed journals or proceedings carry a separate publication fee, set by the journal or publisher and communicated with the acceptance. That fee is not covered by this policy; refunds of it follow the publisher''s terms.', 4),
('pol-cancel-5', 'cancellation-policy', 'How to cancel and how refunds are paid', 'Send your cancellation to info@icsift.example.org with your order ID and the name on the registration. We confirm it by e-mail.

Approved refunds are paid to the original payment method, in the currency you paid, within 30 days of confirmation.', 5),
('pol-cancel-6', 'cancellation-policy', 'If the conference changes', 'If the organisers cancel the conference, every participant receives a full refund of the registration fee. If in-person sessions have to move online, physical registrations are honoured as virtual attendance and the difference between the physical and the virtual fee is refunded.', 6),

('pol-terms-1', 'terms-and-conditions', 'Acceptance of these terms', 'These terms apply when you use this website, register for, submit a paper to or attend the International Conference on Sustainability, Innovation and Future Technologies (ICSIFT 2025), organised by Sampaguita Research & Publications Inc. By registering or submitting you accept them.', 1),
('pol-terms-2', 'terms-and-conditions', 'Registration and payment', 'Prices are in US dollars and are shown on the Registration page. A registration is confirmed once the payment succeeds and you receive a confirmation e-mail with your receipt. Custom payments have a 6% tax added, shown before you pay.

Payments are processed by our payment gateway; we never see or store your card details.', 2),
('pol-terms-3', 'terms-and-conditions', 'Cancellations, refunds and transfers', 'Full refund for cancellations received on or before 19 February 2025 (30 days or more before the conference); 50% refund from 20 February to 6 March 2025 (29 to 15 days before); no refund from 7 March 2025 or for participants who do not attend.

Registrations can be transferred to another person until 14 March 2025 (7 days before the conference). The Cancellation Policy page gives the full details.', 3),
('pol-terms-4', 'terms-and-conditions', 'Paper submission and publication', 'Submissions must be original work that has not been published or submitted elsewhere, and are checked for plagiarism. Authors keep copyright in their work and grant the organisers the right to publish the abstract in the conference programme.

Selected papers will be processed for Scopus indexed journals or proceedings after peer review. Journal publication carries a separate fee that is not included in the registration fee, and acceptance by a journal is decided by that journal.', 4),
('pol-terms-5', 'terms-and-conditions', 'Conduct', 'Participants are expected to treat one another with respect, in person and online. Harassment, discrimination and disruptive behaviour are not tolerated; the organisers may remove anyone who breaks this rule without a refund.', 5),
('pol-terms-6', 'terms-and-conditions', 'Photography and recordings', 'Sessions may be photographed, recorded and streamed. By attending you agree that you may appear in photographs and recordings used to report on the conference. Tell the registration desk if you prefer not to be photographed.', 6),
('pol-terms-7', 'terms-and-conditions', 'Programme changes', 'The organisers may change speakers, times, rooms or the format of sessions when needed. Changes are published on this website.', 7),
('pol-terms-8', 'terms-and-conditions', 'Liability', 'The organisers are not liable for loss of or damage to personal belongings, or for travel and accommodation costs, including when the programme changes. Participants are responsible for their own visas, travel and insurance.', 8),
('pol-terms-9', 'terms-and-conditions', 'Governing law and contact', 'These terms are governed by the laws of the Republic of the Philippines. Questions about them can be sent to info@icsift.example.org.', 9),

('pol-privacy-1', 'privacy-policy', 'Who we are', 'This website is run by Sampaguita Research & Publications Inc., the organiser of ICSIFT 2025, which is responsible for the personal data described here. Contact us at info@icsift.example.org.', 1),
('pol-privacy-2', 'privacy-policy', 'What we collect', 'Contact form: your name, phone number, e-mail address, country and message.

Registration: your name, e-mail address, phone number, postal address and country, the ticket you chose and the payment status and reference our payment gateway returns. We never receive your card details.

Paper submission: author and co-author names, contact details, department and organisation, the paper file and your answers in the form.

Newsletter: your e-mail address.', 2),
('pol-privacy-3', 'privacy-policy', 'Why we use it', 'To answer your messages, process registrations and payments, send receipts and confirmations, review and publish papers, organise the programme, issue certificates and, if you subscribed, send the newsletter. We do not sell your data or use it for advertising.', 3),
('pol-privacy-4', 'privacy-policy', 'Who we share it with', 'Our payment gateway, to process payments; reviewers and the journals or proceedings that publish selected papers, for submitted papers; and our e-mail provider, to deliver messages. Each receives only what it needs.', 4),
('pol-privacy-5', 'privacy-policy', 'How long we keep it', 'Messages and paper submissions are kept for as long as they are needed to run the conference and its publications. Payment records are kept for as long as tax and accounting law requires. You can unsubscribe from the newsletter at any time.', 5),
('pol-privacy-6', 'privacy-policy', 'Your rights', 'Under the Philippine Data Privacy Act of 2012 and other laws that may apply to you, you can ask to see, correct or delete your personal data, object to its use and withdraw consent. Write to info@icsift.example.org; we answer within 30 days.', 6),
('pol-privacy-7', 'privacy-policy', 'Security', 'Uploaded papers are stored privately and are never publicly downloadable. Payments go through an encrypted connection to the payment gateway.', 7),

('pol-cookie-1', 'cookie-policy', 'Our own storage', 'This website sets no advertising or tracking cookies. When you close the notice popup we remember that choice in your browser''s local storage, so that the popup does not come back on every page. On the programme it also keeps whether you read times in the event''s time or your own, and the talks you star. You can clear it at any time in your browser settings.', 1),
('pol-cookie-2', 'cookie-policy', 'Third-party services', 'The Venue page shows an embedded Google Maps map, and Google may set its own cookies when it loads. When you pay, you are sent to our payment gateway''s website, which may use cookies under its own policy.', 2),
('pol-cookie-3', 'cookie-policy', 'Changes', 'If we ever add cookies that are not strictly necessary, we will update this page and ask for your consent first.', 3);

-- -----------------------------------------------------------------------------
-- Gallery (/gallery). width and height are the image's own size in pixels.
-- -----------------------------------------------------------------------------

INSERT INTO gallery (id, title, image, width, height, position) VALUES
('gal-opening', 'Opening ceremony in the Grand Convention Hall', '/static/img/gallery/opening-ceremony.svg', 1200, 800, 1),
('gal-keynote', 'Keynote address on renewable energy', '/static/img/gallery/keynote.svg', 1200, 800, 2),
('gal-poster', 'Poster session in the Exhibition Hall', '/static/img/gallery/poster-session.svg', 800, 1000, 3),
('gal-panel', 'Panel discussion on green finance', '/static/img/gallery/panel-discussion.svg', 1200, 675, 4),
('gal-workshop', 'Hands-on workshop on life-cycle assessment', '/static/img/gallery/workshop.svg', 1200, 800, 5),
('gal-tree-planting', 'Participants planting trees at the university arboretum', '/static/img/gallery/tree-planting.svg', 800, 1000, 6),
('gal-networking', 'Networking during the welcome reception', '/static/img/gallery/networking.svg', 1200, 800, 7),
('gal-virtual', 'Virtual presenters joining online', '/static/img/gallery/virtual-session.svg', 1200, 675, 8),
('gal-awards', 'Awards ceremony on the final day', '/static/img/gallery/awards.svg', 1200, 800, 9),
('gal-group', 'Group photo of participants', '/static/img/gallery/group-photo.svg', 1200, 675, 10);

-- -----------------------------------------------------------------------------
-- Decision mails (issue 21): what an author gets when organisers apply a decision.
-- Placeholders in braces are filled per submission; only these exist (any other
-- name is refused when the seed is applied, with its line):
--   {title} {reference} {authors} {paper_type} {conference} {status_link}
--   {organiser_note}
-- The body is plain text; a blank line starts a new paragraph.
-- -----------------------------------------------------------------------------
INSERT INTO mail_templates (name, subject, body) VALUES
('decision_accepted', 'Your paper {reference} is accepted', 'Dear {authors},

We are pleased to tell you that your paper "{title}" ({paper_type}, reference {reference}) has been accepted for {conference}.

{organiser_note}

{reviews}

You can see the status of your submission at any time at {status_link}

Please quote the reference {reference} in any message about this paper; you can reply to this mail to reach the organisers.

With kind regards,
The organising committee'),
('decision_rejected', 'Your paper {reference}: our decision', 'Dear {authors},

Thank you for submitting your paper "{title}" ({paper_type}, reference {reference}) to {conference}. We regret to tell you that it was not accepted this time.

{organiser_note}

{reviews}

You can see the status of your submission at any time at {status_link}

We hope to receive your work again, and to welcome you at the conference.

With kind regards,
The organising committee');

-- -----------------------------------------------------------------------------
-- Peer review (issue 32; DESIGN.md section 15)
--
-- Settings: review_mode ('double_anonymous', 'single_anonymous' or 'open'),
-- reviewers_per_paper, max_papers_per_reviewer and reviewers_see_others (1 or 0)
-- keep the defaults of the site row; uncomment a line to change one. The deadline
-- is written YYYY-MM-DD HH:MM in the site's time zone (site.time_zone); NULL
-- means no deadline. After it, reviewers can no longer change their reviews.
-- -----------------------------------------------------------------------------
UPDATE site SET review_deadline = '2025-03-03 23:59' WHERE id = 1;
-- UPDATE site SET review_mode = 'double_anonymous' WHERE id = 1;
-- UPDATE site SET reviewers_per_paper = 2, max_papers_per_reviewer = 15 WHERE id = 1;
-- UPDATE site SET reviewers_see_others = 1 WHERE id = 1;

-- The review form: one question per criterion, asked in `position` order.
--   key          a short name in lower-case letters, digits and hyphens, unique;
--                kept in every review's copy of its answers
--   scale        the labels of scores 1, 2, 3 ... as a JSON array of 2 to 10
--                labels, lowest first
--   weight       1 to 100; a review's score is the weighted mean of its scores
-- Besides the criteria every review asks for a recommendation (strong accept to
-- strong reject), the reviewer's confidence (1-5), comments to the authors and
-- confidential comments to the committee. Each review keeps a copy of the
-- criteria it answered, so changing the form later leaves old reviews readable.
INSERT INTO review_criteria (key, position, label, description, scale, weight) VALUES
('originality', 1, 'Originality', 'Does the paper bring a new idea, method, data set or result, or apply a known one in a way that teaches something new?', '["Not original", "Slightly original", "Moderately original", "Original", "Highly original"]', 2),
('technical-quality', 2, 'Technical quality', 'Are the methods sound and described well enough to repeat, and do the data and analysis support the conclusions?', '["Unsound", "Weak", "Acceptable", "Good", "Excellent"]', 3),
('clarity', 3, 'Clarity of presentation', 'Is the paper well organised and clearly written, with figures, tables and references that help the reader?', '["Very unclear", "Unclear", "Readable", "Clear", "Very clear"]', 1),
('relevance', 4, 'Relevance to the conference', 'Does the paper fit the conference''s focus areas (climate change, renewable energy, the circular economy) and matter to its audience?', '["Out of scope", "Marginal", "Relevant", "Very relevant", "Central to the conference"]', 2);

-- Mail domains that say nothing about where a person works: a reviewer and an
-- author who share one of these are not in conflict. Lower-case, one a row.
INSERT INTO webmail_domains (domain) VALUES
('gmail.com'),
('googlemail.com'),
('yahoo.com'),
('ymail.com'),
('outlook.com'),
('hotmail.com'),
('live.com'),
('msn.com'),
('icloud.com'),
('me.com'),
('proton.me'),
('protonmail.com'),
('aol.com'),
('yandex.com'),
('yandex.ru'),
('mail.ru'),
('qq.com'),
('163.com'),
('126.com'),
('gmx.de'),
('gmx.net'),
('web.de'),
('mail.com'),
('zoho.com');

-- -----------------------------------------------------------------------------
-- Certificates (issue 33 item 5): who signs the attendance and presentation
-- certificates, in order. `signature` is a PNG file name under seed/signatures/
-- (built into the binary like static/, never served on its own; keep it small,
-- a transparent background prints best); NULL prints the name and role without
-- an image.
-- -----------------------------------------------------------------------------

INSERT INTO certificate_signatories (position, name, role, signature) VALUES
(1, 'Prof. Juan dela Cruz', 'Conference Chair', 'chair.png'),
(2, 'Dr. Maria Clara Santos', 'Conference Co-Chair', 'co-chair.png');
