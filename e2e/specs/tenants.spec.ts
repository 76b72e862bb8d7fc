// Tenants in the app's own session: the noisy-tenants preset runs under `fair` with its tenants as
// the share panel's groups and its weight shown, and the operator re-weights a tenant live.
import { expect, test } from '../fixtures/app.ts';
import { openApp, runPreset, screenshot, setField, view } from './app-helpers.ts';

test('noisy-tenants: tenants are the groups, weights show, and a weight set live takes', async ({
  page,
  appUrl,
}) => {
  await openApp(page, appUrl);
  try {
    await runPreset(page, 'noisy-tenants', 'cancel');
    await view(page, 'live');
    await expect(page.getByTestId('engine-policy')).toContainText('fair');
    const groups = page.getByTestId('fair-groups');
    await expect(page.getByTestId('jain')).toHaveAttribute('data-unit', 'tenant', {
      timeout: 30_000,
    });
    await expect(groups).toHaveAttribute('data-shares', /initech ×2=/, { timeout: 30_000 });
    await expect(groups).toHaveAttribute('data-shares', /acme=/);
    // Every bar is named on screen (recharts drew one name of two, where they did not fit).
    await expect(groups).toContainText('acme');
    await expect(groups).toContainText('initech ×2');
    // The tenants panel names every tenant, with its weight.
    const initech = page.locator('[data-testid="tenant-row"][data-tenant="initech"]');
    await expect(initech).toHaveAttribute('data-weight', '2');
    await expect(page.locator('[data-testid="tenant-row"][data-tenant="acme"]')).toHaveCount(1);
    await screenshot(page, 'live-tenants');
    // A tenant's name asks the engine for its jobs.
    await page
      .locator('[data-testid="tenant-row"][data-tenant="initech"] [data-testid="tenant-jobs"]')
      .click();
    await expect(page.getByTestId('job-search')).toHaveValue('tenant:initech');
    await expect(page.getByTestId('job-search-note')).toContainText('matched');
    // The preset names its classes after their tenants (`initech-report`).
    await expect(page.locator('[data-testid^="job-row-"]').first()).toContainText('initech');

    await view(page, 'controls');
    await expect(page.getByTestId('echo-tenantWeights')).toHaveText('engine: initech=2');
    await setField(page, 'tenantWeights', 'acme=4, initech=2');
    await expect(page.getByTestId('echo-tenantWeights')).toHaveText('engine: acme=4, initech=2');
    await view(page, 'live');
    await expect(groups).toHaveAttribute('data-shares', /acme ×4=/, { timeout: 30_000 });
  } finally {
    await runPreset(page, 'interactive-vs-scan', 'cancel');
  }
});
