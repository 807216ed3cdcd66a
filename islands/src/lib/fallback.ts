// Islands replace their server-rendered fallback on mount. A visitor may already have typed
// into the fallback form by then; these read what is there (during the island's first render,
// before React swaps the markup) so nothing typed is lost.

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
