// Three tiers (see docs/testing.md): "unit" runs the pure core with in-memory parts;
// "integration" runs against real Kafka, Elasticsearch and the GitHub stand-in,
// which the global setup provides before any test starts.
const packages = ['contracts', 'terms', 'diff', 'symbols', 'ports', 'observability', 'kafka', 'elasticsearch', 'sqlite', 'github'];
const services = ['webhook', 'indexer', 'reader', 'gitdex', 'console'];

const moduleNameMapper = Object.fromEntries([
  ...packages.map((name) => [`^@gitdex/${name}$`, `<rootDir>/libs/${name}/src/index.ts`]),
  ...services.map((name) => [`^@gitdex/${name}$`, `<rootDir>/services/${name}/src/index.ts`]),
]);

// ESM-only dependencies (octokit and friends) are compiled to CommonJS for jest.
const esmOnly = [
  'content-type',
  '@octokit',
  'octokit',
  'universal-user-agent',
  'before-after-hook',
  'bottleneck',
  'toad-cache',
  'universal-github-app-jwt',
  'fast-content-type-parse',
  'json-with-bigint',
];

const shared = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest'] },
  transformIgnorePatterns: [`/node_modules/(?!(${esmOnly.join('|')})/)`],
  moduleNameMapper,
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testEnvironmentOptions: { globalsCleanup: 'off' },
};

module.exports = {
  // Two cores run jest workers, the engines and the processes under test side by side: jest's
  // 5 s default fails healthy tests whenever the machine is busy. A hang still fails, at 30 s.
  // (Global: jest 30 ignores testTimeout inside a project; the engine tiers set 180 s in timeouts.ts.)
  testTimeout: 30_000,
  // No forceExit: jest ends when the run is over because every suite closes what it opens. A
  // handle left open shows in the summary reporter's last line ("open in jest's process at the
  // end") and in `npx jest --detectOpenHandles <file>`; fix it where it is opened.
  reporters: ['default', '<rootDir>/test/harness/summary-reporter.js'],
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{libs,services}/*/test/**/*.test.ts', '<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
    {
      ...shared,
      displayName: 'faults',
      testMatch: ['<rootDir>/test/faults/**/*.test.ts'],
      globalSetup: '<rootDir>/test/harness/global-setup.ts',
      globalTeardown: '<rootDir>/test/harness/global-teardown.ts',
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
  ],
};
