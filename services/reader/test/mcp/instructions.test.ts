import { TOOL_NAMES } from '@gitdex/contracts';
import { INSTRUCTIONS } from '../../src/mcp/instructions';

test.each(TOOL_NAMES)('the server instructions say when to use %s', (name) => {
  // "name: when to use it", one sentence per tool.
  expect(INSTRUCTIONS).toMatch(new RegExp(`(^|\\. )${name}: [^.]+`));
});
