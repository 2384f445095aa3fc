// The architecture, held by a tool instead of by care (`npm run lint`):
//   services sit above libs; contracts stand alone; adapters hold the engines; cores know no framework.
/** Frameworks and engine clients the cores must not know (CONTRIBUTING.md rules 1 and 2). */
const FRAMEWORKS = '^(node_modules/)?(express|kafkajs|@modelcontextprotocol/sdk|prom-client|@elastic/elasticsearch|better-sqlite3)(/|$)';
/** The framework-free cores: the indexer's event → documents logic and the reader's tools. */
const CORES = '^services/(indexer/src/(?!prometheus-)|reader/src/(tools|read|list|suggest|search|format|address)/)';

/**
 * The reader's layers, top down (docs/design/index-composition.md): the entry points
 * (index.ts, app.ts) wire the transports (mcp/, rest/, http/) to the tools (tools/), which
 * use the tool parts (address/, search/, suggest/, read/, list/, format/, access/ and the
 * files beside them), which read the index through the layers of index-layers/. An import
 * only runs down.
 */
const READER = '^services/reader/src/';
const TRANSPORTS = `${READER}(mcp|rest)/`;
const TOOL_PARTS = `${READER}(address|search|suggest|read|list|format|access|index-layers)/`;
/** What the rest of the reader may import from index-layers/: how the index is composed, scoped to a call, and typed. */
const INDEX_LAYER_ENTRIES = `${READER}index-layers/(compose|call-scope|reader-index|read-ahead-load)\\.ts$`;

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'A cycle makes two modules one.', from: {}, to: { circular: true } },
    {
      name: 'libs-never-import-services',
      severity: 'error',
      comment: 'Libraries are shared by the services; a library that imports a service turns the layers upside down.',
      from: { path: '^libs/' },
      to: { path: '^services/' },
    },
    {
      name: 'contracts-depend-on-zod-only',
      severity: 'error',
      comment: 'Contracts stand alone (CONTRIBUTING.md rule 10): zod and Node built-ins, nothing else.',
      from: { path: '^libs/contracts/' },
      to: { dependencyTypesNot: ['core'], pathNot: ['^(node_modules/)?zod(/|$)', '^libs/contracts/'] },
    },
    {
      name: 'ports-depend-on-contracts-only',
      severity: 'error',
      comment: 'The ports are interfaces over the contracts (and the pure path rules of libs/terms); an engine client in a port leaks the adapter.',
      from: { path: '^libs/ports/' },
      to: { dependencyTypesNot: ['core'], pathNot: ['^libs/(ports|contracts|terms)/', '^(node_modules/)?zod(/|$)'] },
    },
    {
      name: 'cores-know-no-framework',
      severity: 'error',
      comment: 'The indexer core and the reader tools are plain functions over typed inputs; express, kafkajs, the MCP SDK, prom-client and engine clients only plug them in (CONTRIBUTING.md rule 1).',
      from: { path: CORES },
      to: { path: FRAMEWORKS },
    },
    {
      name: 'services-reach-engines-through-ports',
      severity: 'error',
      comment: 'Only the adapters (libs/kafka, libs/elasticsearch, libs/sqlite, libs/github) and the entry point talk to an engine client.',
      from: { path: '^services/(indexer|reader|webhook|console)/src/' },
      to: { path: '^(node_modules/)?(kafkajs|@elastic/elasticsearch|better-sqlite3|@octokit)(/|$)' },
    },
    {
      name: 'dependencies-declared-by-their-workspace',
      severity: 'error',
      comment: "Each library and service declares what its code imports in its own package.json, so a workspace's needs are visible and a stray import fails here.",
      from: { path: '^(libs|services)/[^/]+/src/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'production-code-uses-no-dev-dependency',
      severity: 'error',
      comment: 'A devDependency of a workspace is for its tests only.',
      from: { path: '^(libs|services)/[^/]+/src/' },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'reader-tools-never-import-transports',
      severity: 'error',
      comment: 'The tools are one table served by MCP and REST alike (CONTRIBUTING.md rule 1): a tool that imports a transport runs back up.',
      from: { path: `${READER}tools/` },
      to: { path: TRANSPORTS },
    },
    {
      name: 'reader-tool-parts-never-import-tools-or-transports',
      severity: 'error',
      comment: 'Addresses, search, suggestions, reads, listings, formatting, access and the index layers sit below the tools that use them.',
      from: { path: TOOL_PARTS },
      to: { path: `${READER}(tools|mcp|rest)/` },
    },
    {
      name: 'reader-index-layers-import-only-index-layers',
      severity: 'error',
      comment: 'The index layers sit at the bottom of the reader, over the port: they know nothing of tools, addresses or deps (promise-lru.ts is the shared bounded cache).',
      from: { path: `${READER}index-layers/` },
      to: { path: READER, pathNot: [`${READER}index-layers/`, `${READER}promise-lru\\.ts$`] },
    },
    {
      name: 'reader-enters-index-layers-through-compose',
      severity: 'error',
      comment: 'The index a reader uses is composed in one place (index-layers/compose.ts) and scoped to a call by call-scope.ts; no other file reaches past them into a layer.',
      from: { path: READER, pathNot: `${READER}index-layers/` },
      to: { path: `${READER}index-layers/`, pathNot: INDEX_LAYER_ENTRIES },
    },
    {
      name: 'reader-never-imports-adapters',
      severity: 'error',
      comment: "The reader works on the port (ReaderIndex); which adapter it gets is the entry point's choice (services/gitdex).",
      from: { path: READER },
      to: { path: '^(libs/(elasticsearch|sqlite|kafka|github)/|(node_modules/)?@gitdex/(elasticsearch|sqlite|kafka|github)(/|$))' },
    },
    {
      name: 'no-orphans-in-src',
      severity: 'warn',
      from: { orphan: true, path: '^(libs|services)/[^/]+/src/', pathNot: ['\\.d\\.ts$', '/index\\.ts$', '/(main|cli)\\.ts$'] },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['/dist/', '/test/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    combinedDependencies: false,
  },
};
