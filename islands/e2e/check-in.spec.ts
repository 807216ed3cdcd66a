// The check-in desk (issue 33 item 3) in Chromium with a camera: a visitor pays for a physical
// ticket in TEST mode, the ticket's check-in address is read from the attendee page (the link
// in the receipt mail), and a video of its QR code is fed to Chromium's fake camera
// (--use-fake-device-for-media-stream --use-file-for-fake-video-capture). Desk staff sign in
// by their mailed link; "Scan a ticket" checks the ticket in ("Valid"), a second scan says
// "Already". Headless Chromium on Linux has no BarcodeDetector, so this runs the island's jsQR
// path. The desk page also passes axe.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import QRCode from 'qrcode';
import { test, expect } from './fixtures';
import { seriousViolations } from './axe';
import { LISTENER_PHYSICAL } from './content';
import { mailDir, mailFiles, mailedLink, mailedText } from './mail';
import { signInAs } from './sign-in';
import { payForTicket } from './tickets';

const DESK = 'e2e.desk@example.org';
// An organiser of the e2e server (playwright.config.ts), who releases the certificates.
const ORGANISER = 'e2e.certificates@example.org';
const PAYER = {
  name: 'Quill Deskscan',
  email: 'e2e.checkin.attendee@example.net',
  address: '5 Harbour Row',
};

/**
 * A Y4M video (YUV 4:2:0, two identical frames) of the QR code of `text`, black on white,
 * eight pixels a module with the four-module quiet zone, centred in a 360x360 picture: what
 * Chromium's fake camera plays in a loop. About 390 KB.
 */
function qrVideo(text: string, file: string): void {
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const { size, data } = qr.modules;
  const side = 360;
  const scale = 8;
  const drawn = (size + 8) * scale;
  if (drawn > side) throw new Error(`the QR code of ${text} (${size} modules) does not fit ${side} pixels`);
  const offset = Math.floor((side - size * scale) / 2);
  const luma = Buffer.alloc(side * side, 235);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      if (!data[y * size + x]) continue;
      for (let dy = 0; dy < scale; dy++) {
        luma.fill(16, (offset + y * scale + dy) * side + offset + x * scale, (offset + y * scale + dy) * side + offset + (x + 1) * scale);
      }
    }
  }
  const chroma = Buffer.alloc((side / 2) * (side / 2) * 2, 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${side} H${side} F10:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(file, Buffer.concat([header, frame, frame]));
}

test('issue 33 end to end: a camera scan checks the ticket in once, a second says already; the receipt downloads; the released certificate verifies', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const attendeeLink = await payForTicket(page, LISTENER_PHYSICAL, PAYER);
  await page.goto(attendeeLink);
  const checkInUrl = (await page.locator('#check-in-url').innerText()).trim();
  expect(checkInUrl, 'the attendee page prints the check-in address').toBeTruthy();

  const dir = mkdtempSync(join(tmpdir(), 'check-in-camera-'));
  const video = join(dir, 'qr.y4m');
  qrVideo(checkInUrl!, video);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  try {
    const context = await browser.newContext({ baseURL, permissions: ['camera'] });
    const desk = await context.newPage();
    const errors: string[] = [];
    desk.on('pageerror', (e) => errors.push(e.message));

    // Desk staff sign in by their mailed link, and land on the desk.
    await desk.goto('/organiser/check-in');
    const asked = new Set(mailFiles());
    await desk.getByLabel('E-mail address').fill(DESK);
    await desk.getByRole('button', { name: /sign-in link/i }).click();
    const link = await mailedLink(DESK, /sign-in link/i, /https?:\/\/[^\s"<>]+\/organiser\/check-in\/sign-in\/[A-Za-z0-9_-]+/, asked);
    await desk.goto(link);
    await desk.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(desk.getByRole('heading', { level: 1, name: 'Check-in desk' })).toBeVisible();
    await expect(desk.locator('[data-island="CheckInDesk"][data-island-ready]')).toBeAttached();
    expect(await seriousViolations(desk)).toEqual([]);

    const status = desk.getByRole('status');
    await desk.getByRole('button', { name: 'Scan a ticket' }).click();
    await expect(status).toContainText('Valid: welcome', { timeout: 30_000 });
    await expect(status).toContainText(PAYER.name);
    await expect(status).toContainText(LISTENER_PHYSICAL.title);
    // One press, one scan: the camera is off again.
    await expect(desk.getByRole('button', { name: 'Scan a ticket' })).toBeVisible();

    await desk.getByRole('button', { name: 'Scan a ticket' }).focus();
    await desk.keyboard.press('Enter');
    await expect(status).toContainText('Already checked in today', { timeout: 30_000 });
    await expect(status).toContainText(`by ${DESK}`);
    expect(errors).toEqual([]);
    await context.close();
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }

  // The rest of issue 33's "Done when": the numbered receipt downloads whole from the attendee
  // page; after organisers release certificates, the checked-in attendee gets one mail whose
  // certificate link is a PDF and whose printed verify address says valid.
  await page.goto(attendeeLink);
  const receiptLink = page.getByRole('link', { name: /^Download receipt [A-Z]+-\d{4}-\d{6} \(PDF\)$/ });
  const [download] = await Promise.all([page.waitForEvent('download'), receiptLink.click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const receipt = readFileSync((await download.path())!);
  expect(receipt.subarray(0, 5).toString()).toBe('%PDF-');
  expect(receipt.subarray(-6).toString()).toContain('%%EOF');

  const beforeRelease = new Set(mailFiles());
  await signInAs(page, ORGANISER);
  await page.goto('/organiser/certificates');
  await page.getByRole('button', { name: 'Release certificates' }).click();
  // Another spec may release at the same time and issue this attendee's certificate first:
  // then this release has nothing new, and the attendee still gets exactly one mail.
  await expect(page.locator('#notice')).toContainText(/Release \d+ is done|Nothing new/);
  const mail = await mailedText(PAYER.email, /Your certificates/, beforeRelease, /\/certificates\/[A-Z2-7]{26}/);
  const verify = mail.match(/https?:\/\/[^\s"<>]+\/certificates\/[A-Z2-7]{26}(?![.\w])/)![0];
  const pdf = await page.request.get(`${verify}.pdf`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await page.goto(verify);
  await expect(page.locator('#certificate-name')).toHaveText(PAYER.name);
  await expect(page.locator('#certificate-type')).toHaveText('Attendance');
  await expect(page.locator('#certificate-validity')).toHaveText('Valid');
  expect(await seriousViolations(page)).toEqual([]);
  const certificateMails = mailFiles().filter((name) => !beforeRelease.has(name) && /Your certificates/.test(readFileSync(join(mailDir(), name), 'utf8')) && readFileSync(join(mailDir(), name), 'utf8').includes(`To: ${PAYER.email}`));
  expect(certificateMails, 'one certificate mail for the attendee').toHaveLength(1);
});
