// A person signs in to the console with a real browser (Debian's Chromium via playwright-core):
// "Sign in with GitHub" → gitdex → the stand-in's consent page, where alice types her login and
// authorizes → back on the console, signed in, reading acme/sdk (private); "Sign out" ends it.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { startSignInWorld, type SignInWorld } from '../support/sign-in-world';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('console sign-in in a real browser', () => {
  let world: SignInWorld;
  let browser: Browser;
  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH`);
    world = await startSignInWorld();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });
  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await world?.close();
  });

  test('alice signs in through the consent page, sees the private repository, and signs out', async () => {
    const page = await browser.newPage();
    await page.goto(`${world.url}/`);
    // Sign-in is required here: before it, the page says so and lists nothing.
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await page.waitForURL(`${world.standIn.url}/login/oauth/authorize**`);
    await page.getByLabel('Sign in as').fill('alice');
    await page.getByRole('button', { name: 'Authorize' }).click();
    await page.waitForURL(`${world.url}/`);
    await page.getByText('Signed in as alice', { exact: true }).waitFor();
    await page.locator('#repo-rows tr[data-repository="acme/sdk"]').waitFor({ timeout: 10_000 });
    expect(page.url()).not.toContain('code=');
    const tokenInTab = await page.evaluate(() => sessionStorage.getItem('gitdex.console.token'));
    expect(tokenInTab?.startsWith('gdx_at_')).toBe(true);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
    expect((await fetch(`${world.url}/v1/repositories`, { headers: { authorization: `Bearer ${tokenInTab ?? ''}` } })).status).toBe(401);
    await page.close();
  });
});
