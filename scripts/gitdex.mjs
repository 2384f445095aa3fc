#!/usr/bin/env node
// The gitdex command from a checkout, on any system Node: prepares the runtime, dependencies and
// build (scripts/prepare.mjs, output on stderr only), then runs the CLI on Node 24.
//
//   node scripts/gitdex.mjs mcp            MCP over stdio for a local agent
//   node scripts/gitdex.mjs status         and every other `gitdex` command (README)
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { prepare, runOnRuntime } from './prepare.mjs';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..', 'services', 'gitdex', 'dist', 'cli.js');
runOnRuntime(prepare({ build: true }), ['node', cli, ...process.argv.slice(2)]);
