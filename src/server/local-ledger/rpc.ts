/**
 * The Solana JSON-RPC over the local ledger: the methods `@solana/web3.js` 1.x, `@solana/kit`,
 * `@solana/pay` and wallets call to fund, pay, look up and verify, answering in a node's shapes
 * (results with `context.slot`, errors with a node's codes and messages). Every request's params
 * are checked with zod (rpc-params.ts); a bad one is the node's -32602 'Invalid params'.
 *
 * Here: the chain's methods (slot, blockhash, fees) and the handler. The account methods and the
 * per-request work caps (RequestLimits) are in rpc-accounts.ts, the transaction methods in
 * rpc-transactions.ts.
 */
import { z } from 'zod';
import { createJsonRpcHandler, RpcError, type RpcMethod } from './json-rpc';
import type { LocalLedger } from './ledger';
import { accountMethods, RequestBudget, type RequestLimits } from './rpc-accounts';
import { BaseConfig, contextWrapper, decodeWire, params } from './rpc-params';
import { transactionMethods } from './rpc-transactions';
import { MalformedTransaction, messageFee } from './transaction-decoding';

export function createRpcHandler(ledger: LocalLedger) {
  const withContext = contextWrapper(ledger);
  const methods: Record<string, RpcMethod<RequestBudget>> = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 3294202862 }),
    getGenesisHash: () => ledger.genesisHash,
    getSlot: () => ledger.slot,
    getBlockHeight: () => ledger.blockHeight,
    getEpochInfo: () => ({
      absoluteSlot: ledger.slot,
      blockHeight: ledger.blockHeight,
      epoch: 0,
      slotIndex: ledger.slot,
      slotsInEpoch: 432000,
      transactionCount: null,
    }),
    getFirstAvailableBlock: () => 0,
    getRecentPrioritizationFees: () => [],
    getBlockTime: (p) => {
      const [slot] = params(z.tuple([z.number().int().min(0)]), p);
      const time = ledger.blockTime(slot);
      if (time === null) throw new RpcError(-32004, `Block not available for slot ${slot}`);
      return time;
    },

    getLatestBlockhash: (p) => {
      params(z.tuple([BaseConfig.optional()]).or(z.tuple([])), p);
      return withContext(ledger.latestBlockhash());
    },
    isBlockhashValid: (p) => {
      const [hash] = params(z.tuple([z.string()]).rest(BaseConfig), p);
      return withContext(ledger.isBlockhashValid(hash));
    },
    getFeeForMessage: (p) => {
      const [message] = params(z.tuple([z.string()]).rest(BaseConfig), p);
      const fee = messageFee(decodeWire(message, 'base64'));
      return withContext(fee === null ? null : Number(fee));
    },
    getMinimumBalanceForRentExemption: (p) => {
      const [length] = params(z.tuple([z.number().int().min(0)]).rest(BaseConfig), p);
      return ledger.minimumBalanceForRentExemption(length);
    },
    ...accountMethods(ledger),
    ...transactionMethods(ledger),
  };

  return createJsonRpcHandler(methods, {
    context: (limits: RequestLimits | undefined) => new RequestBudget(limits),
    translate: (err) =>
      err instanceof MalformedTransaction
        ? new RpcError(-32602, `invalid transaction: ${err.message}`)
        : undefined,
  });
}
