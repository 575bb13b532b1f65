/**
 * What every journey keeps beside its results: axe-core scans (failing on serious or critical
 * violations) and screenshots of what the operator sees.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; failureSummary?: string }[];
}

/**
 * axe-core over the page as it is. The script is evaluated through the DevTools protocol rather
 * than added as a tag: the app's Content-Security-Policy (rightly) refuses inline scripts, and the
 * journeys keep it on. Every violation, serious or not, is attached to the test's results.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> };
    };
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  await test.info().attach(`axe-${what}.json`, {
    body: JSON.stringify(violations, null, 2),
    contentType: 'application/json',
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `serious or critical axe-core violations on ${what}`).toEqual([]);
}

/**
 * A screenshot kept with the test's results. The viewport by default: the review's panes scroll on
 * their own, so a full-page capture (which stretches the viewport to the page) would show another
 * layout; forms that scroll as a whole ask for the full page.
 */
export async function keepScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}) {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}
