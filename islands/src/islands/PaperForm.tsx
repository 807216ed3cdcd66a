// The paper submission form (spec sections 2, 3, 5 and 8; DESIGN.md sections 5 and 7).
// Props: { sources: [value, label][], maxBytes: number }.
//
// Wraps the server-rendered form (templates/pages/submission.html) with the same markup,
// adding a single-file drop zone (react-dropzone: PDF, DOC, DOCX; a new choice replaces the
// old), an international phone input (default country US), the spec's checks in its order
// with its messages, an upload progress bar (XMLHttpRequest upload progress) and toasts
// (react-toastify: top-right, 5 s, closable, pause on hover). On success the form resets and
// the file clears; on failure the form is kept.

import { useId, useRef, useState, type FormEvent } from 'react';
import { useDropzone, type FileRejection } from 'react-dropzone';
import {
  EMPTY_VALUES,
  FAILURE_TOAST,
  FOLLOW_UP_TOAST,
  PAPER_ACCEPT,
  SUCCESS_TOAST,
  dropMessage,
  formatBytes,
  paperFormData,
  readServerForm,
  validatePaper,
  type PaperErrors,
  type PaperField,
  type PaperValues,
} from '../lib/paperForm';
import { uploadPaper, type XhrLike } from '../lib/paperUpload';
import { PhoneField } from '../lib/phone-field';
import { toastError, toastSuccess, useToastHost } from '../lib/toasts';

export interface PaperFormProps {
  /** conferenceSource options, value and label (spec section 5). */
  sources: Array<[string, string]>;
  /** `UPLOAD_MAX_BYTES`. */
  maxBytes: number;
  /** Tests only: a stand-in for XMLHttpRequest. */
  makeXhr?: () => XhrLike;
}

/** The server form this island replaces, read once while it is still in the page. */
function serverForm(): HTMLFormElement | null {
  if (typeof document === 'undefined') return null;
  return document.querySelector<HTMLFormElement>('[data-island="PaperForm"] form.paper-form');
}

/** Ids of the controls, as the server renders them (labels, tests and focus rely on them). */
const IDS: Record<PaperField | 'file', string> = {
  authorName: 'paper-author',
  coAuthorName: 'paper-coauthor',
  number: 'paper-number',
  email: 'paper-email',
  country: 'paper-country',
  paperTitle: 'paper-title',
  department: 'paper-department',
  universityOrganization: 'paper-university',
  paperType: 'paper-type-abstract',
  presentationType: 'paper-presentation-poster',
  conferenceSource: 'paper-source',
  message: 'paper-message',
  file: 'paper-drop-button',
};

/** What the form says after a paper was received: its reference, and where its status link went. */
export function receivedText(reference: string): string {
  return `Your paper is received. Its reference is ${reference}. We have mailed you a link to follow its status.`;
}

export default function PaperForm({ sources, maxBytes, makeXhr }: PaperFormProps) {
  const [initial] = useState(() => readServerForm(serverForm()));
  const [values, setValues] = useState<PaperValues>(initial.values);
  const [file, setFile] = useState<File | null>(initial.file);
  const [dropError, setDropError] = useState<string | null>(null);
  const [errors, setErrors] = useState<PaperErrors>({});
  const [status, setStatus] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  // The reference of the paper just submitted, shown until the next submission starts.
  const [received, setReceived] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const uid = useId();
  const errorId = (name: string) => `${uid}-${name}-error`;
  const sending = progress !== null;
  const sourceValues = sources.map(([value]) => value);
  // The page's one toast container (shared with the other islands), top-right, 5 s.
  useToastHost();

  const { getRootProps, getInputProps, open, isDragActive } = useDropzone({
    accept: PAPER_ACCEPT,
    multiple: false,
    maxSize: maxBytes,
    // The button opens the file dialog; the zone itself takes drops.
    noClick: true,
    noKeyboard: true,
    disabled: sending,
    onDrop(accepted: File[], rejections: FileRejection[]) {
      // Several files at once: none is taken (react-dropzone would keep the first), so what
      // is submitted is always what the visitor chose on purpose.
      if (rejections.some((r) => r.errors.some((e) => e.code === 'too-many-files'))) {
        setDropError(dropMessage('too-many-files', maxBytes));
        return;
      }
      if (accepted.length > 0) {
        setFile(accepted[0]);
        setDropError(null);
        setErrors(({ file: _dropped, ...rest }) => rest);
        return;
      }
      const code = rejections[0]?.errors[0]?.code;
      if (code) setDropError(dropMessage(code, maxBytes));
    },
  });

  const set = (name: PaperField, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (errors[name]) setErrors(({ [name]: _fixed, ...rest }) => rest);
  };

  function focus(name: PaperField | 'file') {
    document.getElementById(IDS[name])?.focus();
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending) return;
    setReceived(null);
    const verdict = validatePaper(values, file, sourceValues);
    if (verdict) {
      setErrors(verdict.errors);
      setStatus(verdict.first);
      focus(verdict.order[0]);
      return;
    }
    setErrors({});
    setStatus(null);
    setProgress(0);
    const data = paperFormData(values, file!);
    const gotcha = formRef.current?.querySelector<HTMLInputElement>('input[name="_gotcha"]')?.value ?? '';
    if (gotcha) data.append('_gotcha', gotcha);
    const result = await uploadPaper(data, setProgress, makeXhr);
    setProgress(null);
    if (result.ok) {
      toastSuccess(SUCCESS_TOAST);
      toastSuccess(FOLLOW_UP_TOAST);
      setReceived(result.reference);
      setValues(EMPTY_VALUES);
      setFile(null);
      setDropError(null);
      return;
    }
    toastError(FAILURE_TOAST);
    // A refusal names what to fix; the form is kept as it was.
    setErrors(result.errors);
    setStatus(result.message ?? FAILURE_TOAST);
  }

  const fieldProps = (name: PaperField) => ({
    id: IDS[name],
    name,
    value: values[name],
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? errorId(name) : undefined,
  });
  const fieldError = (name: PaperField | 'file') =>
    errors[name] ? (
      <p className="field__error" id={errorId(name)}>
        {errors[name]}
      </p>
    ) : null;
  const text = (name: PaperField, label: string, max: number, extra: Record<string, string> = {}, wide = false) => (
    <div className={wide ? 'field field--wide' : 'field'}>
      <label htmlFor={IDS[name]}>{label}</label>
      <input {...fieldProps(name)} {...extra} maxLength={max} onChange={(e) => set(name, e.target.value)} />
      {fieldError(name)}
    </div>
  );
  const radios = (name: 'paperType' | 'presentationType', legend: string, options: string[]) => (
    <fieldset className="field" aria-describedby={errors[name] ? errorId(name) : undefined}>
      <legend>{legend}</legend>
      {options.map((option, i) => (
        <label className="choice" key={option}>
          <input
            type="radio"
            name={name}
            value={option}
            id={i === 0 ? IDS[name] : undefined}
            checked={values[name] === option}
            onChange={() => set(name, option)}
          />{' '}
          {option}
        </label>
      ))}
      {fieldError(name)}
    </fieldset>
  );
  const fileProblem = dropError ?? errors.file ?? null;

  return (
    <form
      ref={formRef}
      className="form paper-form"
      method="post"
      action="/api/paper-submission"
      encType="multipart/form-data"
      noValidate
      onSubmit={onSubmit}
      aria-busy={sending || undefined}
    >
      {text('authorName', 'Author name', 200, { autoComplete: 'name' })}
      {text('coAuthorName', 'Co-author name(s)', 500)}
      <div className="field">
        <label htmlFor={IDS.number}>Phone</label>
        <PhoneField
          id={IDS.number}
          name="number"
          value={values.number}
          onChange={(value) => set('number', value)}
          country={values.country}
          invalid={!!errors.number}
          describedBy={errors.number ? errorId('number') : undefined}
        />
        {fieldError('number')}
      </div>
      {text('email', 'Email address', 254, { type: 'email', autoComplete: 'email' })}
      {text('country', 'Country', 80, { autoComplete: 'country-name' })}
      {text('paperTitle', 'Paper title', 300, {}, true)}
      {text('department', 'Department', 200)}
      {text('universityOrganization', 'University / Organization', 200, { autoComplete: 'organization' })}
      {radios('paperType', 'Paper type', ['Abstract', 'Full Paper'])}
      {radios('presentationType', 'Presentation type', ['Poster', 'Oral'])}
      <div className="field field--wide">
        <label htmlFor={IDS.conferenceSource}>How did you hear about the conference?</label>
        <select {...fieldProps('conferenceSource')} onChange={(e) => set('conferenceSource', e.target.value)}>
          <option value="">Select an option</option>
          {sources.map(([value, label]) => (
            <option value={value} key={value}>
              {label}
            </option>
          ))}
        </select>
        {fieldError('conferenceSource')}
      </div>
      <div className="field field--wide">
        <label htmlFor={IDS.message}>Message</label>
        <textarea {...fieldProps('message')} rows={4} maxLength={5000} onChange={(e) => set('message', e.target.value)} />
        {fieldError('message')}
      </div>
      <div className="field field--wide">
        <label htmlFor="paper-file">Paper file</label>
        <div
          {...getRootProps({
            className: `paper-drop${isDragActive ? ' paper-drop--active' : ''}${fileProblem ? ' paper-drop--invalid' : ''}`,
          })}
        >
          <input {...getInputProps({ id: 'paper-file', name: 'file', 'aria-describedby': 'paper-file-hint' })} />
          <p className="paper-drop__prompt">{isDragActive ? 'Drop your paper here' : 'Drag and drop your paper here, or'}</p>
          <button
            type="button"
            id={IDS.file}
            className="button paper-drop__button"
            onClick={open}
            disabled={sending}
            aria-describedby={`paper-file-hint ${uid}-file-chosen${fileProblem ? ` ${errorId('file')}` : ''}`}
          >
            Choose file
          </button>
          <p className="paper-drop__hint" id="paper-file-hint">
            PDF, DOC or DOCX, up to {formatBytes(maxBytes)}
          </p>
          <p className="paper-drop__file" id={`${uid}-file-chosen`} aria-live="polite">
            {file ? `Selected: ${file.name} (${formatBytes(file.size)})` : 'No file chosen'}
          </p>
        </div>
        {fileProblem && (
          <p className="field__error" id={errorId('file')} role="alert">
            {fileProblem}
          </p>
        )}
        {progress !== null && (
          <div className="paper-progress">
            <label htmlFor={`${uid}-progress`}>Uploading your paper: {progress}%</label>
            <progress id={`${uid}-progress`} max={100} value={progress}>
              {progress}%
            </progress>
          </div>
        )}
      </div>
      <div className="visually-hidden" aria-hidden="true">
        <label htmlFor="paper-gotcha">Leave this empty</label>
        <input id="paper-gotcha" name="_gotcha" tabIndex={-1} autoComplete="off" />
      </div>
      {received && (
        <p className="paper-form__received" role="status">
          {receivedText(received)}
        </p>
      )}
      {status && (
        <p className="paper-form__status" role="alert">
          {status}
        </p>
      )}
      <button className="button button--primary" type="submit" disabled={sending}>
        {sending ? 'Submitting…' : 'Submit paper'}
      </button>
    </form>
  );
}
