import { UserRoundPlus } from 'lucide-react';
import { useRef, useState, type FormEvent, type HTMLInputAutoCompleteAttribute } from 'react';
import { SHIPPING_FIELDS, validateShippingInfo, type ShippingField } from '#common/schemas/checkout';
import { PASSWORD_MIN_LENGTH } from '#common/schemas/auth';
import { Alert } from '#web/components/ui/alert';
import { Field } from '#web/components/ui/field';
import { Input } from '#web/components/ui/input';
import { Select } from '#web/components/ui/select';
import { SHIPPING_COUNTRIES, shippingCountryCode, US_STATES, usStateCode } from '#common/us-states';
import { useCurrentUser } from '#web/lib/current-user';
import { useShippingPrefill } from '../hooks/use-shipping-prefill';
import { useCheckoutStore } from '../stores/checkout-store';
import { validateAccountDraft, type AccountErrors } from '../utils/account-draft';

export const INFO_FORM_ID = 'checkout-info-form';

interface FieldLook {
  autoComplete: HTMLInputAutoCompleteAttribute;
  type?: 'text' | 'email' | 'tel';
  inputMode?: 'email' | 'tel' | 'text';
  placeholder?: string;
  /** Columns out of 6 on wider drawers. */
  span: 'full' | 'half' | 'third';
}

const LOOK: Record<ShippingField, FieldLook> = {
  firstName: { autoComplete: 'given-name', span: 'half' },
  lastName: { autoComplete: 'family-name', span: 'half' },
  email: {
    autoComplete: 'email',
    type: 'email',
    inputMode: 'email',
    placeholder: 'you@example.com',
    span: 'full',
  },
  phone: { autoComplete: 'tel', type: 'tel', inputMode: 'tel', placeholder: '(555) 123-4567', span: 'full' },
  address: { autoComplete: 'street-address', placeholder: 'Street and number, apartment', span: 'full' },
  city: { autoComplete: 'address-level2', span: 'full' },
  state: { autoComplete: 'address-level1', span: 'third' },
  zipCode: { autoComplete: 'postal-code', placeholder: '12345', span: 'third' },
  country: { autoComplete: 'country', span: 'third' },
};

const SPAN = {
  full: 'col-span-6',
  half: 'col-span-6 min-[400px]:col-span-3',
  third: 'col-span-6 min-[400px]:col-span-2',
};

interface InfoErrors {
  message: string | null;
  fields: Partial<Record<ShippingField, string>>;
  account: AccountErrors;
}

const NO_ERRORS: InfoErrors = { message: null, fields: {}, account: {} };

/**
 * Step 2: the nine shipping fields (typed values kept in the store, so a reload keeps them) and,
 * for visitors, the optional Create Account block. Valid info moves on to Payment.
 */
export function InfoStep({ onValid }: { onValid: () => void }) {
  useShippingPrefill();
  const { user, isLoading } = useCurrentUser();
  const shippingInfo = useCheckoutStore((s) => s.shippingInfo);
  const account = useCheckoutStore((s) => s.account);
  const setShippingField = useCheckoutStore((s) => s.setShippingField);
  const setShippingInfo = useCheckoutStore((s) => s.setShippingInfo);
  const setAccountField = useCheckoutStore((s) => s.setAccountField);
  const [errors, setErrors] = useState<InfoErrors>(NO_ERRORS);
  const formRef = useRef<HTMLFormElement>(null);
  const showAccount = !isLoading && !user;

  const focusField = (name: string) => {
    const el = formRef.current?.elements.namedItem(name);
    if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement) el.focus();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const shipping = validateShippingInfo(shippingInfo);
    const accountCheck = showAccount ? validateAccountDraft(account) : ({ ok: true, value: null } as const);
    if (!shipping.ok) {
      setErrors({
        message: shipping.message,
        fields: shipping.fields,
        account: accountCheck.ok ? {} : accountCheck.errors,
      });
      const first = SHIPPING_FIELDS.find(({ key }) => shipping.fields[key]);
      if (first) focusField(first.key);
      return;
    }
    if (!accountCheck.ok) {
      setErrors({ message: null, fields: {}, account: accountCheck.errors });
      focusField(accountCheck.errors.password ? 'password' : 'confirmPassword');
      return;
    }
    setErrors(NO_ERRORS);
    // On success `<` and `>` are stripped (and spaces trimmed): show what will be sent.
    setShippingInfo(shipping.value);
    onValid();
  };

  return (
    <form id={INFO_FORM_ID} ref={formRef} noValidate onSubmit={onSubmit} aria-label="Shipping information">
      {errors.message ? (
        <div className="mb-5">
          <Alert variant="error">{errors.message}</Alert>
        </div>
      ) : null}

      <fieldset>
        <legend className="mb-4 text-base font-semibold tracking-tight text-stone-950">
          Where should we send it?
        </legend>
        <div className="grid grid-cols-6 gap-x-3 gap-y-4">
          {SHIPPING_FIELDS.map(({ key, label }) => {
            const look = LOOK[key];
            // Every field's own message beside it; the banner above keeps the spec's sentence.
            const error = errors.fields[key];
            const change = (value: string) => {
              setShippingField(key, value);
              if (error) setErrors((e) => ({ ...e, fields: { ...e.fields, [key]: undefined } }));
            };
            return (
              <Field key={key} label={label} isRequired error={error} className={SPAN[look.span]}>
                {key === 'state' ? (
                  <Select
                    name={key}
                    autoComplete={look.autoComplete}
                    value={usStateCode(shippingInfo.state) ?? ''}
                    onChange={(e) => change(e.target.value)}
                  >
                    <option value="">Choose…</option>
                    {US_STATES.map(([code, name]) => (
                      <option key={code} value={code}>
                        {name}
                      </option>
                    ))}
                  </Select>
                ) : key === 'country' ? (
                  <Select
                    name={key}
                    autoComplete="country"
                    value={shippingCountryCode(shippingInfo.country) ?? ''}
                    onChange={(e) => change(e.target.value)}
                  >
                    <option value="">Choose…</option>
                    {SHIPPING_COUNTRIES.map(([code, name]) => (
                      <option key={code} value={code}>
                        {name}
                      </option>
                    ))}
                  </Select>
                ) : (
                  <Input
                    name={key}
                    type={look.type ?? 'text'}
                    inputMode={look.inputMode}
                    autoComplete={look.autoComplete}
                    placeholder={look.placeholder}
                    value={shippingInfo[key]}
                    maxLength={key === 'email' ? 254 : 200}
                    onChange={(e) => change(e.target.value)}
                  />
                )}
              </Field>
            );
          })}
        </div>
        <p className="mt-3 text-xs text-stone-500">
          We ship within the continental US by USPS, 3 to 5 business days.
        </p>
      </fieldset>

      {showAccount ? (
        <fieldset
          aria-labelledby="create-account-title"
          className="mt-7 rounded-2xl border border-stone-200 bg-stone-50/60 p-4 sm:p-5"
        >
          <div className="flex items-start gap-3">
            <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-white text-rose-600 ring-1 ring-stone-200">
              <UserRoundPlus className="size-4.5" aria-hidden="true" />
            </span>
            <div>
              <p id="create-account-title" className="text-sm font-semibold text-stone-900">
                Create Account <span className="font-normal text-stone-500">(optional)</span>
              </p>
              <p className="mt-0.5 text-[13px] leading-relaxed text-stone-500">
                Choose a password to track this order and earn rewards. Your account uses the email above.
              </p>
            </div>
          </div>
          <div className="mt-4 grid gap-4">
            <Field
              label="Password"
              error={errors.account.password}
              hint={errors.account.password ? undefined : `At least ${PASSWORD_MIN_LENGTH} characters.`}
            >
              <Input
                name="password"
                type="password"
                autoComplete="new-password"
                value={account.password}
                maxLength={128}
                onChange={(e) => setAccountField('password', e.target.value)}
              />
            </Field>
            <Field label="Confirm Password" error={errors.account.confirmPassword}>
              <Input
                name="confirmPassword"
                type="password"
                autoComplete="new-password"
                value={account.confirmPassword}
                maxLength={128}
                onChange={(e) => setAccountField('confirmPassword', e.target.value)}
              />
            </Field>
          </div>
        </fieldset>
      ) : null}
    </form>
  );
}
