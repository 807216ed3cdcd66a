// Speakers by category as tabs (spec section 2: default keynote) with a drawer per speaker
// (More info; closed by the overlay, X, Close or Esc). WAI-ARIA tabs: automatic activation,
// Left/Right wrap, Home/End. Props: home.rs `speakers_props`. Without JavaScript the server
// lists every category in turn (templates/partials/speakers.html); the island reads its
// speakers from that markup rather than from a second copy in its props.

import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Modal } from '../lib/dialog';
import {
  bioParagraphs,
  groupsFromMarkup,
  initialTabIndex,
  orderGroups,
  tabKeyTarget,
  type SpeakerData,
  type SpeakerGroupData,
} from '../lib/tabs';

export interface SpeakersProps {
  /** The groups to show; by default those of the server's markup the island replaces. */
  groups?: SpeakerGroupData[];
  /** Category of the tab open at first. */
  initial?: string;
}

export default function Speakers({ groups: given, initial = 'keynote' }: SpeakersProps) {
  // Read on the first render, while the server's markup is still in the page.
  const [groups] = useState(() => given ?? groupsFromMarkup(document.querySelector('[data-island="Speakers"]')));
  const ordered = useMemo(() => orderGroups(groups), [groups]);
  const [active, setActive] = useState(() => initialTabIndex(ordered, initial));
  const [speaker, setSpeaker] = useState<SpeakerData | null>(null);
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const opener = useRef<HTMLButtonElement | null>(null);

  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next = tabKeyTarget(index, event.key, ordered.length);
    if (next === null) return;
    event.preventDefault();
    setActive(next);
    tabs.current[next]?.focus();
  };

  return (
    <div className="speakers__tabs">
      <div className="tabs" role="tablist" aria-labelledby="speakers-title">
        {ordered.map((group, i) => (
          <button
            key={group.category}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            className="tabs__tab"
            id={`speakers-tab-${group.category}`}
            aria-selected={i === active}
            aria-controls={`speakers-panel-${group.category}`}
            tabIndex={i === active ? 0 : -1}
            onClick={() => setActive(i)}
            onKeyDown={(e) => onTabKey(e, i)}
          >
            {group.label}
          </button>
        ))}
      </div>
      {ordered.map((group, i) => (
        <div
          key={group.category}
          role="tabpanel"
          className="tabs__panel"
          id={`speakers-panel-${group.category}`}
          aria-labelledby={`speakers-tab-${group.category}`}
          tabIndex={0}
          hidden={i !== active}
        >
          <ul className="card-grid">
            {group.speakers.map((s) => (
              <li className="person-card" key={s.id}>
                <img className="person-card__photo" src={s.image} alt="" width="160" height="160" loading="lazy" />
                <h3 className="person-card__name">{s.name}</h3>
                <p className="person-card__role">{s.role}</p>
                <button
                  type="button"
                  className="person-card__button"
                  aria-haspopup="dialog"
                  onClick={(e) => {
                    opener.current = e.currentTarget;
                    setSpeaker(s);
                  }}
                >
                  More info<span className="visually-hidden"> about {s.name}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ))}

      <Modal open={speaker !== null} onClose={() => setSpeaker(null)} labelledBy="speaker-drawer-name" className="drawer" returnFocus={opener}>
        {speaker && (
          <>
            <div className="drawer__bar">
              <button type="button" className="drawer__x" aria-label="Close speaker details" onClick={() => setSpeaker(null)}>
                <span aria-hidden="true">×</span>
              </button>
            </div>
            <div className="drawer__body" tabIndex={0} role="region" aria-labelledby="speaker-drawer-name">
              <img className="person-card__photo drawer__photo" src={speaker.image} alt="" width="160" height="160" />
              <h2 className="drawer__name" id="speaker-drawer-name">
                {speaker.name}
              </h2>
              <p className="drawer__role">{speaker.role}</p>
              {bioParagraphs(speaker.bio).map((p, i) => (
                <p key={i}>{p}</p>
              ))}
            </div>
            <div className="drawer__footer">
              <button type="button" className="button button--primary" onClick={() => setSpeaker(null)}>
                Close
              </button>
            </div>
          </>
        )}
      </Modal>
    </div>
  );
}
