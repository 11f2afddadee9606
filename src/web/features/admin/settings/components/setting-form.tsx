import { Eye, EyeOff, KeyRound, Link2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { ADMIN_MESSAGES } from '#common/schemas/admin';
import {
  AdminSettingUpdateSchema,
  SETTING_VALUE_MAX_LENGTH,
  type AdminSetting,
} from '#common/schemas/admin-settings';
import { Alert } from '#web/components/ui/alert';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { Input } from '#web/components/ui/input';
import { isApiError } from '#web/lib/api-client';
import { formatDateTime } from '#web/features/admin/shared/format';
import { useFlash } from '#web/features/admin/shared/hooks/use-flash';
import { useUpdateSetting } from '../api/update-setting';

const SOURCE: Record<AdminSetting['source'], { label: string; tone: BadgeTone }> = {
  settings: { label: 'Set here', tone: 'green' },
  environment: { label: 'From environment', tone: 'blue' },
  unset: { label: 'Not set', tone: 'neutral' },
};

const FAILED = 'Failed to update configuration';

/** One API configuration: provider, key name, its masked value, and a new value with Update. */
export function SettingForm({ setting }: { setting: AdminSetting }) {
  const [value, setValue] = useState('');
  const [isRevealed, setRevealed] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const errorId = useId();
  const [flash, setFlash] = useFlash();
  const update = useUpdateSetting();
  const inputId = useId();
  const currentId = useId();
  const Icon = setting.kind === 'url' ? Link2 : KeyRound;
  const source = SOURCE[setting.source];

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFlash(null);
    const parsed = AdminSettingUpdateSchema.safeParse({ value });
    if (!parsed.success) {
      setInputError(parsed.error.issues[0]?.message ?? 'Please enter a value');
      return;
    }
    setInputError(null);
    update.mutate(
      { provider: setting.provider, keyName: setting.keyName, value },
      {
        onSuccess: () => {
          setValue('');
          setRevealed(false);
          setFlash(ADMIN_MESSAGES.configUpdated);
        },
      },
    );
  };

  const error = update.isError
    ? isApiError(update.error) && update.error.status >= 400 && update.error.status < 500
      ? `${FAILED}: ${update.error.message}`
      : FAILED
    : null;

  return (
    <form
      onSubmit={onSubmit}
      aria-label={setting.label}
      className="flex flex-col rounded-2xl bg-white p-5 shadow-sm ring-1 shadow-stone-900/[0.03] ring-stone-200/80 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-rose-50 text-rose-600">
            <Icon className="size-4.5" strokeWidth={1.75} aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <h2 className="text-[15px] font-semibold text-stone-950">{setting.label}</h2>
            <p className="mt-0.5 flex flex-wrap items-center gap-x-1.5 font-mono text-xs text-stone-500">
              <span>
                <span className="sr-only">Provider </span>
                {setting.provider}
              </span>
              <span aria-hidden="true">/</span>
              <span>
                <span className="sr-only">Key name </span>
                {setting.keyName}
              </span>
            </p>
          </div>
        </div>
        <Badge tone={source.tone} hasDot>
          {source.label}
        </Badge>
      </div>

      <dl className="mt-4 grid gap-1 rounded-xl bg-stone-50 px-4 py-3 text-sm sm:grid-cols-[8rem_1fr]">
        <dt className="text-stone-500">Current value</dt>
        <dd id={currentId} className="font-mono break-all text-stone-900">
          {setting.maskedValue ?? <span className="font-sans text-stone-500">Not set</span>}
        </dd>
        {setting.updatedAt ? (
          <>
            <dt className="text-stone-500">Updated</dt>
            <dd className="text-stone-700">{formatDateTime(setting.updatedAt)}</dd>
          </>
        ) : null}
      </dl>

      <div className="mt-auto pt-4">
        <label htmlFor={inputId} className="block text-sm font-medium text-stone-800">
          New value
        </label>
        <div className="mt-1.5 flex flex-col gap-3 sm:flex-row">
          <div className="relative min-w-0 flex-1">
            <Input
              id={inputId}
              name="value"
              type={isRevealed || setting.kind === 'url' ? 'text' : 'password'}
              inputMode={setting.kind === 'url' ? 'url' : undefined}
              value={value}
              onChange={(e) => {
                setValue(e.target.value);
                setInputError(null);
              }}
              placeholder={setting.maskedValue ?? (setting.kind === 'url' ? 'https://…' : 'Enter a value')}
              maxLength={SETTING_VALUE_MAX_LENGTH}
              autoComplete="off"
              spellCheck={false}
              aria-describedby={inputError ? `${errorId} ${currentId}` : currentId}
              aria-invalid={inputError ? true : undefined}
              required={false}
              className={setting.kind === 'url' ? 'font-mono' : 'pr-11 font-mono'}
            />
            {setting.kind === 'url' ? null : (
              <button
                type="button"
                onClick={() => setRevealed((v) => !v)}
                aria-label={isRevealed ? 'Hide the value you typed' : 'Show the value you typed'}
                aria-pressed={isRevealed}
                className="absolute top-1/2 right-1.5 inline-flex size-8 -translate-y-1/2 items-center justify-center rounded-lg text-stone-400 hover:bg-stone-100 hover:text-stone-700"
              >
                {isRevealed ? (
                  <EyeOff className="size-4" aria-hidden="true" />
                ) : (
                  <Eye className="size-4" aria-hidden="true" />
                )}
              </button>
            )}
          </div>
          <Button type="submit" variant="secondary" isLoading={update.isPending}>
            {update.isPending ? 'Saving...' : 'Update'}
          </Button>
        </div>
        {inputError ? (
          <p id={errorId} className="mt-1.5 text-xs font-medium text-red-600">
            {inputError}
          </p>
        ) : null}
      </div>

      {error ? (
        <Alert variant="error" className="mt-4">
          {error}
        </Alert>
      ) : flash ? (
        <Alert variant="success" className="mt-4">
          {flash}
        </Alert>
      ) : null}
    </form>
  );
}
