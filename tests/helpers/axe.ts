/** axe-core in a real page: the serious and critical WCAG 2.x A and AA violations, as lines. */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Serious and critical axe violations of the page as it is now (WCAG 2.x A and AA rules, and label
 * in name).
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated, not a script tag: the shop's CSP rightly refuses inline scripts.
  await page.evaluate(readFileSync(axePath, 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: unknown[] }> } })
      .axe;
    // One pass: WCAG 2.5.3 (an accessible name holds the visible label) is an experimental axe rule,
    // which the tags leave out; a rule enabled by name runs beside them (axe's ruleShouldRun).
    const result = await axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return result.violations;
  });
  return (violations as AxeViolation[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    );
}
