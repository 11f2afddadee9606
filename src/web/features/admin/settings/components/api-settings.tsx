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
  return (
    <div className="grid gap-4 xl:grid-cols-2">
      {settings.data.settings.map((setting) => (
        <SettingForm key={`${setting.provider}/${setting.keyName}`} setting={setting} />
      ))}
    </div>
  );
}
