/**
 * Shared steps of the upload journeys: the form filled as an operator does, the Uploads list read
 * by its rows, upload throttling. Nothing is mocked: every request goes
 * to the real app server and the embedded reference service.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import type { FilePayload } from './upload-documents';

/** The seeded invoice model (server/reference/models.json). */
export const INVOICE_MODEL_ID = 'b4e6af9b-dfe5-44c8-9ae8-22225d8d2d5a';
/** How the app names that model wherever it shows one (the reference service's name for it). */
export const INVOICE_MODEL_NAME = 'Invoice (reference)';

export async function openUploadForm(page: Page): Promise<void> {
  await page.goto('/');
  // The session is checked first: on a machine busy with other journeys that can take a while.
  await expect(page.getByRole('heading', { name: 'New extraction' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue(INVOICE_MODEL_ID);
}

export async function chooseFiles(page: Page, files: FilePayload[]): Promise<void> {
  await page.getByLabel('Document', { exact: true }).setInputFiles(files);
  for (const file of files)
    await expect(selectedFile(page, file.name)).not.toHaveAttribute('data-check', 'checking');
}

export function selectedFile(page: Page, name: string): Locator {
  return page.locator(`li[data-file="${name}"]`);
}

export function uploadRow(page: Page, name: string): Locator {
  return page.locator(`li[data-upload="${name}"]`);
}

export async function extract(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Extract', exact: true }).click();
}

/** The row of an upload in the team's Uploads list (`/uploads`), found by its file name. */
export function uploadsRow(page: Page, filename: string): Locator {
  return page.locator('tr[data-document-id]').filter({
    has: page.getByRole('link', { name: filename, exact: true }),
  });
}

/** Slows this page's uploads down (Chromium's own network emulation), so that progress can be seen. */
export async function throttleUploads(page: Page, bytesPerSecond: number): Promise<() => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return async () => {
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
  };
}

/**
 * Records, in the page, every value an attribute takes on matching elements (a MutationObserver), so a
 * state that lasts a moment (queued, rate limited) can be asserted afterwards.
 */
export async function recordAttribute(page: Page, attribute: string): Promise<() => Promise<string[]>> {
  await page.evaluate((name) => {
    const seen = new Set<string>();
    (window as unknown as { __seen: Set<string> }).__seen = seen;
    const note = (el: Element) => {
      const value = el.getAttribute(name);
      if (value !== null) seen.add(value);
    };
    document.querySelectorAll(`[${name}]`).forEach(note);
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'attributes' && record.target instanceof Element) note(record.target);
        record.addedNodes.forEach((node) => {
          if (node instanceof Element) {
            note(node);
            node.querySelectorAll(`[${name}]`).forEach(note);
          }
        });
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: [name] });
  }, attribute);
  return () => page.evaluate(() => [...(window as unknown as { __seen: Set<string> }).__seen]);
}
