import type { Client, estypes } from '@elastic/elasticsearch';
import { PortError } from '@gitdex/ports';
import { describeEsError } from './errors';
import { indexNames, indexSettings, mappingsOf, type IndexKind } from './mappings';
import { scrollHits } from './scan';
import { bulkWrite, type BulkOperation } from './bulk';
import type { FileDocument } from '@gitdex/contracts';
import { withContentTrigrams } from './content-terms';
import { holdsContentInline, splitDocument, storeBlobs } from './blobs';
import type { StoreContext } from './context';

const KINDS: IndexKind[] = ['files', 'repos', 'blobs'];

function errorType(error: unknown): string {
  return describeEsError((error as { body?: unknown })?.body).split(':')[0] ?? '';
}

/** The template applies settings and mappings to the physical index of this version. */
async function putTemplate(client: Client, prefix: string, kind: IndexKind, version: number, replicas?: number): Promise<void> {
  const names = indexNames(prefix, kind);
  await client.indices.putIndexTemplate({
    name: names.physical(version),
    // Rebuilt copies of a version (`-v1-r<time>`) take the same template.
    index_patterns: [names.physical(version), `${names.physical(version)}-r*`],
    priority: 500,
    template: { settings: indexSettings(kind, replicas), mappings: mappingsOf(kind) },
    _meta: { managedBy: 'gitdex', gitdexMappingVersion: version },
  });
}

/** The physical indices an alias points at, with their version suffix. */
async function aliasTargets(client: Client, alias: string): Promise<{ index: string; version: number }[]> {
  const exists = await client.indices.existsAlias({ name: alias });
  if (!exists) return [];
  const response = await client.indices.getAlias({ name: alias });
  return Object.keys(response).map((index) => ({ index, version: Number(/-v(\d+)(?:-r\d+)?$/.exec(index)?.[1] ?? 0) }));
}

async function ensureIndex(client: Client, prefix: string, kind: IndexKind, replicas?: number): Promise<void> {
  const names = indexNames(prefix, kind);
  await putTemplate(client, prefix, kind, names.version, replicas);
  const check = async (): Promise<boolean> => {
    const targets = await aliasTargets(client, names.alias);
    if (targets.length === 0) return false;
    const oldest = Math.min(...targets.map((target) => target.version));
    if (oldest < names.version) {
      throw new PortError('INVALID', `alias ${names.alias} points at mapping version ${oldest}, this build needs ${names.version}: run \`gitdex reindex\` (UPGRADING.md)`, {
        retriable: false,
      });
    }
    return true;
  };
  if (await check()) {
    // Fields added to this version since the index was made (additive only) reach it here.
    await client.indices.putMapping({ index: names.alias, properties: mappingsOf(kind).properties ?? {} });
    const interval = indexSettings(kind, replicas).refresh_interval;
    if (interval !== undefined) await refreshIntervalWhereUnset(client, names.alias, interval);
    return;
  }
  try {
    await client.indices.create({ index: names.physical(names.version), aliases: { [names.alias]: { is_write_index: true } } });
  } catch (error) {
    // A concurrent ensureReady created it first: fine, as long as the alias is there.
    if (errorType(error) !== 'resource_already_exists_exception') throw error;
  }
  if (!(await check())) {
    await client.indices.updateAliases({
      actions: [{ add: { index: names.physical(names.version), alias: names.alias, is_write_index: true } }],
    });
  }
}

/** The template's refresh interval, on an index made before the template had one, unless its operator set an interval. */
async function refreshIntervalWhereUnset(client: Client, alias: string, interval: estypes.Duration): Promise<void> {
  // Without a name filter: an index that has not set the interval is then in the answer too.
  const settings = await client.indices.getSettings({ index: alias, flat_settings: true });
  const unset = Object.entries(settings)
    .filter(([, found]) => found.settings?.['index.refresh_interval'] === undefined)
    .map(([index]) => index);
  if (unset.length > 0) await client.indices.putSettings({ index: unset, settings: { refresh_interval: interval } });
}

/** Creates templates, physical indices and aliases that do not exist yet. Idempotent and safe concurrently. */
export async function ensureIndices(client: Client, prefix: string, replicas?: number): Promise<void> {
  for (const kind of KINDS) await ensureIndex(client, prefix, kind, replicas);
}

/** Where the operator step is written down, for the message of a missing index or mapping. */
const OPERATOR_STEP =
  'GITDEX_MANAGE_TEMPLATES=false, so gitdex does not create them: run deploy/elasticsearch/apply.sh with a user that may manage templates and indices (docs/deploy.md, "Elasticsearch shared with other teams"), or set GITDEX_MANAGE_TEMPLATES=true';

/** What is missing or outdated behind one alias, in words; empty when the alias is ready to use. */
async function missingFor(client: Client, prefix: string, kind: IndexKind): Promise<string[]> {
  const names = indexNames(prefix, kind);
  const targets = await aliasTargets(client, names.alias);
  if (targets.length === 0) return [`index ${names.physical(names.version)} with its write alias ${names.alias}`];
  const oldest = Math.min(...targets.map((target) => target.version));
  if (oldest < names.version)
    return [`alias ${names.alias} points at mapping version ${oldest}, this build needs ${names.version} (run \`gitdex reindex\` with a user that may create indices, UPGRADING.md)`];
  const found = await client.indices.getMapping({ index: names.alias });
  const wanted = Object.keys(mappingsOf(kind).properties ?? {});
  const missing: string[] = [];
  for (const [index, { mappings }] of Object.entries(found)) {
    const have = new Set(Object.keys(mappings.properties ?? {}));
    const absent = wanted.filter((field) => !have.has(field));
    if (absent.length > 0) missing.push(`fields ${absent.join(', ')} in the mapping of ${index}`);
  }
  return missing;
}

/**
 * For an operator who manages templates and indices (GITDEX_MANAGE_TEMPLATES=false): writes
 * nothing, and fails with every missing piece and the operator step, so a process never starts
 * against indices it cannot use. Needs only `view_index_metadata` on the indices.
 */
export async function verifyIndices(client: Client, prefix: string): Promise<void> {
  const missing: string[] = [];
  for (const kind of KINDS) missing.push(...(await missingFor(client, prefix, kind)));
  if (missing.length > 0) {
    throw new PortError('INVALID', `Elasticsearch is missing what gitdex needs: ${missing.join('; ')}. ${OPERATOR_STEP}.`, { retriable: false });
  }
}

/** Copies of file entries without inline content, their blobs stored first. */
async function splitCopies(ctx: StoreContext, hits: estypes.SearchHit<unknown>[]): Promise<BulkOperation[]> {
  const split = hits.map((hit) => ({ id: hit._id as string, source: hit._source as FileDocument }));
  const inline = split.filter((item) => holdsContentInline(item.source)).map((item) => splitDocument(item.source));
  await storeBlobs(
    ctx,
    inline.map((item) => ({ blob: item.blob })),
  );
  await ctx.client.indices.refresh({ index: ctx.blobs });
  return split.map((item) => ({ action: 'index', id: item.id, document: holdsContentInline(item.source) ? splitDocument(item.source).entry : item.source }));
}

/** What reindex did; leftBehind: old copies it could not delete (they only take disk). */
export interface ReindexResult {
  from: string[];
  to: string;
  copied: number;
  leftBehind: string[];
}

/**
 * Copies every document behind `${prefix}-${kind}` into the physical index of this build's
 * mapping version and swaps the alias to it atomically. Runs on the minimal distribution
 * too (scroll + bulk instead of _reindex). Stop writers while it runs, or replay their
 * events afterwards: writes are idempotent.
 */
export async function reindex(ctx: StoreContext, kind: IndexKind, options: { rebuild?: boolean } = {}): Promise<ReindexResult> {
  const { client } = ctx;
  const names = indexNames(ctx.prefix, kind);
  // A rebuild copies into a fresh physical index of the same version (e.g. to change shard counts or compact).
  const target = options.rebuild ? `${names.physical(names.version)}-r${Date.now()}` : names.physical(names.version);
  const sources = (await aliasTargets(client, names.alias)).map((entry) => entry.index);
  if (sources.includes(target)) return { from: sources, to: target, copied: 0, leftBehind: [] };
  await putTemplate(client, ctx.prefix, kind, names.version, ctx.replicas);
  try {
    await client.indices.create({ index: target });
  } catch (error) {
    if (errorType(error) !== 'resource_already_exists_exception') throw error;
  }
  // The copy of an entry that still holds its content inline is split on the way: the new index is made whole.
  if (kind === 'files') await ensureIndex(client, ctx.prefix, 'blobs', ctx.replicas);
  let copied = 0;
  if (sources.length > 0) {
    await client.indices.refresh({ index: names.alias });
    for await (const hits of scrollHits(client, { index: names.alias, query: { match_all: {} }, _source: true })) {
      await bulkWrite(
        { ...ctx, index: target, requireAlias: false },
        // contentTrigrams is not in _source: derived again from the content of each blob.
        kind === 'files'
          ? await splitCopies(ctx, hits)
          : hits.map((hit) => ({ action: 'index' as const, id: hit._id as string, document: kind === 'repos' ? hit._source : withContentTrigrams(hit._source as FileDocument) })),
      );
      copied += hits.length;
    }
  }
  await client.indices.refresh({ index: target });
  await client.indices.updateAliases({
    actions: [...sources.map((index) => ({ remove: { index, alias: names.alias } })), { add: { index: target, alias: names.alias, is_write_index: true } }],
  });
  // The alias no longer reaches the old copies: nothing reads them any more. One that cannot be
  // deleted now only takes disk: the caller is told which, to delete it by hand.
  const leftBehind: string[] = [];
  for (const index of sources) {
    await client.indices.delete({ index }).catch(() => {
      leftBehind.push(index);
    });
  }
  return { from: sources, to: target, copied, leftBehind };
}
