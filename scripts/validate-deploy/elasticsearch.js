'use strict';
// deploy/elasticsearch/*.json are the index templates gitdex puts on start (ensureReady),
// captured from libs/elasticsearch (setup.ts, mappings.ts): they must not drift from it.

const fs = require('node:fs');
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');

function templateFiles(dir) {
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((n) => n.endsWith('.json'))
        .sort()
    : [];
}

function validateElasticsearchTemplates(dir, facts) {
  const problems = [];
  const expected = facts.elasticsearchTemplates;
  const files = templateFiles(dir);
  for (const [name, body] of Object.entries(expected)) {
    const file = `${name}.json`;
    if (!files.includes(file)) {
      problems.push(`${file} is missing: run node scripts/validate-deploy.mjs --write`);
      continue;
    }
    let actual;
    try {
      actual = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    } catch (error) {
      problems.push(`${file}: ${error.message}`);
      continue;
    }
    if (!isDeepStrictEqual(actual, body)) problems.push(`${file} differs from what gitdex puts (libs/elasticsearch/src/setup.ts, mappings.ts): run node scripts/validate-deploy.mjs --write`);
  }
  for (const file of files) if (!expected[file.replace(/\.json$/, '')]) problems.push(`${file}: gitdex creates no such template (stale mapping version?): remove it or run --write`);
  return problems;
}

function writeElasticsearchTemplates(dir, facts) {
  fs.mkdirSync(dir, { recursive: true });
  for (const file of templateFiles(dir)) if (!facts.elasticsearchTemplates[file.replace(/\.json$/, '')]) fs.rmSync(path.join(dir, file));
  const written = [];
  for (const [name, body] of Object.entries(facts.elasticsearchTemplates)) {
    fs.writeFileSync(path.join(dir, `${name}.json`), `${JSON.stringify(body, null, 2)}\n`);
    written.push(`${name}.json`);
  }
  return written;
}

module.exports = { validateElasticsearchTemplates, writeElasticsearchTemplates };
