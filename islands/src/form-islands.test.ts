// Every intent-loaded island with form controls has a row in the table of
// e2e/keep-values.spec.ts (issue 24), so a new form island cannot come without a test that
// what a visitor enters survives its swap. An island has form controls when its fallback in
// the templates has one or when its code (with what it imports from islands/src) renders one.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = dirname(fileURLToPath(import.meta.url));
const TEMPLATES = resolve(SRC, '../../templates');
const TABLE_SPEC = resolve(SRC, '../e2e/keep-values.spec.ts');
const CONTROL = /<(input|select|textarea)\b/;

function files(dir: string, suffix: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path, suffix);
    return suffix.test(entry.name) ? [path] : [];
  });
}

/** What is inside the `<div>` whose opening tag starts at `start` (its fallback). */
function divContent(html: string, start: number): string {
  const open = html.indexOf('>', start) + 1;
  const tags = /<div\b|<\/div>/g;
  tags.lastIndex = open;
  let depth = 1;
  for (let m = tags.exec(html); m; m = tags.exec(html)) {
    depth += m[0] === '</div>' ? -1 : 1;
    if (depth === 0) return html.slice(open, m.index);
  }
  return html.slice(open);
}

/** `data-hydrate="intent"` islands of some templates, with their fallbacks' markup. */
function intentIslands(templates: Array<{ text: string }>): Map<string, string> {
  const found = new Map<string, string>();
  for (const { text } of templates) {
    for (const m of text.matchAll(/<div\b[^>]*\bdata-island="([A-Za-z0-9]+)"[^>]*>/g)) {
      if (!/\bdata-hydrate="intent"/.test(m[0])) continue;
      found.set(m[1], (found.get(m[1]) ?? '') + divContent(text, m.index));
    }
  }
  return found;
}

/** Whether a module, or one it imports from islands/src, renders a form control. */
function rendersControls(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  if (CONTROL.test(text)) return true;
  for (const m of text.matchAll(/^\s*import\s+(?!type\b)[^'";]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm)) {
    const base = resolve(dirname(file), m[1]);
    const next = [`${base}.tsx`, `${base}.ts`].find((f) => {
      try {
        readFileSync(f);
        return true;
      } catch {
        return false;
      }
    });
    if (next && rendersControls(next, seen)) return true;
  }
  return false;
}

/** The `island` of each row of `FORM_ISLANDS` in the spec's source. */
function tableIslands(source: string): string[] {
  const file = ts.createSourceFile('spec.ts', source, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(file) === 'FORM_ISLANDS' && node.initializer && ts.isArrayLiteralExpression(node.initializer)) {
      for (const row of node.initializer.elements) {
        if (!ts.isObjectLiteralExpression(row)) continue;
        for (const property of row.properties) {
          if (ts.isPropertyAssignment(property) && property.name.getText(file) === 'island' && ts.isStringLiteral(property.initializer)) {
            names.push(property.initializer.text);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

describe('the table of intent-loaded form islands (e2e/keep-values.spec.ts)', () => {
  it('reads islands, fallbacks and table rows the way it should', () => {
    const html = '<div data-island="A" data-hydrate="intent"><div><input></div></div><div data-island="B" data-hydrate="visible"></div>';
    expect([...intentIslands([{ text: html }])]).toEqual([['A', '<div><input></div>']]);
    expect(tableIslands("const FORM_ISLANDS: Row[] = [{ title: 't', island: 'A' }, { island: 'B', path: '/' }];")).toEqual(['A', 'B']);
  });

  it('has a row for every intent-loaded island with form controls, and none for another', () => {
    const templates = files(TEMPLATES, /\.html$/).map((f) => ({ text: readFileSync(f, 'utf8') }));
    const intent = intentIslands(templates);
    const withControls = [...intent]
      .filter(([name, fallback]) => CONTROL.test(fallback) || rendersControls(join(SRC, 'islands', `${name}.tsx`)))
      .map(([name]) => name)
      .sort();
    // The forms of issue 24, found without being named here.
    expect(withControls).toEqual(expect.arrayContaining(['ContactForm', 'CustomPayment', 'Newsletter', 'PaperForm', 'SponsorCheckout', 'TicketCheckout']));
    const rows = [...new Set(tableIslands(readFileSync(TABLE_SPEC, 'utf8')))].sort();
    expect(rows, 'FORM_ISLANDS in e2e/keep-values.spec.ts: one row or more per island').toEqual(withControls);
  });
});
