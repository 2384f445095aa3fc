// The architecture, held by a tool instead of by care (`npm run lint`):
//   services sit above libs; contracts stand alone; adapters hold the engines; cores know no framework.
/** Frameworks and engine clients the cores must not know (STYLE rules 1 and 2). */
const FRAMEWORKS = '^(node_modules/)?(express|kafkajs|@modelcontextprotocol/sdk|prom-client|@elastic/elasticsearch|better-sqlite3)(/|$)';
/** The framework-free cores: the indexer's event → documents logic and the reader's tools. */
const CORES = '^services/(indexer/src/(?!prometheus-)|reader/src/(tools|read|list|suggest|search|format|address)/)';

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
      comment: 'Contracts stand alone (STYLE rule 10): zod and Node built-ins, nothing else.',
      from: { path: '^libs/contracts/' },
      to: { dependencyTypesNot: ['core'], pathNot: ['^(node_modules/)?zod(/|$)', '^libs/contracts/'] },
    },
    {
      name: 'ports-depend-on-contracts-only',
      severity: 'error',
      comment: 'The ports are interfaces over the contracts; an engine client in a port leaks the adapter.',
      from: { path: '^libs/ports/' },
      to: { dependencyTypesNot: ['core'], pathNot: ['^libs/(ports|contracts)/', '^(node_modules/)?zod(/|$)'] },
    },
    {
      name: 'cores-know-no-framework',
      severity: 'error',
      comment: 'The indexer core and the reader tools are plain functions over typed inputs; express, kafkajs, the MCP SDK, prom-client and engine clients only plug them in (STYLE rule 1).',
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
