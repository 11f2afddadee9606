import { Check, Copy, Download, ShieldCheck } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import type { TwoFactorEnableResponse } from '#common/schemas/auth';
import { Alert } from '#web/components/ui/alert';
import { Badge } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Skeleton } from '#web/components/ui/skeleton';
import { errorMessage } from '#web/lib/api-client';
import { formText } from '#web/lib/form-data';
import { useShopName } from '#web/lib/shop-name';
import {
  useConfirmTwoFactor,
  useDisableTwoFactor,
  useEnableTwoFactor,
  useTwoFactorStatus,
} from '../api/two-factor';

/** The backup codes as a text file: one per line, under a line saying what they are. */
function backupCodesText(shopName: string, codes: readonly string[]): string {
  return `${shopName} two-factor backup codes (each signs you in once)\n\n${codes.join('\n')}\n`;
}

/** Copy and Download for the backup codes, so they can be kept somewhere safe in one step. */
function BackupCodeActions({ codes }: { codes: readonly string[] }) {
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const shopName = useShopName();
  useEffect(() => {
    if (copy === 'idle') return;
    const timer = setTimeout(() => setCopy('idle'), 2000);
    return () => clearTimeout(timer);
  }, [copy]);
  const copyCodes = async () => {
    try {
      await navigator.clipboard.writeText(backupCodesText(shopName, codes));
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([backupCodesText(shopName, codes)], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'aelo-backup-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <Button type="button" variant="outline" size="sm" onClick={() => void copyCodes()}>
        {copy === 'copied' ? (
          <Check className="size-3.5 text-emerald-600" aria-hidden="true" />
        ) : (
          <Copy className="size-3.5" aria-hidden="true" />
        )}
        {copy === 'copied' ? 'Copied!' : 'Copy codes'}
      </Button>
      <Button type="button" variant="outline" size="sm" onClick={download}>
        <Download className="size-3.5" aria-hidden="true" />
        Download
      </Button>
      <p role="status" className="text-xs text-stone-500">
        {copy === 'failed' ? 'Copy did not work here: download them or write them down.' : ''}
      </p>
    </div>
  );
}

function useQr(uri: string | null): string | null {
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    if (!uri) return;
    let live = true;
    void import('qrcode').then(async (qr) => {
      const svg = await qr.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', width: 200, margin: 1 });
      if (live) setSrc(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      live = false;
    };
  }, [uri]);
  return src;
}

function Setup({ setup, onDone }: { setup: TwoFactorEnableResponse; onDone: () => void }) {
  const confirm = useConfirmTwoFactor();
  const qr = useQr(setup.totpURI);
  const secret = new URL(setup.totpURI).searchParams.get('secret') ?? '';
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    confirm.mutate(formText(new FormData(event.currentTarget), 'code').replace(/\s/g, ''), {
      onSuccess: onDone,
    });
  };
  return (
    <div className="space-y-5">
      <ol className="list-decimal space-y-4 pl-5 text-sm text-stone-700">
        <li>
          Scan this code with an authenticator app (Google Authenticator, 1Password, Authy…), or enter the key
          by hand.
          <div className="mt-3 flex flex-wrap items-center gap-4">
            {qr ? (
              <img
                src={qr}
                width={160}
                height={160}
                alt="QR code for your authenticator app"
                className="size-40 rounded-xl ring-1 ring-stone-200"
              />
            ) : (
              <Skeleton className="size-40" />
            )}
            <code
              className="rounded-lg bg-stone-100 px-2 py-1 font-mono text-xs break-all text-stone-800"
              data-testid="totp-secret"
            >
              {secret}
            </code>
          </div>
        </li>
        <li>
          Save these backup codes somewhere safe. Each signs you in once if you lose your phone; they are
          shown only now.
          <ul
            className="mt-3 grid grid-cols-2 gap-2 font-mono text-xs text-stone-800 sm:grid-cols-5"
            aria-label="Backup codes"
          >
            {setup.backupCodes.map((code) => (
              <li key={code} className="rounded-lg bg-stone-100 px-2 py-1 text-center">
                {code}
              </li>
            ))}
          </ul>
          <BackupCodeActions codes={setup.backupCodes} />
        </li>
        <li>Enter the 6-digit code the app shows to turn two-factor on.</li>
      </ol>
      {confirm.error ? (
        <Alert variant="error">{errorMessage(confirm.error, 'Failed to verify the code')}</Alert>
      ) : null}
      <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
        <Field label="Authentication code" className="sm:w-56" isRequired>
          <Input name="code" inputMode="numeric" autoComplete="one-time-code" />
        </Field>
        <Button type="submit" isLoading={confirm.isPending}>
          Turn on
        </Button>
      </form>
    </div>
  );
}

/**
 * Two-factor sign-in in the account settings: turned on with the password, a QR code for the
 * authenticator app, backup codes shown once, and a first code; turned off with password and code.
 */
export function TwoFactorSettings() {
  const status = useTwoFactorStatus();
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const [step, setStep] = useState<'idle' | 'password' | 'setup' | 'disable'>('idle');
  const [notice, setNotice] = useState<string | null>(null);

  const onPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    enable.mutate(formText(new FormData(event.currentTarget), 'password'), {
      onSuccess: () => setStep('setup'),
    });
  };
  const onDisable = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    disable.mutate(
      { password: formText(form, 'password'), code: formText(form, 'code').replace(/\s/g, '') },
      {
        onSuccess: () => {
          setStep('idle');
          setNotice('Two-factor authentication is off.');
        },
      },
    );
  };

  const enabled = status.data?.enabled === true;
  return (
    <section
      aria-labelledby="two-factor-title"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200/80 sm:p-6"
    >
      <div className="flex items-start justify-between gap-4">
        <div className="flex gap-3">
          <ShieldCheck className="mt-0.5 size-5 shrink-0 text-rose-600" aria-hidden="true" />
          <div>
            <h2 id="two-factor-title" className="font-semibold text-stone-950">
              Two-factor authentication
            </h2>
            <p className="mt-1 text-sm text-stone-500">
              A code from your phone at every sign-in, on top of your password.
            </p>
          </div>
        </div>
        {status.isPending ? (
          <Skeleton className="h-6 w-12" />
        ) : (
          <Badge tone={enabled ? 'green' : 'neutral'} hasDot>
            {enabled ? 'On' : 'Off'}
          </Badge>
        )}
      </div>
      <div className="mt-5">
        {notice ? (
          <Alert variant="success" className="mb-4">
            {notice}
          </Alert>
        ) : null}
        {step === 'setup' && enable.data ? (
          <Setup
            setup={enable.data}
            onDone={() => {
              setStep('idle');
              setNotice('Two-factor authentication is on.');
            }}
          />
        ) : step === 'password' ? (
          <form onSubmit={onPassword} className="flex flex-col gap-3 sm:flex-row sm:items-end" noValidate>
            <Field
              label="Your password"
              error={enable.error ? errorMessage(enable.error, 'Invalid password') : undefined}
              className="sm:w-72"
              isRequired
            >
              <Input name="password" type="password" autoComplete="current-password" />
            </Field>
            <Button type="submit" isLoading={enable.isPending}>
              Continue
            </Button>
            <Button type="button" variant="ghost" onClick={() => setStep('idle')}>
              Cancel
            </Button>
          </form>
        ) : step === 'disable' ? (
          <form
            onSubmit={onDisable}
            className="grid gap-3 sm:grid-cols-[1fr_1fr_auto_auto] sm:items-end"
            noValidate
          >
            <Field label="Your password" isRequired>
              <Input name="password" type="password" autoComplete="current-password" />
            </Field>
            <Field label="Authentication code" isRequired>
              <Input name="code" inputMode="numeric" autoComplete="one-time-code" />
            </Field>
            <Button type="submit" variant="outline" isLoading={disable.isPending}>
              Turn off
            </Button>
            <Button type="button" variant="ghost" onClick={() => setStep('idle')}>
              Cancel
            </Button>
            {disable.error ? (
              <Alert variant="error" className="sm:col-span-4">
                {errorMessage(disable.error, 'Failed to turn two-factor off')}
              </Alert>
            ) : null}
          </form>
        ) : status.isError ? (
          <Alert variant="error">{errorMessage(status.error, 'Failed to load two-factor status')}</Alert>
        ) : enabled ? (
          <Button
            variant="outline"
            onClick={() => {
              setNotice(null);
              disable.reset();
              setStep('disable');
            }}
          >
            Turn off two-factor
          </Button>
        ) : (
          <Button
            onClick={() => {
              setNotice(null);
              enable.reset();
              setStep('password');
            }}
            disabled={status.isPending}
          >
            Enable
          </Button>
        )}
      </div>
    </section>
  );
}
