// Important dates (spec section 4: past dates greyed and struck through). The server decides
// `passed` when it renders; this island decides again with the visitor's clock, in the venue's
// UTC offset, so a cached or long-open page stays right. Same markup as
// templates/partials/timeline.html. Props: home.rs `timeline_props`.

import { dayHasPassed } from '../lib/timeline';

export interface TimelineProps {
  utcOffset: string;
  items: Array<{ date: string; label: string; title: string; description: string }>;
}

export default function Timeline({ utcOffset, items }: TimelineProps) {
  const now = Date.now();
  return (
    <ol className="timeline">
      {items.map((item) => {
        const passed = dayHasPassed(item.date, utcOffset, now);
        return (
          <li className={`timeline__item${passed ? ' timeline__item--past' : ''}`} key={`${item.date}-${item.title}`}>
            <time className="timeline__date" dateTime={item.date}>
              {passed ? <del>{item.label}</del> : item.label}
            </time>
            <h3 className="timeline__title">
              {passed ? (
                <>
                  <del>{item.title}</del> <span className="visually-hidden">(passed)</span>
                </>
              ) : (
                item.title
              )}
            </h3>
            <p className="timeline__description">{item.description}</p>
          </li>
        );
      })}
    </ol>
  );
}
