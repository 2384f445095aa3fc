import type { JSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_NAMES, type ToolName } from '@gitdex/contracts';
import type { ReaderDeps } from '../deps';
import { toolResult, type McpServerContext } from './server';

/** A single tools/call request of a known tool, as the SDK's server would accept it. */
export interface PlainToolCall {
  id: string | number;
  name: ToolName;
  args: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The message when it is one JSON-RPC tools/call of a known tool in the shape the SDK takes as it is; else null. */
export function plainToolCallOf(message: unknown): PlainToolCall | null {
  if (!isRecord(message) || message.jsonrpc !== '2.0' || message.method !== 'tools/call') return null;
  const { id, params } = message;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isInteger(id))) return null;
  if (!isRecord(params) || !(TOOL_NAMES as readonly unknown[]).includes(params.name)) return null;
  if (params.arguments !== undefined && !isRecord(params.arguments)) return null;
  if (params._meta !== undefined && !isRecord(params._meta)) return null;
  return { id, name: params.name as ToolName, args: params.arguments ?? {} };
}

/** The JSON-RPC response the SDK's server gives a plain tools/call: the same code answers it. */
export async function toolCallResponse(deps: ReaderDeps, call: PlainToolCall, context: McpServerContext & { transport: string }, signal: AbortSignal): Promise<JSONRPCResultResponse> {
  const result = await toolResult(deps, call.name, call.args, false, context, signal);
  return { result, jsonrpc: '2.0', id: call.id };
}
