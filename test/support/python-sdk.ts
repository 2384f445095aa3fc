import { spawnSync } from 'node:child_process';

/** The official Python MCP SDK, installed with pip when it is not there yet. */
export function ensurePythonSdk(): void {
  if (spawnSync('python3', ['-c', 'import mcp']).status === 0) return;
  const install = spawnSync('python3', ['-m', 'pip', 'install', '--quiet', 'mcp'], { encoding: 'utf8' });
  if (spawnSync('python3', ['-c', 'import mcp']).status !== 0) throw new Error(`the Python MCP SDK could not be installed (pip install mcp): ${install.stderr}`);
}
