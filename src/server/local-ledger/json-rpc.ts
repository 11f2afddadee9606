/**
 * JSON-RPC 2.0 over HTTP as a Solana node speaks it: one request or a batch (at most `maxBatch`,
 * 100 unless a request's limits say fewer; a longer one is refused whole), the standard error
 * codes, a method's own errors with their data, and u64 values written as plain JSON numbers.
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
/** A method: its params, and what the request it came in allows (the same for a whole batch). */
export type RpcMethod<C> = (params: unknown, context: C) => unknown;

/** The longest batch answered unless a request's limits say fewer. */
export const MAX_BATCH = 100;

export const batchTooLarge = (maxBatch: number) => ({
  jsonrpc: '2.0' as const,
  error: { code: -32600, message: `Invalid request: a batch may hold at most ${maxBatch} requests` },
  id: null,
});

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
export function createJsonRpcHandler<C, L extends { maxBatch: number } | undefined>(
  methods: Record<string, RpcMethod<C>>,
  options: {
    /** What a request body may do, from its limits (none: the shop's own calls). */
    context: (limits: L) => C;
    translate?: (err: unknown) => RpcError | undefined;
  },
) {
  const translate = options.translate ?? (() => undefined);
  /** Answers one JSON-RPC request object. */
  async function handleOne(request: unknown, context: C): Promise<unknown> {
    const parsed = RequestSchema.safeParse(request);
    const id = (request as { id?: unknown } | null)?.id ?? null;
    if (!parsed.success) return { jsonrpc: '2.0', error: RPC_ERRORS.invalidRequest, id };
    const method = methods[parsed.data.method];
    if (!method) return { jsonrpc: '2.0', error: RPC_ERRORS.methodNotFound, id };
    try {
      return { jsonrpc: '2.0', result: await method(parsed.data.params, context), id };
    } catch (err) {
      const rpcError = err instanceof RpcError ? err : translate(err);
      if (!rpcError) throw err;
      const { code, message, data } = rpcError;
      return { jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id };
    }
  }

  /** Answers a request body (one request or a batch) within `limits`; the text to send back. */
  return async function handle(body: string, limits: L): Promise<string> {
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch {
      return stringifyRpc({ jsonrpc: '2.0', error: RPC_ERRORS.parse, id: null });
    }
    const context = options.context(limits);
    if (Array.isArray(request)) {
      if (request.length === 0)
        return stringifyRpc({ jsonrpc: '2.0', error: RPC_ERRORS.invalidRequest, id: null });
      const maxBatch = limits?.maxBatch ?? MAX_BATCH;
      if (request.length > maxBatch) return stringifyRpc(batchTooLarge(maxBatch));
      const answers = [];
      for (const one of request) answers.push(await handleOne(one, context));
      return stringifyRpc(answers);
    }
    return stringifyRpc(await handleOne(request, context));
  };
}
