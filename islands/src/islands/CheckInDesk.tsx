// The check-in desk's scanner (issue 33 item 3), over the server's typed-code form. Props:
// { action: where to POST, shown: the answer the page already shows, or null }.
//
// "Scan a ticket" starts the camera and reads frames until one holds a QR code, then stops the
// camera and sends the code: one press, one scan, so a ticket held in front of the camera is
// never sent twice by accident. The typed-code form stays usable all along, with or without
// a camera. Each answer is announced through the status region (aria-live).

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiError, postJson } from '../lib/api';
import { frameReader, type FrameReader } from '../lib/qrScan';

/** An answer of the desk, as the server sends it (src/handlers/organiser/check_in.rs). */
export interface Shown {
  result: 'valid' | 'already' | 'refunded' | 'unknown' | 'not_today';
  title: string;
  lines: string[];
}

export interface CheckInDeskProps {
  action: string;
  shown?: Shown | null;
}

/** Between two looks at the camera's picture. */
const FRAME_EVERY_MS = 150;

export const NO_CAMERA = 'The camera could not be started. Type the code below, or search by name.';
export const SESSION_ENDED = 'Your session ended. Reload the page to sign in again.';
export const UNREACHABLE = 'The server could not be reached. Check the connection and try again.';

type Problem = { field: boolean; message: string };

export default function CheckInDesk({ action, shown = null }: CheckInDeskProps) {
  const [answer, setAnswer] = useState<Shown | null>(shown);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [code, setCode] = useState('');
  const [scanning, setScanning] = useState(false);
  const [busy, setBusy] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const stopCamera = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
    if (video.current) video.current.srcObject = null;
    setScanning(false);
  };

  useEffect(() => stopCamera, []);

  const send = async (value: string) => {
    // A new scan: the last answer goes, so it is never read as this ticket's.
    setAnswer(null);
    setBusy(true);
    try {
      const { data } = await postJson<Shown>(action, { code: value });
      setAnswer(data);
      setProblem(null);
      return true;
    } catch (error) {
      const e = error instanceof ApiError ? error : new ApiError(0, String(error));
      setAnswer(null);
      if (e.status === 422) setProblem({ field: true, message: e.errors.code ?? e.message });
      else if (e.status === 401) setProblem({ field: false, message: SESSION_ENDED });
      else if (e.status === 0) setProblem({ field: false, message: UNREACHABLE });
      else setProblem({ field: false, message: e.message });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const startCamera = async () => {
    setProblem(null);
    setAnswer(null);
    let read: FrameReader;
    try {
      read = await frameReader();
      stream.current = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
    } catch {
      stopCamera();
      setProblem({ field: false, message: NO_CAMERA });
      return;
    }
    const el = video.current;
    if (!el) return;
    el.srcObject = stream.current;
    setScanning(true);
    await el.play().catch(() => undefined);
    const look = async () => {
      if (!stream.current) return;
      let found: string | null = null;
      try {
        found = await read(el);
      } catch {
        found = null;
      }
      if (!stream.current) return;
      if (found) {
        stopCamera();
        await send(found);
        return;
      }
      timer.current = setTimeout(look, FRAME_EVERY_MS);
    };
    timer.current = setTimeout(look, 0);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.trim() === '') {
      setProblem({ field: true, message: 'Scan a ticket or type its code.' });
      input.current?.focus();
      return;
    }
    if (await send(code)) setCode('');
    input.current?.focus();
  };

  const fieldError = problem?.field ? problem.message : null;
  return (
    <>
      <div id="check-in-result" className="check-in__result" role="status" aria-live="polite" aria-atomic="true">
        {answer && (
          <div className={`organiser__notice check-in__answer check-in__answer--${answer.result}`} data-result={answer.result}>
            <p className="check-in__title">
              <strong>{answer.title}</strong>
            </p>
            {answer.lines.map((line, i) => (
              <p key={i}>{line}</p>
            ))}
          </div>
        )}
        {problem && !problem.field && <p className="organiser__error">{problem.message}</p>}
      </div>
      <div className="check-in__camera">
        {scanning ? (
          <button type="button" className="button" onClick={stopCamera}>
            Stop the camera
          </button>
        ) : (
          <button type="button" className="button button--primary" onClick={startCamera} disabled={busy}>
            Scan a ticket
          </button>
        )}
        <video ref={video} className="check-in__video" muted playsInline hidden={!scanning} aria-label="Camera picture" />
      </div>
      <form className="form organiser__form" method="post" action={action} onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="check-in-code">Ticket code or address</label>
          <input
            ref={input}
            id="check-in-code"
            name="code"
            type="text"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={300}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'check-in-code-error' : undefined}
          />
          {fieldError && (
            <p id="check-in-code-error" className="organiser__error">
              {fieldError}
            </p>
          )}
        </div>
        <div>
          <button type="submit" className="button button--primary" disabled={busy}>
            Check in
          </button>
        </div>
      </form>
    </>
  );
}
