// Islands replace their server-rendered fallback on mount, and a visitor may already have
// entered something into the fallback form by then (typed, pasted, autofilled, picked a file).
//
// The runtime carries those values over to the island's own controls at the swap itself
// (`carryOver`, called by mount.tsx right after React's first commit), for every island,
// whether or not the island reads the fallback: it finds each control's counterpart, sets its
// value and sends the events a visitor's input would, so the island's state and what it
// derives from it (totals, validity) follow at once. `fallbackValue` and `focusedFallback`
// only let an island render its first frame with those values already in place.

/** The current value of the fallback control with this id, or '' when there is none. */
export function fallbackValue(id: string, doc: Document | undefined = globalThis.document): string {
  const el = doc?.getElementById(id);
  if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
    return el.value;
  }
  return '';
}

/** The id of the focused fallback control, if it is one of `ids` (to focus its replacement). */
export function focusedFallback(ids: readonly string[], doc: Document | undefined = globalThis.document): string | null {
  const id = doc?.activeElement?.id;
  return id && ids.includes(id) ? id : null;
}

/** A control that holds something a visitor entered. */
export type FormControl = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** Input types whose value the page sets, not the visitor. */
const NOT_ENTERED = new Set(['hidden', 'submit', 'button', 'reset', 'image']);

/** Whether `node` is a control a visitor enters values into. */
export function isFormControl(node: unknown): node is FormControl {
  if (node instanceof HTMLInputElement) return !NOT_ENTERED.has(node.type);
  return node instanceof HTMLTextAreaElement || node instanceof HTMLSelectElement;
}

/** The form controls under `root`, in document order. */
export function formControls(root: ParentNode): FormControl[] {
  return Array.from(root.querySelectorAll('input, textarea, select')).filter(isFormControl);
}

type Kind = 'text' | 'check' | 'file' | 'select';

function kindOf(control: FormControl): Kind {
  if (control instanceof HTMLSelectElement) return 'select';
  if (control instanceof HTMLTextAreaElement) return 'text';
  if (control.type === 'checkbox' || control.type === 'radio') return 'check';
  if (control.type === 'file') return 'file';
  return 'text';
}

// Radios share a name, so their value tells them apart; the server may leave out ids the
// island adds (the first radio's, for its error message), so names are the second way in.
function nameKey(control: FormControl): string {
  return kindOf(control) === 'check' ? `${control.name}\u0000${control.value}` : control.name;
}

/**
 * The island's control standing for the fallback control `old`: the one with its id, else the
 * one with its name (and value, for a radio or checkbox) at the same rank, of the same kind.
 */
export function counterpart(old: FormControl, before: readonly FormControl[], after: readonly FormControl[]): FormControl | undefined {
  const kind = kindOf(old);
  const sameKind = after.filter((c) => kindOf(c) === kind);
  if (old.id) {
    const byId = sameKind.find((c) => c.id === old.id);
    if (byId) return byId;
  }
  if (!old.name) return undefined;
  const key = nameKey(old);
  const rank = before.filter((c) => kindOf(c) === kind && nameKey(c) === key).indexOf(old);
  return sameKind.filter((c) => nameKey(c) === key)[rank];
}

/** Whether the visitor changed `control` from what the server rendered. */
function entered(control: FormControl): boolean {
  switch (kindOf(control)) {
    case 'text':
      return control.value !== (control as HTMLInputElement | HTMLTextAreaElement).defaultValue;
    case 'check':
      return (control as HTMLInputElement).checked !== (control as HTMLInputElement).defaultChecked;
    case 'file':
      return ((control as HTMLInputElement).files?.length ?? 0) > 0;
    case 'select':
      return Array.from((control as HTMLSelectElement).options).some((o) => o.selected !== o.defaultSelected);
  }
}

// The prototype's setter: React keeps its own copy of a controlled input's value on the
// element and would take a change through the element's own setter for its render, not the
// visitor's input, and swallow the event.
function setProperty(control: FormControl, property: 'value' | 'checked', value: string | boolean): void {
  const proto =
    control instanceof HTMLInputElement
      ? HTMLInputElement.prototype
      : control instanceof HTMLTextAreaElement
        ? HTMLTextAreaElement.prototype
        : HTMLSelectElement.prototype;
  Object.getOwnPropertyDescriptor(proto, property)?.set?.call(control, value);
}

function announce(control: FormControl, ...types: string[]): void {
  for (const type of types) control.dispatchEvent(new Event(type, { bubbles: true }));
}

/**
 * Gives `fresh` what the visitor entered into `old`, with the events their input sends, when
 * the two differ. Returns whether it changed anything. A radio is only ever checked (that is
 * all a visitor can do to one); leaving a group empty keeps the island's choice.
 */
export function copyControl(old: FormControl, fresh: FormControl): boolean {
  if (!entered(old)) return false;
  if (fresh instanceof HTMLSelectElement && old instanceof HTMLSelectElement) {
    const chosen = new Set(Array.from(old.selectedOptions, (o) => o.value));
    const now = new Set(Array.from(fresh.selectedOptions, (o) => o.value));
    if (chosen.size === now.size && [...chosen].every((v) => now.has(v))) return false;
    if (fresh.multiple) for (const option of Array.from(fresh.options)) option.selected = chosen.has(option.value);
    else setProperty(fresh, 'value', old.value);
    announce(fresh, 'input', 'change');
    return true;
  }
  if (!(fresh instanceof HTMLInputElement || fresh instanceof HTMLTextAreaElement)) return false;
  switch (kindOf(old)) {
    case 'text':
      if (fresh.value === old.value) return false;
      setProperty(fresh, 'value', old.value);
      announce(fresh, 'input', 'change');
      return true;
    case 'check': {
      const checked = (old as HTMLInputElement).checked;
      if (!(fresh instanceof HTMLInputElement) || fresh.checked === checked) return false;
      if (fresh.type === 'radio' && !checked) return false;
      setProperty(fresh, 'checked', checked);
      // React hears checkboxes and radios through `click`; a plain Event (not a MouseEvent)
      // does not toggle the box a second time.
      announce(fresh, 'click', 'input', 'change');
      return true;
    }
    case 'file': {
      const files = (old as HTMLInputElement).files;
      if (!(fresh instanceof HTMLInputElement) || !files || sameFiles(files, fresh.files)) return false;
      fresh.files = files;
      announce(fresh, 'input', 'change');
      return true;
    }
    default:
      return false;
  }
}

function sameFiles(a: FileList, b: FileList | null): boolean {
  return !!b && a.length === b.length && Array.from(a).every((file, i) => b[i] === file);
}

/**
 * Carries what the visitor entered into the fallback's controls (`before`, the nodes React
 * has just taken out, which nothing can change any more) over to the island's controls under
 * `root`.
 */
export function carryOver(before: readonly FormControl[], root: ParentNode): void {
  for (const old of before) {
    // Looked up again each time: a change may re-render the island (a phone number's country
    // picker, a breakdown that appears) and add or replace controls.
    const fresh = counterpart(old, before, formControls(root));
    if (fresh) copyControl(old, fresh);
  }
}

/**
 * Where the caret goes in the island's control `fresh` for a caret at [start, end] in the
 * fallback's `old`: at the end when it was at the end (the island may format the value, a
 * phone number say, and make it longer), else at the same place.
 */
export function caretFor(old: { value: string; selectionStart: number | null; selectionEnd: number | null }, fresh: { value: string }): [number, number] | null {
  if (old.selectionStart === null || old.selectionEnd === null) return null;
  if (old.selectionStart === old.value.length && old.selectionEnd === old.value.length) {
    return [fresh.value.length, fresh.value.length];
  }
  const clamp = (n: number) => Math.min(n, fresh.value.length);
  return [clamp(old.selectionStart), clamp(old.selectionEnd)];
}
