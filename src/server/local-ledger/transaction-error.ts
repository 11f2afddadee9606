/**
 * litesvm's transaction errors in the JSON the Solana JSON-RPC uses (`"InsufficientFundsForFee"`,
 * `{"InstructionError":[0,{"Custom":1}]}`), and the sentence a node puts in a preflight failure.
 */
import type { FailedTransactionMetadata } from 'litesvm';

// The order of litesvm's `TransactionErrorFieldless` and `InstructionErrorFieldless` enums.
const TRANSACTION_ERRORS = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const;

const INSTRUCTION_ERRORS = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const;

/** A transaction error as the RPC writes it (`meta.err`, `status.Err`). */
export type RpcTransactionError = string | Record<string, unknown>;

function instructionError(err: unknown): unknown {
  if (typeof err === 'number') return INSTRUCTION_ERRORS[err] ?? 'GenericError';
  if (err && typeof err === 'object' && 'code' in err) return { Custom: (err as { code: number }).code };
  return 'BorshIoError';
}

export function toRpcError(failed: FailedTransactionMetadata): RpcTransactionError {
  const err = failed.err() as unknown;
  if (typeof err === 'number') return TRANSACTION_ERRORS[err] ?? 'SanitizeFailure';
  const value = err as {
    index?: number;
    accountIndex?: number;
    err?: () => unknown;
    constructor: { name: string };
  };
  if (typeof value.err === 'function')
    return { InstructionError: [value.index, instructionError(value.err())] };
  if (value.accountIndex !== undefined) {
    const name = value.constructor.name.includes('Rent')
      ? 'InsufficientFundsForRent'
      : 'ProgramExecutionTemporarilyRestricted';
    return { [name]: { account_index: value.accountIndex } };
  }
  if (value.index !== undefined) return { DuplicateInstruction: value.index };
  return 'SanitizeFailure';
}

const TRANSACTION_ERROR_TEXT: Partial<Record<string, string>> = {
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  SignatureFailure: 'Transaction did not pass signature verification',
};

/** The words a node gives after 'Transaction simulation failed: ' for this error. */
export function describeRpcError(err: RpcTransactionError): string {
  if (typeof err === 'string') return TRANSACTION_ERROR_TEXT[err] ?? err;
  const instruction = err.InstructionError as [number, unknown] | undefined;
  if (instruction) {
    const [index, inner] = instruction;
    const detail =
      inner && typeof inner === 'object' && 'Custom' in inner
        ? `custom program error: 0x${(inner as { Custom: number }).Custom.toString(16)}`
        : String(inner);
    return `Error processing Instruction ${index}: ${detail}`;
  }
  return JSON.stringify(err);
}

/** A transaction refused before it ran (a node's preflight or sanitize failure). */
export class LedgerRejection extends Error {
  constructor(
    readonly err: RpcTransactionError,
    readonly logs: string[],
    readonly unitsConsumed: number,
  ) {
    super(describeRpcError(err));
  }
}

export interface SimulationResult {
  err: RpcTransactionError | null;
  logs: string[];
  unitsConsumed: number;
}
