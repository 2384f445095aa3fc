import { connectInMemory } from '../support/mcp-client';
import { createWorld } from '../support/world';

/**
 * Agents pay for every tool in their context on every turn, so tools/list stays small: names,
 * descriptions and input schemas of all tools together at most 24,000 characters, at most 12 tools
 * (DESIGN.md, tool budget). Measured as the SDK lists them, so a schema's descriptions count.
 */
const MAX_TOOLS = 12;
const MAX_CHARS = 24_000;

describe('the tool budget', () => {
  test('tools/list names, descriptions and input schemas fit the budget', async () => {
    const world = await createWorld();
    const { client, close } = await connectInMemory(world.deps);
    try {
      const { tools } = await client.listTools();
      const sizes = tools.map((t) => ({ name: t.name, chars: t.name.length + (t.description ?? '').length + JSON.stringify(t.inputSchema).length }));
      const total = sizes.reduce((sum, s) => sum + s.chars, 0);
      // The figure is printed so a change that grows it shows how much room is left.
      process.stdout.write(`tool budget: ${tools.length} tools, ${total} characters (${sizes.map((s) => `${s.name} ${s.chars}`).join(', ')})\n`);
      expect(tools.length).toBeLessThanOrEqual(MAX_TOOLS);
      expect(total).toBeLessThanOrEqual(MAX_CHARS);
    } finally {
      await close();
    }
  });
});
