import { Check, Copy, ExternalLink, Smartphone, Wallet as WalletIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isMobileUserAgent } from '#common/device';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { registerDemoWallet } from '#web/lib/solana/demo-wallet';
import {
  onWalletsChange,
  payingWallets,
  payWithWallet,
  WALLET_MESSAGES,
  type PayingWallet,
} from '#web/lib/solana/wallets';
import { useQrCode } from '#web/lib/solana/use-qr-code';

/**
 * A Solana Pay request as the shopper meets it: the amount, a countdown of its life, a QR code
 * (highest error correction, 300 px) with 'Copy payment link' on desktops, the wallet link on phones
 * and tablets (by user agent), and 'Pay with browser wallet' through Wallet Standard. It never
 * decides that anything is paid: the caller follows the server's status.
 */
export interface SolanaPayPanelProps {
  /** The `solana:` URL of the QR code and the wallet link. */
  paymentUrl: string;
  /** Where a browser wallet gets its transaction (a Solana Pay transaction request). */
  transactionPath: string;
  walletChain: string;
  /** Register the Local Demo Wallet (local ledger only). */
  demoWallet: boolean;
  /** '0.1666 SOL' */
  amountText: string;
  /** The amount's value in dollars, as the server priced it ('$61.20'). */
  usdText?: string | null;
  /** A discount the coin brings ('10% off' for the shop's token). */
  discountText?: string | null;
  expiresAt: string;
  /** Processing or done: every button is off. */
  disabled: boolean;
  onSent: (signature: string) => void;
}

function useCountdown(expiresAt: string): string {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const left = Math.max(0, Math.floor((Date.parse(expiresAt) - now) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}

function useWallets(chain: string, demoWallet: boolean): PayingWallet[] {
  const [wallets, setWallets] = useState<PayingWallet[]>(() => payingWallets(chain));
  useEffect(() => {
    const refresh = () => setWallets(payingWallets(chain));
    const off = onWalletsChange(refresh);
    if (demoWallet) void registerDemoWallet().then(refresh, refresh);
    refresh();
    return off;
  }, [chain, demoWallet]);
  return wallets;
}

export function SolanaPayPanel(props: SolanaPayPanelProps) {
  const { paymentUrl, transactionPath, walletChain, demoWallet, amountText, expiresAt, disabled, onSent } =
    props;
  const { usdText = null, discountText = null } = props;
  const [isMobile] = useState(
    () => typeof navigator !== 'undefined' && isMobileUserAgent(navigator.userAgent),
  );
  const countdown = useCountdown(expiresAt);
  const qr = useQrCode(paymentUrl);
  const wallets = useWallets(walletChain, demoWallet);
  const [copied, setCopied] = useState(false);
  const [walletError, setWalletError] = useState<string | null>(null);
  const [isChoosing, setIsChoosing] = useState(false);
  const [isSending, setIsSending] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);

  const pay = async (wallet: PayingWallet) => {
    setIsChoosing(false);
    setWalletError(null);
    setIsSending(true);
    try {
      onSent(await payWithWallet(wallet, transactionPath, walletChain));
    } catch (error) {
      setWalletError(error instanceof Error && error.message ? error.message : WALLET_MESSAGES.connect);
    } finally {
      setIsSending(false);
    }
  };

  const onWalletButton = async () => {
    let available = wallets;
    // Pressed before the Local Demo Wallet has registered (its key is still on its way): wait for
    // it rather than telling the shopper to install a wallet.
    if (available.length === 0 && demoWallet) {
      setWalletError(null);
      setIsSending(true);
      await registerDemoWallet().catch(() => undefined);
      setIsSending(false);
      available = payingWallets(walletChain);
    }
    if (available.length === 0) {
      setWalletError(WALLET_MESSAGES.install);
      return;
    }
    if (available.length === 1) void pay(available[0]!);
    else setIsChoosing((v) => !v);
  };

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(paymentUrl);
      setCopied(true);
    } catch {
      setWalletError('Copy did not work here: scan the QR code instead.');
    }
  };

  const busy = disabled || isSending;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-x-3 gap-y-2">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-stone-500 uppercase">Amount due</p>
          <p
            className="text-xl font-semibold tracking-tight whitespace-nowrap text-stone-950 tabular-nums sm:text-2xl"
            data-testid="crypto-amount"
          >
            {amountText}
          </p>
          {usdText || discountText ? (
            <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-stone-600">
              {usdText ? (
                <span className="tabular-nums" data-testid="crypto-amount-usd">
                  {usdText}
                </span>
              ) : null}
              {discountText ? (
                <span
                  className="rounded-full bg-rose-50 px-2 py-0.5 text-xs font-semibold text-rose-700 ring-1 ring-rose-200/70"
                  data-testid="crypto-discount"
                >
                  {discountText}
                </span>
              ) : null}
            </p>
          ) : null}
        </div>
        <p className="shrink-0 text-right text-xs whitespace-nowrap text-stone-500">
          Expires in{' '}
          <span className="font-semibold text-stone-800 tabular-nums" role="timer" aria-live="off">
            {countdown}
          </span>
        </p>
      </div>

      {isMobile ? (
        <a
          href={paymentUrl}
          className="flex h-12 w-full items-center justify-center gap-2 rounded-full bg-stone-950 text-sm font-medium text-white aria-disabled:pointer-events-none aria-disabled:opacity-50"
          aria-disabled={busy}
          data-payment-url={paymentUrl}
        >
          <Smartphone className="size-4" aria-hidden="true" />
          Open in wallet app
        </a>
      ) : (
        <div className="flex flex-col items-center gap-3 rounded-2xl bg-white p-4 ring-1 ring-stone-200">
          {qr ? (
            <img
              src={qr}
              width={300}
              height={300}
              alt="Solana Pay QR code: scan it with a Solana wallet"
              className="size-[min(300px,100%)]"
            />
          ) : (
            <div
              className="size-[min(300px,100%)] animate-pulse rounded-xl bg-stone-100"
              aria-hidden="true"
            />
          )}
          <p className="text-center text-xs text-stone-500">
            Scan with Phantom, Solflare or any Solana Pay wallet.
          </p>
          <Button
            variant="outline"
            size="sm"
            onClick={() => void copy()}
            disabled={busy}
            data-payment-url={paymentUrl}
          >
            {copied ? (
              <Check className="size-4 text-emerald-600" aria-hidden="true" />
            ) : (
              <Copy className="size-4" aria-hidden="true" />
            )}
            {copied ? 'Copied!' : 'Copy payment link'}
          </Button>
        </div>
      )}

      <Button
        size="lg"
        fullWidth
        variant="secondary"
        onClick={() => void onWalletButton()}
        disabled={busy}
        isLoading={isSending}
      >
        {isSending ? null : <WalletIcon className="size-4" aria-hidden="true" />}
        Pay with browser wallet
      </Button>
      {isChoosing ? (
        <ul className="space-y-2" aria-label="Choose a wallet">
          {wallets.map((wallet) => (
            <li key={wallet.name}>
              <button
                type="button"
                onClick={() => void pay(wallet)}
                className="flex h-11 w-full items-center gap-3 rounded-xl px-3 text-sm font-medium text-stone-800 ring-1 ring-stone-200 hover:bg-stone-50"
              >
                <img src={wallet.icon} alt="" width={20} height={20} className="size-5 rounded" />
                {wallet.name}
                <ExternalLink className="ml-auto size-3.5 text-stone-400" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {walletError ? <Alert variant="error">{walletError}</Alert> : null}
    </div>
  );
}
