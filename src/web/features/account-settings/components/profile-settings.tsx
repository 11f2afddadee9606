import { Pencil } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  isValidEmail,
  ProfileSettingsInputSchema,
  SETTINGS_TEXTS,
  type Notifications,
  type ProfileSettings,
} from '#common/schemas/account-settings';
import { US_STATES } from '#common/us-states';
import { Alert } from '#web/components/ui/alert';
import { Button } from '#web/components/ui/button';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { Skeleton } from '#web/components/ui/skeleton';
import { useAccountSettings, useSaveAccountSettings } from '#web/lib/account-settings';
import { errorMessage, isApiError } from '#web/lib/api-client';

type TextKey = 'firstName' | 'lastName' | 'phone' | 'address' | 'city' | 'state' | 'zipCode' | 'country';
type Draft = Record<TextKey, string> & { notifications: Notifications };

const FIELDS: ReadonlyArray<{ key: TextKey; label: string; autoComplete: string; wide?: boolean }> = [
  { key: 'firstName', label: 'First Name', autoComplete: 'given-name' },
  { key: 'lastName', label: 'Last Name', autoComplete: 'family-name' },
  { key: 'phone', label: 'Phone', autoComplete: 'tel' },
  { key: 'address', label: 'Address', autoComplete: 'street-address', wide: true },
  { key: 'city', label: 'City', autoComplete: 'address-level2' },
  { key: 'state', label: 'State', autoComplete: 'address-level1' },
  { key: 'zipCode', label: 'ZIP Code', autoComplete: 'postal-code' },
  { key: 'country', label: 'Country', autoComplete: 'country-name' },
];

const NOTIFICATIONS: ReadonlyArray<{ key: keyof Notifications; label: string; hint: string }> = [
  { key: 'email', label: 'Email notifications', hint: 'Order confirmations, shipping updates and replies' },
  { key: 'sms', label: 'SMS notifications', hint: 'Text messages when your order ships' },
  { key: 'marketing', label: 'Marketing emails', hint: 'New arrivals, drops and holder rewards news' },
];

const stateName = (code: string) => US_STATES.find(([c]) => c === code)?.[1] ?? code;

function draftOf(s: ProfileSettings): Draft {
  return {
    firstName: s.firstName,
    lastName: s.lastName,
    phone: s.phone,
    address: s.address,
    city: s.city,
    state: s.state,
    zipCode: s.zipCode,
    country: s.country,
    notifications: { ...s.notifications },
  };
}

/** Profile settings: view mode with Edit; edit mode with Save and Cancel (spec §2, §4, §5). */
export function ProfileSettingsCard() {
  const query = useAccountSettings();
  const save = useSaveAccountSettings();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Partial<Record<TextKey | 'email', string>>>({});
  const [saved, setSaved] = useState(false);

  if (query.isError)
    return <Alert variant="error">{errorMessage(query.error, 'Failed to load settings')}</Alert>;
  if (query.isPending) return <Skeleton className="h-96 w-full rounded-2xl" />;
  const settings = query.data;

  const edit = () => {
    setSaved(false);
    setErrors({});
    save.reset();
    setDraft(draftOf(settings));
  };
  const cancel = () => {
    setDraft(null);
    setErrors({});
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!draft) return;
    const found: typeof errors = {};
    if (!isValidEmail(settings.email)) found.email = SETTINGS_TEXTS.email;
    const parsed = ProfileSettingsInputSchema.safeParse(draft);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const key = issue.path[0] as TextKey;
        found[key] ??= issue.message;
      }
    }
    setErrors(found);
    if (Object.keys(found).length > 0 || !parsed.success) return;
    save.mutate(parsed.data, {
      onSuccess: () => {
        setDraft(null);
        setSaved(true);
      },
      onError: (error) => {
        if (isApiError(error)) setErrors(error.fields);
      },
    });
  };
  const setField = (key: TextKey, value: string) => setDraft((d) => (d ? { ...d, [key]: value } : d));

  return (
    <section
      aria-labelledby="profile-heading"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-stone-200/80 sm:p-6"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="profile-heading" className="text-lg font-semibold text-stone-950">
            Profile
          </h2>
          <p className="mt-1 text-sm text-stone-500">Your details prefill checkout on every device.</p>
        </div>
        {draft ? null : (
          <Button variant="outline" size="sm" onClick={edit}>
            <Pencil className="size-4" aria-hidden="true" />
            Edit
          </Button>
        )}
      </div>
      <div aria-live="polite" className="mt-4 empty:hidden">
        {saved ? <Alert variant="success">{SETTINGS_TEXTS.saved}</Alert> : null}
        {save.isError && !isApiError(save.error) ? (
          <Alert variant="error">{errorMessage(save.error, 'Failed to save settings')}</Alert>
        ) : null}
      </div>

      {draft ? (
        <form onSubmit={onSubmit} noValidate className="mt-6 space-y-6">
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              label="Email"
              error={errors.email}
              hint="Change it under Email address below."
              className="sm:col-span-2"
            >
              <Input
                name="email"
                type="email"
                value={settings.email}
                readOnly
                className="bg-stone-50 text-stone-500 focus:border-stone-300 focus:ring-0"
              />
            </Field>
            {FIELDS.map((f) => (
              <Field
                key={f.key}
                label={f.label}
                error={errors[f.key]}
                className={f.wide ? 'sm:col-span-2' : undefined}
              >
                {f.key === 'state' ? (
                  <Select
                    name="state"
                    autoComplete={f.autoComplete}
                    value={draft.state}
                    onChange={(e) => setField('state', e.target.value)}
                  >
                    <option value="">Choose a state</option>
                    {US_STATES.map(([code, name]) => (
                      <option key={code} value={code}>
                        {name}
                      </option>
                    ))}
                  </Select>
                ) : (
                  <Input
                    name={f.key}
                    autoComplete={f.autoComplete}
                    inputMode={f.key === 'phone' ? 'tel' : f.key === 'zipCode' ? 'numeric' : undefined}
                    value={draft[f.key]}
                    onChange={(e) => setField(f.key, e.target.value)}
                  />
                )}
              </Field>
            ))}
          </div>
          <fieldset>
            <legend className="text-sm font-medium text-stone-800">Notifications</legend>
            <div className="mt-3 space-y-3">
              {NOTIFICATIONS.map((n) => (
                <div key={n.key} className="flex items-start gap-3">
                  <input
                    id={`notify-${n.key}`}
                    type="checkbox"
                    aria-describedby={`notify-${n.key}-hint`}
                    className="mt-0.5 size-4 rounded border-stone-300 accent-rose-700"
                    checked={draft.notifications[n.key]}
                    onChange={(e) =>
                      setDraft((d) =>
                        d ? { ...d, notifications: { ...d.notifications, [n.key]: e.target.checked } } : d,
                      )
                    }
                  />
                  <div>
                    <label
                      htmlFor={`notify-${n.key}`}
                      className="block cursor-pointer text-sm font-medium text-stone-900"
                    >
                      {n.label}
                    </label>
                    <p id={`notify-${n.key}-hint`} className="text-xs text-stone-500">
                      {n.hint}
                    </p>
                  </div>
                </div>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-wrap gap-3">
            <Button type="submit" isLoading={save.isPending}>
              Save
            </Button>
            <Button type="button" variant="ghost" onClick={cancel} disabled={save.isPending}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <dl className="mt-6 grid gap-x-6 gap-y-4 text-sm sm:grid-cols-2">
          <div className="sm:col-span-2">
            <dt className="text-xs font-medium tracking-wide text-stone-500 uppercase">Email</dt>
            <dd className="mt-1 break-all text-stone-900">{settings.email}</dd>
          </div>
          {FIELDS.map((f) => (
            <div key={f.key} className={f.wide ? 'sm:col-span-2' : undefined}>
              <dt className="text-xs font-medium tracking-wide text-stone-500 uppercase">{f.label}</dt>
              <dd className="mt-1 text-stone-900">
                {(f.key === 'state' ? stateName(settings.state) : settings[f.key]) || (
                  <span className="text-stone-500 italic">Not set</span>
                )}
              </dd>
            </div>
          ))}
          <div className="sm:col-span-2">
            <dt className="text-xs font-medium tracking-wide text-stone-500 uppercase">Notifications</dt>
            <dd className="mt-1 text-stone-900">
              {NOTIFICATIONS.map((n) => `${n.label}: ${settings.notifications[n.key] ? 'On' : 'Off'}`).join(
                ' · ',
              )}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}
