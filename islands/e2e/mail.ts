// The mails the e2e server writes under E2E_DATA_DIR/mail/ (no SMTP_URL, so the outbox
// worker writes .eml files): listing them, decoding them, and waiting for the newest link a
// mail to one address carries. Other specs share the server and its mail folder, so a mail is
// told apart by its recipient and subject.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from './fixtures';

/** How long the outbox worker may take to write a mail. */
export const MAIL_DEADLINE_MS = 30_000;

/**
 * The mail folder of the shared server, or of the server whose DATA_DIR is `dataDir` (the
 * review spec's own server, playwright.config.ts).
 */
export function mailDir(dataDir = process.env.E2E_DATA_DIR): string {
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (playwright.config.ts sets it when it starts the server)');
  return join(dataDir, 'mail');
}

export function mailFiles(dataDir?: string): string[] {
  try {
    return readdirSync(mailDir(dataDir)).filter((name) => name.endsWith('.eml'));
  } catch {
    return []; // the worker creates the folder with its first mail
  }
}

/** Quoted-printable decoding: soft line breaks joined, `=XX` escapes turned back into bytes. */
export function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i], 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * The decoded text of the newest mail to `to` whose subject matches `subject`, that was not in
 * `before` and whose text matches `wanted`, waited for by polling until MAIL_DEADLINE_MS.
 */
export async function mailedText(
  to: string,
  subject: RegExp,
  before: Set<string>,
  wanted: RegExp = /[\s\S]/,
  dataDir?: string,
): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        const fresh = mailFiles(dataDir)
          .filter((name) => !before.has(name))
          .map((name) => join(mailDir(dataDir), name))
          .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
        for (const file of fresh) {
          const text = decodeQuotedPrintable(readFileSync(file, 'utf8'));
          if (!new RegExp(`^To: ${to.replace(/\./g, '\\.')}\\r?$`, 'mi').test(text)) continue;
          const subjectLine = text.match(/^Subject: (.*)$/im)?.[1] ?? '';
          if (!subject.test(subjectLine) || !wanted.test(text)) continue;
          found = text;
          return found;
        }
        return undefined;
      },
      { message: `a mail to ${to} (${subject}) in ${mailDir(dataDir)}`, timeout: MAIL_DEADLINE_MS, intervals: [100, 250, 500] },
    )
    .toBeDefined();
  return found!;
}

/**
 * The first `link` match of the newest mail to `to` whose subject matches `subject` and that
 * was not in `before`, waited for by polling until MAIL_DEADLINE_MS.
 */
export async function mailedLink(
  to: string,
  subject: RegExp,
  link: RegExp,
  before: Set<string>,
  dataDir?: string,
): Promise<string> {
  const text = await mailedText(to, subject, before, link, dataDir);
  return text.match(link)![0];
}
