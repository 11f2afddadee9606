/**
 * The local ledger as the server holds it: opened once (on first start it writes the genesis
 * accounts), its JSON-RPC handler, and the named accounts the shop uses. Only in local mode
 * (SOLANA_RPC_URL unset); the files live in DATA_DIR/local-ledger.
 */
import path from 'node:path';
import { localChainSetup, type LocalChainSetup } from './genesis';
import { LocalLedger } from './ledger';
import { createRpcHandler } from './rpc';

export interface LocalChain {
  ledger: LocalLedger;
  setup: LocalChainSetup;
  /** Answers a JSON-RPC request body. */
  handle(body: string): Promise<string>;
  close(): void;
}

export async function openLocalChain(dataDir: string): Promise<LocalChain> {
  const dir = path.join(dataDir, 'local-ledger');
  const { ledger, isNew } = await LocalLedger.open(dir);
  const setup = await localChainSetup(ledger, dir, isNew);
  return { ledger, setup, handle: createRpcHandler(ledger), close: () => ledger.save() };
}

/** The local chain of one server: opened on first use, saved when the server stops. */
export interface LocalChainHost {
  get(): Promise<LocalChain>;
  close(): Promise<void>;
}

export function lazyLocalChain(dataDir: string): LocalChainHost {
  let opened: Promise<LocalChain> | undefined;
  return {
    get: () => (opened ??= openLocalChain(dataDir)),
    close: async () => {
      if (opened) (await opened).close();
    },
  };
}
