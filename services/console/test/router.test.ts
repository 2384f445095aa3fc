import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { createConsoleRouter, INDEX_HTML } from '../src/index';

async function serve(router: express.Router): Promise<{ url: string; close: () => Promise<void> }> {
  const app = express();
  app.use(router);
  app.get('/v1/repositories', (_req, res) => void res.json({ repositories: [], omitted: 0 }));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('createConsoleRouter', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'console-public-'));
    writeFileSync(join(dir, 'main.js'), "import './api.js';\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the page at / with a strict content security policy', async () => {
    const site = await serve(createConsoleRouter({ publicDir: dir }));
    try {
      const page = await fetch(`${site.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await page.text()).toBe(INDEX_HTML);

      const etag = page.headers.get('etag') ?? '';
      expect((await fetch(`${site.url}/`, { headers: { 'if-none-match': etag } })).status).toBe(304);

      const css = await fetch(`${site.url}/console/console.css`);
      expect(css.headers.get('content-type')).toMatch(/^text\/css/);
      const script = await fetch(`${site.url}/console/main.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/javascript/);
      expect(script.headers.get('cache-control')).toBe('no-cache');

      // Everything else goes on to the routers mounted after it.
      expect((await fetch(`${site.url}/console/missing.js`)).status).toBe(404);
      expect(await (await fetch(`${site.url}/v1/repositories`)).json()).toEqual({ repositories: [], omitted: 0 });
      const moved = await fetch(`${site.url}/console`, { redirect: 'manual' });
      expect(moved.status).toBe(301);
    } finally {
      await site.close();
    }
  });

  it('says how to build when the scripts are missing', async () => {
    const site = await serve(createConsoleRouter({ publicDir: join(dir, 'nothing-here') }));
    try {
      const page = await fetch(`${site.url}/`);
      expect(page.status).toBe(503);
      expect(await page.text()).toContain('npm run build');
    } finally {
      await site.close();
    }
  });

  it('keeps to what the policy allows: no inline script or style, no other origin', () => {
    expect(INDEX_HTML).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(INDEX_HTML).not.toMatch(/\sstyle=/);
    expect(INDEX_HTML).not.toMatch(/\son[a-z]+=/);
    expect(INDEX_HTML).not.toMatch(/(src|href)="(https?:)?\/\//);
  });

  it('labels every form field', () => {
    for (const [, id] of INDEX_HTML.matchAll(/<input id="([^"]+)"/g)) expect(INDEX_HTML).toContain(`<label for="${id}">`);
  });
});
