// Notice popup on every page (spec section 2: Notice popup). Appears 1.5 s after load at the
// bottom left, above the dock; closing it stores a dismissed flag and it stays away while the
// flag is set. The endorsement letter opens in a full-screen viewer.
// Props: Layout::notice_props (src/layout.rs). Its server fallback is empty: it is an extra.

import { useEffect, useRef, useState } from 'react';
import { Modal } from '../lib/dialog';
import { NOTICE_DELAY_MS, dismissNotice, isNoticeDismissed } from '../lib/notice';

export interface NoticePopupProps {
  name: string;
  endorsement: string;
  /** "21-23 March 2025". */
  dates: string;
  venue: string;
  /** "18 March 2025". */
  paperDue: string;
  website: string;
  email: string;
  phone: string;
  telHref: string;
  letterImage: string;
  registerHref: string;
}

export default function NoticePopup(props: NoticePopupProps) {
  const [shown, setShown] = useState(false);
  const [viewer, setViewer] = useState(false);
  const panel = useRef<HTMLElement>(null);
  const letterButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (isNoticeDismissed()) return;
    // 1.5 s after the page's load event: an idle island usually mounts just after it, but
    // may mount earlier on a page still loading images.
    let id: ReturnType<typeof setTimeout> | undefined;
    const start = () => {
      id = setTimeout(() => setShown(true), NOTICE_DELAY_MS);
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      window.removeEventListener('load', start);
      clearTimeout(id);
    };
  }, []);

  if (!shown) return null;

  const close = () => {
    dismissNotice();
    // Keep keyboard users somewhere sensible rather than on <body>.
    const hadFocus = panel.current?.contains(document.activeElement);
    setShown(false);
    if (hadFocus) document.getElementById('main')?.focus();
  };
  const website = props.website.replace(/^https?:\/\//, '').replace(/\/$/, '');

  return (
    <aside className="notice" aria-labelledby="notice-title" ref={panel}>
      <button type="button" className="notice__close" aria-label="Close notice" onClick={close}>
        <span aria-hidden="true">×</span>
      </button>
      <p className="notice__eyebrow">Endorsed by {props.endorsement}</p>
      <h2 className="notice__title" id="notice-title">
        {props.name}
      </h2>
      <dl className="notice__facts">
        <dt>Dates</dt>
        <dd>{props.dates}</dd>
        <dt>Venue</dt>
        <dd>{props.venue}</dd>
        <dt>Papers due</dt>
        <dd>{props.paperDue}</dd>
        <dt>Website</dt>
        <dd>
          <a href={props.website}>{website}</a>
        </dd>
        <dt>Email</dt>
        <dd>
          <a href={`mailto:${props.email}`}>{props.email}</a>
        </dd>
        <dt>Phone</dt>
        <dd>
          <a href={props.telHref}>{props.phone}</a>
        </dd>
      </dl>
      <div className="notice__actions">
        <button type="button" className="notice__letter" ref={letterButton} onClick={() => setViewer(true)} aria-haspopup="dialog">
          <img src={props.letterImage} alt="" width="36" height="48" />
          <span>View endorsement letter</span>
        </button>
        <a className="button button--primary notice__register" href={props.registerHref} target="_blank" rel="noopener">
          Register Now<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </div>

      <Modal open={viewer} onClose={() => setViewer(false)} labelledBy="letter-viewer-title" className="viewer" returnFocus={letterButton}>
        <div className="viewer__bar">
          <h2 className="viewer__title" id="letter-viewer-title">
            Endorsement letter
          </h2>
          <button type="button" className="viewer__close" onClick={() => setViewer(false)}>
            <span aria-hidden="true">×</span> Close
          </button>
        </div>
        <figure className="viewer__figure">
          <img className="viewer__image" src={props.letterImage} alt={`Endorsement letter from ${props.endorsement}`} />
        </figure>
      </Modal>
    </aside>
  );
}
