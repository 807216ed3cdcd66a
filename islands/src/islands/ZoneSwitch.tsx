// The programme's time-zone switch (issue 31 item 4, DESIGN.md section 14). Offered only when
// the visitor's UTC offset differs from the event's at one of the page's times: "Event time"
// or "Your time (<zone>)", remembered in localStorage. In "Your time" it rewrites the page's
// `time[data-zone-time]` texts and the zone sentence in place (lib/zone.ts); sessions stay
// under their event-day headings. Mounted by templates/partials/zone_switch.html, which has no
// fallback: without JavaScript the page reads in event time.
//
// With `line` (the author's status page, templates/pages/submission_status.html) it offers no
// choice and rewrites nothing: it adds one line under the talk's time in event time, "Your
// time (<zone>): <day>, <start>–<end>", when the visitor's offset differs (issue 31 item 6).
// One island for both, so the status page fetches no chunk of its own.

import { useId, useLayoutEffect, useRef, useState } from 'react';
import { readZoneChoice, writeZoneChoice, type ZoneChoice } from '../lib/zoneChoice';
import { browserZone, DAY_SHIFT_CLASS, localSpan, showTimes, visitorOffsets } from '../lib/zone';

export interface ZoneSwitchProps {
  /** The event's IANA zone (`Asia/Manila`). */
  zone: string;
  /** The event's zone in words (`Manila time`). */
  zoneName: string;
  /** The visitor's IANA zone: the browser's unless a test names one. */
  visitorZone?: string;
  /** Line mode: the page's first `date-clock` time and its end restated in the visitor's
   * zone as one line (lib/zone.ts `localSpan`), without the switch. */
  line?: boolean;
}

export default function ZoneSwitch(props: ZoneSwitchProps) {
  return props.line ? <YourTime visitorZone={props.visitorZone} /> : <Switch {...props} />;
}

/** The line mode: nothing where the visitor's clock reads as the event's. */
function YourTime({ visitorZone }: { visitorZone?: string }) {
  const [local] = useState(() => visitorZone ?? browserZone());
  // Read once: the page's times do not change under the island.
  const [span] = useState(() => localSpan(document, local));
  if (!span) return null;
  return (
    <p className="zone-local">
      Your time ({local}): {span.start}
      {span.end && `–${span.end}`}
      {span.shift && (
        <>
          {' '}
          <span className={DAY_SHIFT_CLASS}>{span.shift}</span>
        </>
      )}
    </p>
  );
}

function Switch({ zone, zoneName, visitorZone }: ZoneSwitchProps) {
  const [local] = useState(() => visitorZone ?? browserZone());
  // Read once: the page's times do not change under the island. (In the event's own zone
  // there is nothing to compare.)
  const [offered] = useState(() => local !== zone && visitorOffsets(document, local).differs);
  const [choice, setChoice] = useState<ZoneChoice>(() => (offered ? readZoneChoice() : 'event'));
  const name = useId();
  const box = useRef<HTMLFieldSetElement>(null);

  // The switch appears once the browser is idle, above the programme. What the visitor reads
  // must not move under them: a page opened at an address's place (`#day-…`), perhaps still
  // scrolling there smoothly, is taken to that place again; a page scrolled below the switch
  // moves by what the switch added. Both before the browser paints.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const target = window.location.hash ? document.getElementById(decodeURIComponent(window.location.hash.slice(1))) : null;
    const { top, height } = el.getBoundingClientRect();
    if (target && target.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING) {
      target.scrollIntoView({ block: 'start', behavior: 'instant' });
    } else if (top < 0) {
      window.scrollBy({ top: height + parseFloat(getComputedStyle(el).marginBottom || '0'), behavior: 'instant' });
    }
  }, []);

  useLayoutEffect(() => {
    if (!offered || choice === 'event') return;
    showTimes(document, local);
    return () => showTimes(document, null);
  }, [offered, choice, local]);

  if (!offered) return null;
  const choose = (next: ZoneChoice) => {
    setChoice(next);
    writeZoneChoice(next);
  };
  return (
    <fieldset className="zone-switch" ref={box}>
      <legend className="zone-switch__legend">Show times in</legend>
      <label className="zone-switch__choice">
        <input type="radio" name={name} value="event" checked={choice === 'event'} onChange={() => choose('event')} />
        Event time ({zoneName})
      </label>
      <label className="zone-switch__choice">
        <input type="radio" name={name} value="local" checked={choice === 'local'} onChange={() => choose('local')} />
        Your time ({local})
      </label>
    </fieldset>
  );
}
