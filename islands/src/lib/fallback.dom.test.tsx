// @vitest-environment happy-dom
// What a visitor entered into a server fallback survives the island taking over, for any
// island, including one that never looks at the fallback itself (issue 24).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState, type ChangeEvent, type ComponentType } from 'react';
import { mountIsland, type IslandLoaders } from '../runtime';
import { caretFor, counterpart, formControls } from './fallback';
import CustomPayment from '../islands/CustomPayment';

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

/** An `intent` island element with `html` as its fallback, and a loader the test releases. */
function intentIsland<P>(name: string, html: string, Component: ComponentType<P>, props: object = {}) {
  const el = document.createElement('div');
  el.setAttribute('data-island', name);
  el.setAttribute('data-hydrate', 'intent');
  el.setAttribute('data-props', JSON.stringify(props));
  el.innerHTML = html;
  document.body.append(el);
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const loaders: IslandLoaders = { [`./islands/${name}.tsx`]: () => arrived.then(() => ({ default: Component })) };
  return { el, arrive, mounting: mountIsland(el, loaders) };
}

/** As a paste or autofill does it: the value and its `input` event at once. */
function enter(control: HTMLInputElement | HTMLTextAreaElement, value: string) {
  control.value = value;
  control.dispatchEvent(new Event('input', { bubbles: true }));
}

const CUSTOM_FALLBACK = `<form class="form custom-payment__form" method="get" action="/pricing#custom-payment">
  <div class="field"><label for="custom-amount">Amount (USD)</label>
  <input id="custom-amount" name="amount" type="number" min="0" step="0.01" value=""></div>
  <button class="button button--primary" type="submit">Pay</button></form>`;

describe('values entered into the fallback', () => {
  it('the custom amount set in the same task as the focus that starts the loading is kept, and its total shown', async () => {
    const { el, arrive, mounting } = intentIsland('CustomPayment', CUSTOM_FALLBACK, CustomPayment, { currency: 'USD', initialAmount: '' });
    const server = el.querySelector<HTMLInputElement>('#custom-amount')!;
    // One task: focus (the intent that starts the loading) and the value right after it.
    server.focus();
    enter(server, '100');
    arrive();
    expect(await mounting).toBe(true);

    const island = el.querySelector<HTMLInputElement>('#custom-amount')!;
    expect(island).not.toBe(server);
    expect(island.value).toBe('100');
    expect(el.querySelector('.custom-payment__total dd')?.textContent).toBe('USD 106.00');
    expect(document.activeElement).toBe(island);
  });

  it('every kind of control keeps its value, and focus stays on the radio the visitor was on', async () => {
    // An island that reads nothing from the fallback and renders ids the fallback lacks.
    function Survey() {
      const [v, setV] = useState({ name: '', note: '', kind: '', when: 'Oral', topic: '', agree: false });
      const [file, setFile] = useState('');
      const set = (key: keyof typeof v) => (e: ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>) =>
        setV({ ...v, [key]: e.target.type === 'checkbox' ? (e.target as HTMLInputElement).checked : e.target.value });
      return (
        <form>
          <input id="s-name" name="name" value={v.name} onChange={set('name')} />
          <textarea id="s-note" name="note" value={v.note} onChange={set('note')} />
          <input type="radio" id="s-kind-a" name="kind" value="A" checked={v.kind === 'A'} onChange={set('kind')} />
          <input type="radio" name="kind" value="B" checked={v.kind === 'B'} onChange={set('kind')} />
          <input type="radio" name="when" value="Poster" checked={v.when === 'Poster'} onChange={set('when')} />
          <input type="radio" name="when" value="Oral" checked={v.when === 'Oral'} onChange={set('when')} />
          <select id="s-topic" name="topic" value={v.topic} onChange={set('topic')}>
            <option value="">Pick one</option>
            <option value="tides">Tides</option>
          </select>
          <input type="checkbox" id="s-agree" name="agree" checked={v.agree} onChange={set('agree')} />
          <input type="file" id="s-file" name="file" onChange={(e) => setFile(e.target.files?.[0]?.name ?? '')} />
          <output id="s-summary">{`${v.name}|${v.note}|${v.kind}|${v.when}|${v.topic}|${v.agree}|${file}`}</output>
        </form>
      );
    }
    const html = `<form>
      <input id="s-name" name="name"><textarea id="s-note" name="note"></textarea>
      <input type="radio" name="kind" value="A"><input type="radio" name="kind" value="B">
      <input type="radio" name="when" value="Poster"><input type="radio" name="when" value="Oral">
      <select id="s-topic" name="topic"><option value="">Pick one</option><option value="tides">Tides</option></select>
      <input type="checkbox" id="s-agree" name="agree"><input type="file" id="s-file" name="file"></form>`;
    const { el, arrive, mounting } = intentIsland('Survey', html, Survey);
    const q = <T extends Element>(selector: string) => el.querySelector<T>(selector)!;
    q<HTMLInputElement>('#s-name').focus();
    enter(q('#s-name'), 'Ana');
    enter(q('#s-note'), 'Two\nlines');
    q<HTMLSelectElement>('#s-topic').value = 'tides';
    q<HTMLInputElement>('#s-agree').checked = true;
    const paper = new File(['%PDF-1.4'], 'paper.pdf', { type: 'application/pdf' });
    Object.defineProperty(q('#s-file'), 'files', { value: [paper] as unknown as FileList, configurable: true });
    q<HTMLInputElement>('[name="when"][value="Poster"]').checked = true;
    const radio = q<HTMLInputElement>('[name="kind"][value="B"]');
    radio.checked = true;
    radio.focus();
    arrive();
    expect(await mounting).toBe(true);

    expect(q<HTMLInputElement>('#s-name').value).toBe('Ana');
    expect(q<HTMLTextAreaElement>('#s-note').value).toBe('Two\nlines');
    expect(q<HTMLSelectElement>('#s-topic').value).toBe('tides');
    expect(q<HTMLInputElement>('#s-agree').checked).toBe(true);
    expect(q<HTMLInputElement>('[name="kind"][value="B"]').checked).toBe(true);
    expect(q<HTMLInputElement>('[name="when"][value="Poster"]').checked).toBe(true);
    // The island's state, not only its markup, has every value.
    expect(q('#s-summary').textContent).toBe('Ana|Two\nlines|B|Poster|tides|true|paper.pdf');
    expect(document.activeElement).toBe(q('[name="kind"][value="B"]'));
  });

  it("a control the visitor left alone keeps the island's own value", async () => {
    function Prefilled() {
      const [v, setV] = useState('from the island');
      return <input id="p" name="p" value={v} onChange={(e) => setV(e.target.value)} />;
    }
    const { el, arrive, mounting } = intentIsland('Prefilled', '<input id="p" name="p" value="from the server">', Prefilled);
    el.dispatchEvent(new Event('pointerenter'));
    arrive();
    expect(await mounting).toBe(true);
    expect(el.querySelector('input')!.value).toBe('from the island');
  });

  it.each([
    ['to another control', true],
    ['to nothing (a click beside it)', false],
  ])('focus that left the island before the swap, %s, is not pulled back', async (_how, toControl) => {
    function Field() {
      const [v, setV] = useState('');
      return <input id="f" name="f" value={v} onChange={(e) => setV(e.target.value)} />;
    }
    const outside = document.createElement('button');
    document.body.append(outside);
    const { el, arrive, mounting } = intentIsland('Field', '<input id="f" name="f">', Field);
    const server = el.querySelector('input')!;
    server.focus();
    if (toControl) outside.focus();
    else server.blur();
    arrive();
    expect(await mounting).toBe(true);
    expect(document.activeElement).toBe(toControl ? outside : document.body);
  });
});

describe('counterpart', () => {
  it('goes by id, else by name (and value for radios) at the same rank, never across kinds', () => {
    const before = document.createElement('div');
    before.innerHTML = '<input id="a" name="x"><input name="r" type="radio" value="1"><input name="r" type="radio" value="2"><input name="t"><input name="t">';
    const after = document.createElement('div');
    after.innerHTML = '<input id="a" name="y"><input id="r1" name="r" type="radio" value="1"><input name="r" type="radio" value="2"><input name="t"><input name="t"><select name="z"></select>';
    const [b, a] = [formControls(before), formControls(after)];
    expect(counterpart(b[0], b, a)).toBe(a[0]);
    expect(counterpart(b[2], b, a)).toBe(a[2]);
    expect(counterpart(b[4], b, a)).toBe(a[4]);
    const select = document.createElement('input');
    select.name = 'z';
    expect(counterpart(select, [select], a)).toBeUndefined();
  });
});

describe('caretFor', () => {
  it('keeps a caret at the end at the end of a longer, formatted value', () => {
    expect(caretFor({ value: '2015550123', selectionStart: 10, selectionEnd: 10 }, { value: '(201) 555-0123' })).toEqual([14, 14]);
    expect(caretFor({ value: 'Ana Cruz', selectionStart: 3, selectionEnd: 3 }, { value: 'Ana Cruz' })).toEqual([3, 3]);
    expect(caretFor({ value: 'abcdef', selectionStart: 2, selectionEnd: 5 }, { value: 'abc' })).toEqual([2, 3]);
    expect(caretFor({ value: 'x', selectionStart: null, selectionEnd: null }, { value: 'x' })).toBeNull();
  });
});
