import { TOOL_NAMES, type ToolName } from '@gitdex/contracts';
import { z } from 'zod';
import { TOOLS } from '../tools/registry';

/**
 * The input schema each tool is registered with in the MCP SDK: it advertises the tool's own
 * contract in tools/list (zod copies a schema's metadata into its JSON Schema, so clients see
 * exactly what `z.toJSONSchema(tool.input)` says) but lets any arguments object through, so the
 * tool's handler parses it (callTool). A wrong argument then gets gitdex's caller error
 * (INVALID_ARGUMENT, one sentence per argument saying what it takes, its code in _meta) as a
 * tool result the model reads and corrects from (SEP-1303), rather than the SDK's generic
 * "Input validation error: … at start_line". One handler, the SDK's, answers every call.
 */
function advertise(input: z.ZodType): z.ZodType {
  // The SDK writes tools/list with draft-7 JSON Schema of the input side, as this does; it adds its own $schema.
  const { $schema: _dialect, ...contract } = z.toJSONSchema(input, { target: 'draft-7', io: 'input' });
  return z.looseObject({}).meta(contract);
}

/** Built once a process: the HTTP transport registers the tools on a new server per request. */
export const ADVERTISED_INPUT: Record<ToolName, z.ZodType> = Object.fromEntries(TOOL_NAMES.map((name) => [name, advertise(TOOLS[name].input)])) as Record<ToolName, z.ZodType>;
