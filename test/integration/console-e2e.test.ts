// The web console end to end: headless Chromium (Debian's chromium package, driven by
// playwright-core) against the product running in this process on real Kafka and
// Elasticsearch, fed by the GitHub stand-in. Screenshots of each view go to
// test-artifacts/console/ (git-ignored).
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { loadEnv } from '@gitdex/contracts';
import { runGitdex, type RunningGitdex } from '@gitdex/gitdex';
import { createLogger } from '@gitdex/observability';
import { commitFiles, createRepo, fixtureGit, makeTempRoot, removeTempRoot, type FixtureRepo } from '../github-standin/fixture-repos';
import { createGitHubStandIn, type GitHubStandIn } from '../github-standin/server';
import { engineEndpoints, uniqueName } from '../harness/engines';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = join(__dirname, '../../test-artifacts/console');
const SECRET = 'console-e2e-secret';
/** A reader token (at least 16 characters) that may read the private repositories of OWNER. */
const TOKEN = 'console-e2e-token-7f3a9c';
const OWNER = 'acme';
const TOKEN_KEY = 'gitdex.console.token';

/** The console's URL on a running gitdex, and how to stop what serving it took. */
interface ConsoleSite {
  url: string;
  close(): Promise<void>;
}

/** The console as the product serves it (createConsoleRouter mounted in run.ts): the test fails when it does not. */
async function consoleOf(gitdex: RunningGitdex): Promise<ConsoleSite> {
  const page = await fetch(`${gitdex.url}/`);
  expect({ status: page.status, servesConsole: (await page.text()).includes('console/main.js') }).toEqual({ status: 200, servesConsole: true });
  return { url: `${gitdex.url}/`, close: async () => undefined };
}

async function waitFor<T>(check: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${(last as Error).toString()})` : ''}`);
}

interface StateAnswer {
  repositories: { repository: string; commit: string | null; status: string }[];
}

/** Waits until gitdex serves the repository at `sha` (to the token's holder, if given). */
async function indexedAt(gitdex: RunningGitdex, repository: string, sha: string, token?: string): Promise<void> {
  let last: unknown;
  await waitFor(async () => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const answer = (await (await fetch(`${gitdex.url}/v1/repositories?repository=${repository}`, { headers })).json()) as StateAnswer;
    last = answer;
    const state = answer.repositories?.[0];
    return state?.commit === sha && state.status === 'ready';
  }, `${repository} indexed at ${sha}`).catch((error: Error) => {
    throw new Error(`${error.message}; last answer: ${JSON.stringify(last)}`);
  });
}

const INDEX_TS =
  [
    "import { createServer } from 'node:http';",
    "import { listProducts } from './catalog/products';",
    "import { slugify } from './utils/strings';",
    "import { today } from './utils/dates';",
    '',
    'const port = Number(process.env.PORT ?? 3000);',
    '',
    'const server = createServer((req, res) => {',
    "  if (req.url === '/products') {",
    '    const products = listProducts().map((p) => ({ ...p, slug: slugify(p.name) }));',
    "    res.writeHead(200, { 'content-type': 'application/json' });",
    '    res.end(JSON.stringify({ date: today(), products }));',
    '    return;',
    '  }',
    '  res.writeHead(404);',
    "  res.end('not found');",
    '});',
    '',
    'server.listen(port, () => {',
    '  console.log(`storefront listening on ${port}`);',
    '});',
  ].join('\n') + '\n';

function fixtureFiles(): Record<string, string> {
  const files: Record<string, string> = {
    'README.md': '# Storefront\n\nA small shop API: products, carts and orders.\n\n## Run\n\n    npm start\n',
    'package.json': '{\n  "name": "storefront",\n  "version": "1.0.0",\n  "scripts": { "start": "node dist/index.js" }\n}\n',
    'src/index.ts': INDEX_TS,
    'src/utils/strings.ts': "export function slugify(text: string): string {\n\treturn text.toLowerCase().replace(/[^a-z0-9]+/g, '-');\n}\n",
    'src/utils/dates.ts': 'export const today = (): string => new Date().toISOString().slice(0, 10);\n',
    'src/components/Button.tsx': 'export const Button = ({ label }: { label: string }) => <button type="button">{label}</button>;\n',
    'src/catalog/products.ts': "export interface Product { id: number; name: string; price: number }\n\nexport const listProducts = (): Product[] => [{ id: 1, name: 'Blue Mug', price: 12 }];\n",
    'docs/guide.md': '# Guide\n\nStart with src/index.ts.\n',
  };
  // More entries than one page of the listing (200), to page with the cursor.
  for (let i = 0; i < 205; i += 1) files[`fixtures/order-${String(i).padStart(3, '0')}.json`] = `{ "order": ${i}, "items": [] }\n`;
  return files;
}

/** A short random suffix: repository names (and so the stand-in's ids) differ between runs. */
const suffix = () => Math.random().toString(36).slice(2, 6);

describe('web console (Chromium against gitdex on Kafka and Elasticsearch)', () => {
  let root: string;
  let dataDir: string;
  let prefix: string;
  let standIn: GitHubStandIn;
  let gitdex: RunningGitdex;
  let shared: RunningGitdex;
  let locked: RunningGitdex;
  let site: ConsoleSite;
  let sharedSite: ConsoleSite;
  let lockedSite: ConsoleSite;
  let browser: Browser;
  let repo: FixtureRepo;
  let repository: string;
  let secretRepository: string;
  let secretSha: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH`);
    await mkdir(ARTIFACTS, { recursive: true });
    root = await makeTempRoot('gitdex-console-');
    dataDir = await mkdtemp(join(tmpdir(), 'gitdex-console-data-'));
    prefix = uniqueName('console').replace(/-/g, '');
    standIn = await createGitHubStandIn({ root, secret: SECRET, rateLimit: { limit: 1_000_000 } });
    const { kafkaBrokers, elasticsearchUrl } = engineEndpoints();
    const env = {
      PORT: '0',
      GITHUB_API_URL: standIn.url,
      // Any token: the stand-in shows private repositories to authenticated requests.
      GITHUB_TOKEN: 'console-e2e-github-token',
      GITHUB_WEBHOOK_SECRETS: SECRET,
      KAFKA_BROKERS: kafkaBrokers,
      // A topic and consumer group of its own: no other test's events, nor ours to others.
      KAFKA_TOPIC: uniqueName('console'),
      KAFKA_GROUP_ID: uniqueName('console'),
      KAFKA_PARTITIONS: '3',
      ELASTICSEARCH_URL: elasticsearchUrl,
      ELASTICSEARCH_INDEX_PREFIX: prefix,
      GITDEX_DATA_DIR: dataDir,
    };
    const log = createLogger({ level: 'warn' });
    // The whole product, with no reader tokens: everyone reads the public repositories.
    gitdex = await runGitdex(loadEnv(env), 'all', log);
    // Two more readers of the same index with a token for OWNER's private repositories:
    // one lets callers without a token read public repositories, one refuses them.
    const tokens = { GITDEX_READER_TOKENS: `ops:${TOKEN}=${OWNER}/*` };
    shared = await runGitdex(loadEnv({ ...env, ...tokens }), 'reader', log);
    locked = await runGitdex(loadEnv({ ...env, ...tokens, GITDEX_REQUIRE_AUTH: 'true' }), 'reader', log);
    standIn.configure({ webhookUrl: `${gitdex.url}/webhooks/github` });
    site = await consoleOf(gitdex);
    sharedSite = await consoleOf(shared);
    lockedSite = await consoleOf(locked);

    const name = `storefront-${suffix()}`;
    repo = await createRepo(root, OWNER, name, fixtureFiles());
    repository = `${OWNER}/${name}`;
    const secretName = `billing-${suffix()}`;
    const secret = await createRepo(root, OWNER, secretName, { 'README.md': '# Billing (private)\n', 'src/invoices.ts': 'export const invoices = [];\n' });
    await standIn.setVisibility(OWNER, secretName, true, { deliver: false });
    secretRepository = `${OWNER}/${secretName}`;
    secretSha = secret.sha!;
    for (const pushed of [name, secretName]) {
      const { delivery } = await standIn.push(OWNER, pushed, { ref: 'refs/heads/main' });
      expect(delivery.status).toBe(202);
    }
    await indexedAt(gitdex, repository, repo.sha!);
    await indexedAt(shared, secretRepository, secret.sha!, TOKEN);

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await site?.close();
    await sharedSite?.close();
    await lockedSite?.close();
    await locked?.close();
    await shared?.close();
    await gitdex?.close();
    await standIn?.close();
    if (prefix) await fetch(`${engineEndpoints().elasticsearchUrl}/${prefix}-*?expand_wildcards=all`, { method: 'DELETE' }).catch(() => undefined);
    if (root) await removeTempRoot(root);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function open(url: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      // 401 and 404 answers of the API are logged by Chromium as failed loads: expected here.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) pageErrors.push(`console: ${message.text()}`);
    });
    await page.goto(url);
    return { context, page };
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const rowOf = (page: Page, name: string) => page.locator(`#repo-rows tr[data-repository="${name}"]`);
  const row = (page: Page) => rowOf(page, repository);

  it('lists the repository, browses it, reads a file, suggests paths and shows a push live', async () => {
    const { context, page } = await open(site.url);
    const [owner, name] = repository.split('/') as [string, string];

    // The repositories, with their indexed commit and freshness.
    await row(page).waitFor();
    expect(await row(page).getAttribute('data-commit')).toBe(repo.sha);
    expect(await row(page).getAttribute('data-status')).toBe('ready');
    expect(await row(page).locator('td[data-label="Files"]').textContent()).toBe('213');
    expect(await row(page).locator('td[data-label="Indexed"] time').count()).toBe(1);
    expect(await page.locator('#updated').textContent()).toContain('Live');
    expect(await rowOf(page, secretRepository).count()).toBe(0);
    await shot(page, '01-repositories');

    // The file browser: the root folder, folders first with their file counts.
    await row(page).getByRole('link', { name: repository }).click();
    await page.locator('table.tree').waitFor();
    const names = await page.locator('table.tree a.entry').allTextContents();
    expect(names).toEqual(['docs/', 'fixtures/', 'src/', 'README.md', 'package.json']);
    expect(await page.locator('table.tree tr', { hasText: 'fixtures/' }).locator('td.num').textContent()).toBe('205 files');
    expect(await page.locator('table.tree tr', { hasText: 'README.md' }).locator('td.num').textContent()).toMatch(/^\d+ B$/);
    expect(await page.locator('#browser-meta').textContent()).toContain('213 files');
    await shot(page, '02-tree');

    // Keyboard: the first entry has focus; arrows move, Enter opens, Left goes up.
    expect(await page.evaluate('document.activeElement && document.activeElement.textContent')).toBe('docs/');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('src/');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`#/${owner}/${name}/tree/src$`));
    await page.locator('table.tree a.entry[data-path="src/utils"]').waitFor();
    expect(await page.locator('#breadcrumbs li').allTextContents()).toEqual([repository, 'src']);
    expect(await page.evaluate('document.activeElement.textContent')).toBe('catalog/');
    await page.keyboard.press('ArrowLeft');
    await page.waitForURL(new RegExp(`#/${owner}/${name}$`));
    await page.locator('table.tree a.entry[data-path="fixtures"]').waitFor();
    expect(await page.evaluate('document.activeElement.textContent')).toBe('src/');

    // Paging a folder of 205 files with the cursor.
    await page.locator('table.tree a.entry[data-path="fixtures"]').click();
    await page.locator('table.tree a.entry[data-path="fixtures/order-000.json"]').waitFor();
    expect(await page.locator('table.tree tr.entry-file').count()).toBe(200);
    await page.getByRole('button', { name: 'Show 5 more' }).click();
    await page.locator('table.tree a.entry[data-path="fixtures/order-204.json"]').waitFor();
    expect(await page.locator('table.tree tr.entry-file').count()).toBe(205);
    expect(await page.locator('.tree-footer').textContent()).toContain('205 of 205 entries');

    // A file, with line numbers and a link to GitHub at the indexed commit.
    await page.goto(`${site.url}#/${owner}/${name}/tree/src`);
    await page.locator('table.tree a.entry[data-path="src/index.ts"]').click();
    await page.locator('table.code[data-path="src/index.ts"]').waitFor();
    const numbers = await page.locator('table.code td.ln').allTextContents();
    expect(numbers).toEqual(Array.from({ length: 21 }, (_, i) => String(i + 1)));
    expect(await page.locator('#L1 td.line').textContent()).toBe("import { createServer } from 'node:http';");
    expect(await page.locator('a.github-link').getAttribute('href')).toBe(`https://github.com/${repository}/blob/${repo.sha}/src/index.ts`);
    expect(await page.locator('#breadcrumbs li').allTextContents()).toEqual([repository, 'src', 'index.ts']);
    expect(await page.locator('#path').inputValue()).toBe('src/index.ts');
    await shot(page, '03-file');

    // The path box suggests as you type: a misspelt path offers the right one first.
    const box = page.locator('#path');
    await box.fill('');
    await box.pressSequentially('src/utlis/strngs.ts', { delay: 25 });
    const first = page.locator('#path-suggestions [role="option"]').first();
    await first.waitFor();
    expect(await first.getAttribute('data-path')).toBe('src/utils/strings.ts');
    expect(await box.getAttribute('aria-expanded')).toBe('true');
    await shot(page, '04-suggestions');
    await page.keyboard.press('ArrowDown');
    expect(await box.getAttribute('aria-activedescendant')).toBe('path-option-0');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/blob\/src\/utils\/strings\.ts$/);
    await page.locator('table.code[data-path="src/utils/strings.ts"]').waitFor();
    expect(await page.locator('#L2 td.line').textContent()).toBe("\treturn text.toLowerCase().replace(/[^a-z0-9]+/g, '-');");

    // A path that is not found answers "Did you mean".
    await box.fill('src/utils/dtes.ts');
    await page.keyboard.press('Enter');
    const problem = page.locator('.problem[data-code="NOT_FOUND"]');
    await problem.waitFor();
    expect(await problem.locator('.did-you-mean a').first().textContent()).toBe('src/utils/dates.ts');
    await shot(page, '05-did-you-mean');
    await problem.locator('.did-you-mean a').first().click();
    await page.locator('table.code[data-path="src/utils/dates.ts"]').waitFor();
    expect(await page.locator('#breadcrumbs li').allTextContents()).toEqual([repository, 'src', 'utils', 'dates.ts']);

    // A push shows up without reloading: the new commit in the table, a notice in the browser.
    await page.goto(`${site.url}#/${owner}/${name}/blob/src/index.ts`);
    await page.locator(`table.code[data-path="src/index.ts"][data-commit="${repo.sha}"]`).waitFor();
    const second = await commitFiles(
      repo.dir,
      { 'src/index.ts': "export { listProducts } from './catalog/products';\n", 'src/carts.ts': 'export const carts = new Map<string, number[]>();\n' },
      'Add carts',
    );
    const pushed = Date.now();
    const push = await standIn.push(OWNER, name, { ref: 'refs/heads/main' });
    expect(push.delivery.status).toBe(202);
    await page.locator(`#repo-rows tr[data-repository="${repository}"][data-commit="${second}"]`).waitFor({ timeout: 30_000 });
    const seenAfterMs = Date.now() - pushed;
    expect(await row(page).locator('.badge-new').textContent()).toBe('new');
    expect(await page.locator('#live').textContent()).toContain(`new commit ${second.slice(0, 7)} indexed (was ${repo.sha!.slice(0, 7)})`);
    const notice = page.locator('#browser-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toContain(`A newer commit ${second.slice(0, 7)} was indexed`);
    await shot(page, '06-live-update');
    await notice.getByRole('button', { name: `Show ${second.slice(0, 7)}` }).click();
    await page.locator(`table.code[data-commit="${second}"]`).waitFor();
    expect(await page.locator('table.code td.ln').allTextContents()).toEqual(['1']);
    expect(await notice.isHidden()).toBe(true);
    process.stderr.write(`[console e2e] push visible on the page ${seenAfterMs} ms after the webhook was sent\n`);

    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('works from the keyboard, with a visible focus, in the dark scheme on a narrow screen', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`pageerror: ${error.message}`));
    await page.goto(site.url);
    await row(page).waitFor();
    // Tab from the top: skip link, token field and buttons, then the repository link.
    const focused = () => page.evaluate('document.activeElement && (document.activeElement.id || document.activeElement.textContent)');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip to content');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('token');
    for (let i = 0; i < 10 && (await focused()) !== repository; i += 1) await page.keyboard.press('Tab');
    expect(await focused()).toBe(repository);
    await page.keyboard.press('Enter');
    await page.locator('table.tree a.entry[data-path="docs"]').waitFor();
    expect(await focused()).toBe('docs/');
    expect(await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')).toBe('solid');
    await page.keyboard.press('End');
    expect(await focused()).toBe('package.json');
    await page.keyboard.press('Enter');
    await page.locator('table.code[data-path="package.json"]').waitFor();
    expect(await focused()).toBe('file-heading');
    await page.goBack();
    await page.locator('table.tree a.entry[data-path="docs"]').waitFor();
    await shot(page, '10-dark-narrow');
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('shows a failed index with its last error, while the previous commit keeps serving', async () => {
    const name = `inventory-${suffix()}`;
    const failing = `${OWNER}/${name}`;
    const fixture = await createRepo(root, OWNER, name, { 'README.md': '# Inventory\n', 'src/stock.ts': 'export const stock = 3;\n' });
    await standIn.push(OWNER, name, { ref: 'refs/heads/main' });
    await indexedAt(gitdex, failing, fixture.sha!);
    const { context, page } = await open(`${site.url}#/${failing}`);
    await rowOf(page, failing).waitFor();

    // GitHub fails every request for this repository: the next push cannot be indexed.
    standIn.faults.add({ type: '5xx', status: 502, message: 'Server Error', count: 1_000_000, route: name });
    const next = await commitFiles(fixture.dir, { 'src/stock.ts': 'export const stock = 4;\n' }, 'Restock');
    await standIn.push(OWNER, name, { ref: 'refs/heads/main' });
    const failed = page.locator(`#repo-rows tr[data-repository="${failing}"][data-status="failed"]`);
    await failed.waitFor({ timeout: 30_000 });
    expect(await failed.getAttribute('data-commit')).toBe(fixture.sha);
    expect(await failed.locator('td[data-label="Last error"]').textContent()).toMatch(/\S/);
    expect(await failed.locator('td[data-label="Pending"]').textContent()).toBe(`indexing ${next.slice(0, 7)}`);
    expect(await page.locator('#repo-summary').textContent()).toContain('1 failed');
    expect(await page.locator('#live').textContent()).toContain(`${failing}: indexing failed`);
    // The previous commit is still readable.
    await page.locator('table.tree a.entry[data-path="src"]').waitFor();
    await shot(page, '11-failed-index');

    // GitHub answers again: the retry indexes the push and the row recovers.
    standIn.faults.clear();
    await page.locator(`#repo-rows tr[data-repository="${failing}"][data-status="ready"][data-commit="${next}"]`).waitFor({ timeout: 60_000 });
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it("shows blame beside a file as git blame names it, the commits that changed the file, and the repository page's recent commits, paged", async () => {
    const name = `ledger-${suffix()}`;
    const ledger = `${OWNER}/${name}`;
    const fixture = await createRepo(root, OWNER, name, { 'README.md': '# Ledger\n', 'src/ledger.ts': 'export const entries: number[] = [];\n' });
    const authors = [
      { name: 'Ada Lovelace', email: 'ada@example.com' },
      { name: 'Grace Hopper', email: 'grace@example.com' },
    ];
    // Twelve commits: the odd ones change src/ledger.ts (the fifth rewrites its first line too),
    // the even ones only notes.md. One push delivers them all.
    let lines = ['export const entries: number[] = [];'];
    let head = fixture.sha!;
    for (let i = 1; i <= 11; i += 1) {
      if (i % 2 === 1) {
        lines = [...(i === 5 ? ['export const entries: number[] = [0];'] : lines.slice(0, 1)), ...lines.slice(1), `entries.push(${i});`];
        head = await commitFiles(fixture.dir, { 'src/ledger.ts': `${lines.join('\n')}\n` }, `Add entry ${i}\n\nThe ledger needs it.`, { author: authors[i % 2]! });
      } else head = await commitFiles(fixture.dir, { 'notes.md': `note ${i}\n` }, `Note ${i}`, { author: authors[i % 2]! });
    }
    await standIn.push(OWNER, name, { ref: 'refs/heads/main' });
    await indexedAt(gitdex, ledger, head);
    const gitLines = async (args: string[]) => (await fixtureGit(fixture.dir, args)).toString('utf8').trim().split('\n');
    const everyCommit = await gitLines(['log', '--format=%H', 'main']);
    const fileCommits = await gitLines(['log', '--format=%H', 'main', '--', 'src/ledger.ts']);
    // git blame --porcelain: each line's header is "<sha> <original line> <final line> [<count>]".
    const blamed = new Map<number, string>();
    for (const line of await gitLines(['blame', '--porcelain', 'main', '--', 'src/ledger.ts'])) {
      const header = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line);
      if (header) blamed.set(Number(header[2]), header[1]!);
    }
    const { context, page } = await open(`${site.url}#/${ledger}`);

    // The repository page: the default branch's newest commits first, ten a page.
    const recent = page.locator('.recent-commits .commit-list li');
    await recent.nth(9).waitFor();
    expect(await recent.evaluateAll((items) => items.map((li) => li.getAttribute('data-sha')))).toEqual(everyCommit.slice(0, 10));
    expect(await recent.first().locator('.commit-summary').textContent()).toBe('Add entry 11');
    expect(await recent.first().locator('.commit-meta').textContent()).toContain('Grace Hopper');
    expect(await recent.first().locator('a.commit-sha').getAttribute('href')).toBe(`https://github.com/${ledger}/commit/${head}`);
    await shot(page, '12-recent-commits');
    await page.getByRole('button', { name: 'Show more commits' }).click();
    await recent.nth(11).waitFor();
    expect(await recent.evaluateAll((items) => items.map((li) => li.getAttribute('data-sha')))).toEqual(everyCommit);
    expect(await page.locator('.recent-commits .commits-footer').textContent()).toBe('12 commits.');

    // The file: Blame puts beside the lines the commit git blame names for each.
    await page.goto(`${site.url}#/${ledger}/blob/src/ledger.ts`);
    await page.locator('table.code[data-path="src/ledger.ts"]').waitFor();
    await page.locator('#blame-toggle').click();
    await page.locator('table.code.blamed td.blame-start').first().waitFor();
    const shown = await page.locator('table.code tbody tr').evaluateAll((rows) => {
      let sha = '';
      return rows.map((row) => {
        const cell = row.querySelector('td.blame-start');
        if (cell) sha = cell.getAttribute('data-sha') ?? '';
        return [Number(row.id.slice(1)), sha] as [number, string];
      });
    });
    expect(new Map(shown)).toEqual(blamed);
    expect(page.url()).toMatch(/\/blob\/src\/ledger\.ts\?blame=1$/);
    const lastLine = page.locator(`#L${lines.length} td.blame`);
    expect(await lastLine.locator('a.blame-sha').getAttribute('href')).toBe(`https://github.com/${ledger}/commit/${blamed.get(lines.length)}`);
    expect(await lastLine.locator('.blame-summary').textContent()).toBe('Add entry 11');
    expect(await lastLine.locator('.blame-author').textContent()).toBe('Grace Hopper');
    await shot(page, '13-blame');

    // The commits that changed the file, folded until asked for.
    await page.locator('.file-commits summary').click();
    const changes = page.locator('.file-commits .commit-list li');
    await changes.nth(fileCommits.length - 1).waitFor();
    expect(await changes.evaluateAll((items) => items.map((li) => li.getAttribute('data-sha')))).toEqual(fileCommits);

    // The address keeps the toggle: a reload shows the blame again; a second press hides it.
    await page.reload();
    await page.locator('table.code.blamed td.blame-start').first().waitFor();
    await page.locator('#blame-toggle').click();
    expect(await page.locator('table.code.blamed').count()).toBe(0);
    expect(page.url()).toMatch(/\/blob\/src\/ledger\.ts$/);
    await context.close();
    expect(pageErrors).toEqual([]);
  });

  it('shows private repositories only to a token that may read them, and keeps it for the tab only', async () => {
    const { context, page } = await open(`${sharedSite.url}#/${secretRepository}`);

    // Without a token: the public repository only; the private one reads as not there.
    await row(page).waitFor();
    expect(await rowOf(page, secretRepository).count()).toBe(0);
    const problem = page.locator('.problem[data-code="REPOSITORY_NOT_FOUND"]');
    await problem.waitFor();
    expect(await page.locator('#alert').isHidden()).toBe(true);
    expect(await page.locator('#token-state').textContent()).toBe('No token set.');
    expect(await page.locator('.recent-commits').count()).toBe(0);
    // The history of the private repository answers exactly as a repository that does not exist.
    for (const tail of ['commits', 'blame/src/invoices.ts']) {
      const hidden = await fetch(`${sharedSite.url}v1/repositories/${secretRepository}/${tail}`);
      const missing = await fetch(`${sharedSite.url}v1/repositories/${OWNER}/no-such-${suffix()}/${tail}`);
      const codeOf = async (answer: Response) => ({ status: answer.status, code: ((await answer.json()) as { error?: { code?: string } }).error?.code });
      expect(await codeOf(hidden)).toEqual(await codeOf(missing));
    }

    // With the token (sent as a bearer token): the private repository and its files.
    const sent = page.waitForRequest((request) => request.url().includes('/v1/repositories') && request.headers().authorization === `Bearer ${TOKEN}`);
    await page.getByLabel('Reader token').fill(TOKEN);
    await page.keyboard.press('Enter');
    await sent;
    await rowOf(page, secretRepository).waitFor();
    await page.locator('table.tree a.entry[data-path="src"]').waitFor();
    await page.locator(`.recent-commits li[data-sha="${secretSha}"]`).waitFor();
    expect(await page.locator('#token-state').textContent()).toBe('A token is set for this tab.');
    expect(await page.evaluate(`sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)})`)).toBe(TOKEN);
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(await page.locator('#token').inputValue()).toBe('');
    await shot(page, '07-private-with-token');

    // It lasts for the tab (a reload keeps it) ...
    await page.reload();
    await rowOf(page, secretRepository).waitFor();

    // ... and Forget removes it and everything it showed.
    await page.getByRole('button', { name: 'Forget' }).click();
    await problem.waitFor();
    await row(page).waitFor();
    expect(await rowOf(page, secretRepository).count()).toBe(0);
    expect(await page.evaluate(`sessionStorage.getItem(${JSON.stringify(TOKEN_KEY)})`)).toBeNull();
    expect(await page.locator('.recent-commits').count()).toBe(0);

    // A new tab (session) starts without it.
    await context.close();
    const fresh = await open(sharedSite.url);
    await rowOf(fresh.page, repository).waitFor();
    expect(await rowOf(fresh.page, secretRepository).count()).toBe(0);
    await fresh.context.close();
    expect(pageErrors).toEqual([]);
  });

  it('says clearly when gitdex requires a token (401) and shows nothing until a good one is given', async () => {
    const { context, page } = await open(`${lockedSite.url}#/${repository}`);

    const alert = page.locator('#alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('This gitdex needs a reader token (401).');
    expect(await alert.textContent()).toContain('Authentication required');
    expect(await page.locator('#repo-rows tr').count()).toBe(0);
    expect(await page.locator('#repositories').isHidden()).toBe(true);
    expect(await page.locator('#browser').isHidden()).toBe(true);
    await shot(page, '08-token-required');

    // A wrong token is refused, and says so.
    await page.getByLabel('Reader token').fill('not-the-right-token-at-all');
    await page.getByRole('button', { name: 'Use token' }).click();
    await waitFor(async () => (await alert.textContent())?.includes('The reader token was refused (401).'), 'the refusal', 10_000);
    expect(await page.locator('#repo-rows tr').count()).toBe(0);
    await shot(page, '09-token-refused');

    // The right one shows the repositories and the page asked for.
    await page.getByLabel('Reader token').fill(TOKEN);
    await page.getByRole('button', { name: 'Use token' }).click();
    await rowOf(page, secretRepository).waitFor();
    await row(page).waitFor();
    expect(await alert.isHidden()).toBe(true);
    await page.locator('table.tree a.entry[data-path="fixtures"]').waitFor();

    await context.close();
    expect(pageErrors).toEqual([]);
  });
});
