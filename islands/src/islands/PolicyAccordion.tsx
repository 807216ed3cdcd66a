// Policy sections as an accordion (spec section 2: terms and privacy; section 4: one open at a
// time, clicking the open one closes it). WAI-ARIA accordion: header buttons with
// aria-expanded/aria-controls; Enter/Space toggle (native buttons), Up/Down/Home/End move
// between headers. A URL fragment naming a section opens it.
// Props: layout::policy_sections_props. Fallback: <details name=...> (templates/pages/policy.html).

import { useRef, useState, type KeyboardEvent } from 'react';
import { headerKeyTarget, sectionFromHash, toggleOpen } from '../lib/accordion';

export interface PolicyAccordionProps {
  sections: Array<{ id: string; heading: string; paragraphs: string[] }>;
}

export default function PolicyAccordion({ sections }: PolicyAccordionProps) {
  const [open, setOpen] = useState<string | null>(() =>
    sectionFromHash(globalThis.location?.hash ?? '', sections.map((s) => s.id)),
  );
  const headers = useRef<Array<HTMLButtonElement | null>>([]);

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const next = headerKeyTarget(index, event.key, sections.length);
    if (next === null) return;
    event.preventDefault();
    headers.current[next]?.focus();
  };

  return (
    <div className="accordion">
      {sections.map((section, i) => {
        const expanded = open === section.id;
        return (
          <div className={`accordion__item${expanded ? ' is-open' : ''}`} id={section.id} key={section.id}>
            <h2 className="accordion__header">
              <button
                ref={(el) => {
                  headers.current[i] = el;
                }}
                type="button"
                className="accordion__summary"
                id={`${section.id}-header`}
                aria-expanded={expanded}
                aria-controls={`${section.id}-panel`}
                onClick={() => setOpen((current) => toggleOpen(current, section.id))}
                onKeyDown={(e) => onKeyDown(e, i)}
              >
                {section.heading}
              </button>
            </h2>
            <div className="accordion__panel prose" id={`${section.id}-panel`} hidden={!expanded}>
              {section.paragraphs.map((p, j) => (
                <p key={j}>{p}</p>
              ))}
            </div>
          </div>
        );
      })}
    </div>
  );
}
