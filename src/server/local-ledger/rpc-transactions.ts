/**
 * The transaction methods of the local ledger's JSON-RPC: send, simulate and airdrop, and the
 * look-ups of signatures and transactions.
 */
import { z } from 'zod';
import { RpcError, type RpcMethod } from './json-rpc';
import type { LocalLedger } from './ledger';
import {
  AddressSchema,
  BaseConfig,
  CommitmentSchema,
  contextWrapper,
  decodeWire,
  invalidParams,
  params,
} from './rpc-params';
import { transactionResponse } from './transaction-response';
import { describeRpcError, LedgerRejection, type SimulationResult } from './transaction-error';

/** sendTransaction and simulateTransaction: how the transaction string is encoded. */
const WireConfig = BaseConfig.extend({ encoding: z.enum(['base58', 'base64']).optional() });

/** A simulation's outcome as the RPC writes it (also the data of a failed preflight). */
function simulationValue(result: SimulationResult, replacementBlockhash: unknown) {
  return {
    accounts: null,
    err: result.err,
    innerInstructions: null,
    logs: result.logs,
    replacementBlockhash,
    returnData: null,
    unitsConsumed: result.unitsConsumed,
  };
}

export function transactionMethods(ledger: LocalLedger): Record<string, RpcMethod<unknown>> {
  const withContext = contextWrapper(ledger);
  return {
    sendTransaction: (p) => {
      const [wire, config] = params(
        z.tuple([z.string()]).rest(
          WireConfig.extend({
            skipPreflight: z.boolean().optional(),
            preflightCommitment: CommitmentSchema.optional(),
            maxRetries: z.number().int().optional(),
          }),
        ),
        p,
      );
      try {
        return ledger.send(decodeWire(wire, config?.encoding ?? 'base58'), {
          skipPreflight: config?.skipPreflight,
        });
      } catch (err) {
        if (!(err instanceof LedgerRejection)) throw err;
        throw new RpcError(
          -32002,
          `Transaction simulation failed: ${describeRpcError(err.err)}`,
          simulationValue(err, null),
        );
      }
    },
    simulateTransaction: (p) => {
      const [wire, config] = params(
        z.tuple([z.string()]).rest(
          WireConfig.extend({
            sigVerify: z.boolean().optional(),
            replaceRecentBlockhash: z.boolean().optional(),
            accounts: z.unknown().optional(),
            innerInstructions: z.boolean().optional(),
          }),
        ),
        p,
      );
      if (config?.sigVerify && config.replaceRecentBlockhash) {
        throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      }
      const result = ledger.simulate(decodeWire(wire, config?.encoding ?? 'base58'), config ?? {});
      return withContext(
        simulationValue(result, config?.replaceRecentBlockhash ? ledger.latestBlockhash() : null),
      );
    },
    requestAirdrop: async (p) => {
      const [key, amount] = params(z.tuple([AddressSchema, z.number().int().positive()]).rest(BaseConfig), p);
      if (amount > 1_000 * 1_000_000_000)
        throw new RpcError(-32600, 'airdrop request too large: at most 1000 SOL');
      return ledger.airdrop(key, BigInt(amount));
    },

    getSignatureStatuses: (p) => {
      const [signatures] = params(
        z
          .tuple([z.array(z.string()).max(256)])
          .rest(z.object({ searchTransactionHistory: z.boolean().optional() })),
        p,
      );
      return withContext(
        signatures.map((signature) => {
          const record = ledger.getTransaction(signature);
          if (!record) return null;
          return {
            slot: record.slot,
            confirmations: null,
            err: record.err,
            status: record.err ? { Err: record.err } : { Ok: null },
            confirmationStatus: 'finalized',
          };
        }),
      );
    },
    getSignaturesForAddress: (p) => {
      const [key, config] = params(
        z.tuple([AddressSchema]).rest(
          BaseConfig.extend({
            limit: z.number().int().min(1).max(1000).optional(),
            before: z.string().optional(),
            until: z.string().optional(),
          }),
        ),
        p,
      );
      return ledger
        .signaturesFor(key, { limit: config?.limit ?? 1000, before: config?.before, until: config?.until })
        .map((s) => ({ ...s, memo: null, confirmationStatus: 'finalized' }));
    },
    getTransaction: (p) => {
      const [signature, config] = params(
        z.tuple([z.string()]).rest(
          BaseConfig.extend({
            encoding: z.enum(['json', 'jsonParsed', 'base64', 'base58']).optional(),
            maxSupportedTransactionVersion: z.number().int().min(0).optional(),
          }),
        ),
        p,
      );
      const record = ledger.getTransaction(signature);
      if (!record) return null;
      if (record.version === 0 && config?.maxSupportedTransactionVersion === undefined) {
        throw new RpcError(
          -32015,
          'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
        );
      }
      return transactionResponse(record, config?.encoding ?? 'json', config?.maxSupportedTransactionVersion);
    },
  };
}
