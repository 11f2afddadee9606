/**
 * JSON-RPC 2.0 over HTTP as a Solana node speaks it: one request or a batch (at most 100), the
 * standard error codes, a method's own errors with their data, and u64 values written as plain
 * JSON numbers.
 */
import { z } from 'zod';

export const RPC_ERRORS = {
  parse: { code: -32700, message: 'Parse error' },
  invalidRequest: { code: -32600, message: 'Invalid request' },
  methodNotFound: { code: -32601, message: 'Method not found' },
} as const;

/** A JSON-RPC error answer (code, message, optional data), thrown by a method. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * What a node writes for a bigint: a plain JSON number (u64 values are written in full). Safe
 * integers become numbers as they are; larger ones travel as a marker holding their digits, which
 * one pass then unquotes (a 100,000-account answer carries 100,000 rent epochs of u64::MAX).
 */
export function stringifyRpc(value: unknown): string {
  let marked = false;
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    if (v <= MAX_SAFE && v >= -MAX_SAFE) return Number(v);
    marked = true;
    return `__bigint_${v.toString()}__`;
  });
  return marked ? text.replace(/"__bigint_(-?\d+)__"/g, '$1') : text;
}
export type RpcMethod = (params: unknown) => unknown;

const RequestSchema = z.object({
  jsonrpc: z.literal('2.0'),
  id: z.union([z.string(), z.number(), z.null()]).optional(),
  method: z.string(),
  params: z.unknown().optional(),
});

/**
 * The handler of a request body (the text to send back). `translate` turns an error a method
 * threw into an RpcError when it knows it; anything else is rethrown (a 500 from the server).
 */
export function createJsonRpcHandler(
  methods: Record<string, RpcMethod>,
  translate: (err: unknown) => RpcError | undefined = () => undefined,
) {
  /** Answers one JSON-RPC request object. */
  async function handleOne(request: unknown): Promise<unknown> {
    const parsed = RequestSchema.safeParse(request);
    const id = (request as { id?: unknown } | null)?.id ?? null;
    if (!parsed.success) return { jsonrpc: '2.0', error: RPC_ERRORS.invalidRequest, id };
    const method = methods[parsed.data.method];
    if (!method) return { jsonrpc: '2.0', error: RPC_ERRORS.methodNotFound, id };
    try {
      return { jsonrpc: '2.0', result: await method(parsed.data.params), id };
    } catch (err) {
      const rpcError = err instanceof RpcError ? err : translate(err);
      if (!rpcError) throw err;
      const { code, message, data } = rpcError;
      return { jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id };
    }
  }

  /** Answers a request body (one request or a batch); the text to send back. */
  return async function handle(body: string): Promise<string> {
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch {
      return stringifyRpc({ jsonrpc: '2.0', error: RPC_ERRORS.parse, id: null });
    }
    if (Array.isArray(request)) {
      if (request.length === 0)
        return stringifyRpc({ jsonrpc: '2.0', error: RPC_ERRORS.invalidRequest, id: null });
      const answers = [];
      for (const one of request.slice(0, 100)) answers.push(await handleOne(one));
      return stringifyRpc(answers);
    }
    return stringifyRpc(await handleOne(request));
  };
}
