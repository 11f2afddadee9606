/**
 * The local chain's per-client rates out of the way of tests: every test client is 127.0.0.1 (a
 * wallet funded from the faucet per test, a second instance polling the first over HTTP, a
 * journey's pages). The per-request limits stay the defaults; tests of the limits set their own.
 */
export const LOCAL_CHAIN_TEST_LIMITS: Record<string, string> = {
  LOCAL_CHAIN_CALLS_PER_MINUTE: '1000000',
  LOCAL_CHAIN_SENDS_PER_MINUTE: '1000000',
  LOCAL_CHAIN_AIRDROPS_PER_MINUTE: '1000000',
  LOCAL_CHAIN_SCANS_PER_MINUTE: '1000000',
};
