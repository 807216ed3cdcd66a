// Countdown to the conference. Props: { target: RFC 3339 string }.
// Renders exactly the structure of the server's fallback (templates: countdown markup) so
// mounting causes no layout shift. Once the target has passed it shows zeros and stops.

import { useEffect, useState } from 'react';
import { countdownUnits, remaining } from '../lib/countdown';

export interface CountdownProps {
  target: string;
}

const TICK_MS = 1000;

export default function Countdown({ target }: CountdownProps) {
  const targetMs = Date.parse(target);
  if (Number.isNaN(targetMs)) {
    // Thrown at render: the runtime reports it and keeps the server fallback.
    throw new Error(`Countdown: target ${JSON.stringify(target)} is not an RFC 3339 date-time`);
  }
  const [now, setNow] = useState(() => Date.now());
  const left = remaining(targetMs, now);

  useEffect(() => {
    if (remaining(targetMs, Date.now()).done) {
      setNow(Date.now());
      return;
    }
    const id = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (remaining(targetMs, t).done) clearInterval(id);
    }, TICK_MS);
    return () => clearInterval(id);
  }, [targetMs]);

  return (
    <div className="countdown" role="timer" aria-label="Time left until the conference opens">
      {countdownUnits(left).map(({ value, label }) => (
        <div className="countdown__unit" key={label}>
          <span className="countdown__value">{value}</span>{' '}
          <span className="countdown__label">{label}</span>
        </div>
      ))}
    </div>
  );
}
