// The documentation's facts, checked against the repository: the README stays a product page,
// every relative link resolves, every page is reachable from the docs index, the versions the
// README names are the ones the code pins, and dated notes live in docs/journal/ only.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
const DOCS = join(ROOT, 'docs');
const JOURNAL = join(DOCS, 'journal');
const README_MAX_LINES = 250;
// Shared by several engineers, each adding rows with their own dates: not a design page.
const SHARED_PAGES = new Set([join(DOCS, 'security.md')]);

function read(path: string): string {
  return readFileSync(path, 'utf8');
}

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** Prose only: fenced blocks and inline code are examples, not claims. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Relative link targets of a Markdown text (images too), without their anchors. */
function relativeLinks(markdown: string): string[] {
  const targets = [...prose(markdown).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith('#')).map((t) => decodeURIComponent(t.split('#')[0]!));
}

/** Files a page links to, as absolute paths. */
function linkedFiles(page: string): Set<string> {
  return new Set(relativeLinks(read(page)).map((t) => resolve(dirname(page), t)));
}

const topLevelPages = ['README.md', 'UPGRADING.md', 'CONTRIBUTING.md'].map((name) => join(ROOT, name));
const docPages = markdownUnder(DOCS);
const journalNotes = docPages.filter((page) => page.startsWith(JOURNAL + '/') && !page.endsWith('/README.md'));
const DATE = /\b(19|20)\d\d-[01]\d-[0-3]\d\b/;

describe('the documentation', () => {
  it('keeps the README a product page of at most 250 lines', () => {
    const lines = read(join(ROOT, 'README.md')).split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('has no relative link that points at a missing file', () => {
    const broken = [...topLevelPages, join(ROOT, 'CHANGELOG.md'), ...docPages].flatMap((page) =>
      relativeLinks(read(page))
        .filter((target) => !existsSync(resolve(dirname(page), target)))
        .map((target) => `${relative(ROOT, page)} → ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('links every page from docs/README.md, and every journal note from the journal index', () => {
    const index = linkedFiles(join(DOCS, 'README.md'));
    const unlinked = docPages
      .filter((page) => !page.startsWith(JOURNAL + '/') && page !== join(DOCS, 'README.md'))
      .filter((page) => !index.has(page))
      .map((page) => relative(ROOT, page));
    expect(unlinked).toEqual([]);
    expect(index.has(join(JOURNAL, 'README.md'))).toBe(true);
    const journalIndex = linkedFiles(join(JOURNAL, 'README.md'));
    expect(journalNotes.filter((note) => !journalIndex.has(note)).map((note) => relative(ROOT, note))).toEqual([]);
  });

  it('names journal notes by their date', () => {
    expect(journalNotes.map((note) => relative(JOURNAL, note)).filter((name) => !/^\d{4}-\d\d-\d\d-[a-z0-9-]+\.md$/.test(name))).toEqual([]);
  });

  it('keeps dated paragraphs out of the README and the design pages (they belong in docs/journal/)', () => {
    const pages = [...topLevelPages, ...docPages].filter((page) => !page.startsWith(JOURNAL + '/') && !SHARED_PAGES.has(page));
    const dated = pages.flatMap((page) =>
      prose(read(page))
        .replace(/\]\([^)\s]*\)/g, '](link)')
        .split('\n')
        .filter((line) => DATE.test(line))
        .map((line) => `${relative(ROOT, page)}: ${line.trim().slice(0, 120)}`),
    );
    expect(dated).toEqual([]);
  });

  it('names the engine and client versions the code pins', () => {
    const readme = read(join(ROOT, 'README.md'));
    const settings = read(join(ROOT, 'scripts/engines/settings.ts'));
    const pinned = (name: string) => new RegExp(`${name}\\s*=\\s*'([^']+)'`).exec(settings)?.[1];
    const kafka = pinned('KAFKA_VERSION');
    const elasticsearch = pinned('ELASTICSEARCH_VERSION');
    expect(kafka).toMatch(/^\d+\.\d+\.\d+$/);
    expect(elasticsearch).toMatch(/^\d+\.\d+\.\d+$/);
    expect(readme).toContain(`Kafka ${kafka}`);
    expect(readme).toContain(`Elasticsearch ${elasticsearch}`);

    // Every version the README gives an engine is the pinned one (or its major.minor).
    for (const [engine, version] of [
      ['Kafka', kafka!],
      ['Elasticsearch', elasticsearch!],
    ] as const) {
      const named = [...readme.matchAll(new RegExp(`${engine} (\\d+\\.\\d+(?:\\.\\d+)?)`, 'g'))].map((m) => m[1]!);
      expect(named.filter((v) => !version.startsWith(v))).toEqual([]);
    }

    // The Docker images (Compose and the testcontainers path) run the same engines.
    const compose = read(join(ROOT, 'docker-compose.yml'));
    expect(compose).toContain(`elasticsearch/elasticsearch:${elasticsearch}`);
    expect(compose).toContain(`apache/kafka:${kafka}`);
    expect(read(join(ROOT, 'test/harness/global-setup.ts'))).toContain(`elasticsearch/elasticsearch:${elasticsearch}'`);

    // A client version named anywhere in the docs is the one package.json asks for.
    const manifest = JSON.parse(read(join(ROOT, 'package.json'))) as { dependencies: Record<string, string> };
    const client = /(\d+\.\d+)/.exec(manifest.dependencies['@elastic/elasticsearch']!)![1]!;
    const clientNames = [...topLevelPages, ...docPages]
      .filter((page) => !page.startsWith(JOURNAL + '/'))
      .flatMap((page) => [...read(page).matchAll(/(?:@elastic\/elasticsearch`? |the )(\d+\.\d+)(?:\.x)? client/g)].map((m) => `${relative(ROOT, page)}: ${m[1]}`));
    expect(clientNames.filter((name) => !name.endsWith(`: ${client}`))).toEqual([]);
  });
});
