import { Eye, EyeOff, KeyRound, Link2, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { ADMIN_MESSAGES } from '#common/schemas/admin';
import {
  SETTING_VALUE_MAX_LENGTH,
  settingValueSchema,
  type AdminSetting,
  type StripeMode,
} from '#common/schemas/admin-settings';
import { Alert } from '#web/components/ui/alert';
import { Badge, type BadgeTone } from '#web/components/ui/badge';
import { Button } from '#web/components/ui/button';
import { ConfirmDialog } from '#web/components/ui/confirm';
import { Input } from '#web/components/ui/input';
import { isApiError } from '#web/lib/api-client';
import { formatDateTime } from '#web/features/admin/shared/format';
import { useFlash } from '#web/features/admin/shared/hooks/use-flash';
import { useRemoveSetting } from '../api/remove-setting';
import { useUpdateSetting } from '../api/update-setting';

const SOURCE: Record<AdminSetting['source'], { label: string; tone: BadgeTone }> = {
  settings: { label: 'Set here', tone: 'green' },
  environment: { label: 'From environment', tone: 'blue' },
  unset: { label: 'Not set', tone: 'neutral' },
};

const FAILED = 'Failed to update configuration';
const REMOVE_FAILED = 'Failed to remove configuration';
const REMOVED = 'Configuration removed';

/** What the key looks like, and what happens on Update, under the Stripe fields. */
const HINTS: Record<string, string> = {
  'stripe/secret_key':
    'Starts with sk_test_ or sk_live_ (rk_ for a restricted key). Stripe is asked to confirm it before it is saved.',
  'stripe/publishable_key': 'Starts with pk_test_ or pk_live_, in the same mode as the secret key.',
  'stripe/webhook_secret': 'Starts with whsec_. Find it on your webhook endpoint in the Stripe Dashboard.',
};

/** Stripe's keys whose removal, with nothing in the environment, stops card payments. */
const CARD_KEYS = new Set(['stripe/secret_key', 'stripe/webhook_secret']);

function removalMessage(setting: AdminSetting): string {
  if (setting.hasEnvironmentValue) {
    return 'The value saved here is deleted, and the shop goes back to the value set in the server’s environment.';
  }
  if (CARD_KEYS.has(`${setting.provider}/${setting.keyName}`)) {
    return 'The value saved here is deleted. The server’s environment has none, so card payments are not configured until a new key is saved.';
  }
  return 'The value saved here is deleted. The server’s environment has none, so this setting will not be set.';
}

/**
 * One API configuration: provider, key name, its masked value, a new value with Update, and
 * Remove for a value saved here. A value is checked as it is typed (Stripe keys: their shape, and
 * not mixing test and live with `counterpartMode`, the other Stripe key's); the server checks it
 * again, and a secret key with Stripe itself, before it answers.
 */
export function SettingForm({
  setting,
  counterpartMode = null,
}: {
  setting: AdminSetting;
  counterpartMode?: StripeMode | null;
}) {
  const [value, setValue] = useState('');
  const [isRevealed, setRevealed] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const [isConfirmingRemove, setConfirmingRemove] = useState(false);
  const errorId = useId();
  const hintId = useId();
  const [flash, setFlash] = useFlash();
  const update = useUpdateSetting();
  const remove = useRemoveSetting();
  const inputId = useId();
  const currentId = useId();
  const Icon = setting.kind === 'url' ? Link2 : KeyRound;
  const source = SOURCE[setting.source];
  const settingKey = `${setting.provider}/${setting.keyName}`;
  const hint = HINTS[settingKey];
  const isSecretKey = settingKey === 'stripe/secret_key';

  const check = (candidate: string): string | null => {
    const parsed = settingValueSchema(setting.provider, setting.keyName, counterpartMode).safeParse(
      candidate,
    );
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Please enter a value');
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFlash(null);
    remove.reset();
    const problem = check(value);
    if (problem) {
      setInputError(problem);
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
        onError: (err) => {
          // The server's word on the value itself (Stripe refused the key, mixed modes) goes under it.
          const fieldError = isApiError(err) ? err.fields.value : undefined;
          if (fieldError) setInputError(fieldError);
        },
      },
    );
  };

  const onRemove = () => {
    setFlash(null);
    update.reset();
    remove.mutate(
      { provider: setting.provider, keyName: setting.keyName },
      {
        onSuccess: () => {
          setConfirmingRemove(false);
          setFlash(REMOVED);
        },
      },
    );
  };

  const error =
    update.isError && !(isApiError(update.error) && update.error.fields.value)
      ? isApiError(update.error) && update.error.hasServerMessage && update.error.status !== 500
        ? `${FAILED}: ${update.error.message}`
        : FAILED
      : null;
  const removeError = remove.isError
    ? isApiError(remove.error) && remove.error.hasServerMessage && remove.error.status !== 500
      ? `${REMOVE_FAILED}: ${remove.error.message}`
      : REMOVE_FAILED
    : null;
  const describedBy = [inputError ? errorId : null, hint ? hintId : null, currentId]
    .filter(Boolean)
    .join(' ');

  return (
    <>
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
                  // Once a problem is shown, it follows the typing (and goes as soon as it is fixed).
                  setInputError(inputError && e.target.value.trim() !== '' ? check(e.target.value) : null);
                }}
                onBlur={() => {
                  if (value.trim() !== '') setInputError(check(value));
                }}
                placeholder={setting.maskedValue ?? (setting.kind === 'url' ? 'https://…' : 'Enter a value')}
                maxLength={SETTING_VALUE_MAX_LENGTH}
                autoComplete="off"
                spellCheck={false}
                aria-describedby={describedBy}
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
          {hint ? (
            <p id={hintId} className="mt-1.5 text-xs leading-relaxed text-stone-500">
              {update.isPending && isSecretKey ? 'Checking the key with Stripe…' : hint}
            </p>
          ) : null}
          {setting.source === 'settings' ? (
            <div className="mt-4 flex items-center justify-between gap-3 border-t border-stone-100 pt-3">
              <p className="text-xs text-stone-500">
                {setting.hasEnvironmentValue
                  ? 'The server’s environment also has a value.'
                  : 'Saved here only.'}
              </p>
              <Button
                type="button"
                variant="ghost"
                size="sm"
                onClick={() => {
                  remove.reset();
                  setConfirmingRemove(true);
                }}
                aria-label={`Remove the saved ${setting.label}`}
                className="-mr-2 text-red-600 hover:bg-red-50 hover:text-red-700"
              >
                <Trash2 className="size-4" aria-hidden="true" />
                Remove
              </Button>
            </div>
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
      <ConfirmDialog
        open={isConfirmingRemove}
        id={`remove-${setting.provider}-${setting.keyName}`}
        title={`Remove the ${setting.label}?`}
        message={removalMessage(setting)}
        confirmLabel="Remove"
        isBusy={remove.isPending}
        error={removeError}
        onConfirm={onRemove}
        onCancel={() => setConfirmingRemove(false)}
      />
    </>
  );
}
