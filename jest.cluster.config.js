// `npm run test:cluster`: the scale-out suite on a private three-broker Kafka and three-node
// Elasticsearch cluster (test/cluster/). Kept out of jest.config.js so `npm test` does not start
// six more JVMs; CI runs it as a step of its own (.ci/run). See docs/faults.md ("On clusters").
const base = require('./jest.config.js');
const unit = base.projects.find((project) => project.displayName === 'unit');

module.exports = {
  reporters: ['default'],
  projects: [
    {
      ...unit,
      displayName: 'cluster',
      testMatch: ['<rootDir>/test/cluster/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/harness/timeouts.ts'],
    },
  ],
};
