import { stripeCounterpartOf, type AdminSetting } from '#common/schemas/admin-settings';
import { Alert } from '#web/components/ui/alert';
import { Skeleton } from '#web/components/ui/skeleton';
import { useSettings } from '../api/get-settings';
import { SettingForm } from './setting-form';

/** Every API configuration, one form each. Values arrive masked; the full value never does. */
export function ApiSettings() {
  const settings = useSettings();

  if (settings.isError) return <Alert variant="error">Failed to load configurations</Alert>;
  if (settings.isPending) {
    return (
      <div role="status" className="grid gap-4 xl:grid-cols-2">
        <span className="sr-only">Loading configurations</span>
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-stone-200/80">
            <Skeleton className="h-5 w-48" />
            <Skeleton className="h-12 w-full" />
            <Skeleton className="h-11 w-full" />
          </div>
        ))}
      </div>
    );
  }
  const list = settings.data.settings;
  /** The other Stripe key's mode (secret with publishable), so the form refuses mixed keys at once. */
  const counterpartOf = (setting: AdminSetting) => {
    const name = stripeCounterpartOf(setting.provider, setting.keyName);
    const other = name ? list.find((s) => s.provider === setting.provider && s.keyName === name) : undefined;
    return other?.mode ?? null;
  };
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      {list.map((setting) => (
        <SettingForm
          key={`${setting.provider}/${setting.keyName}`}
          setting={setting}
          counterpartMode={counterpartOf(setting)}
        />
      ))}
    </div>
  );
}
