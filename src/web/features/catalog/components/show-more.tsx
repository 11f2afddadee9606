import { Button } from '#web/components/ui/button';
import { PRODUCTS_ERROR_TEXT } from './product-texts';
import { cn } from '#web/lib/cn';
import { UNTIL_LIVE_CLASSES, useUntilLive } from '#web/lib/until-live';

/** Below the grid: how far the shopper has come, and the next page on request (the footer stays reachable). */
export function ShowMore({
  shown,
  total,
  loading,
  failed,
  onClick,
}: {
  shown: number;
  total: number;
  loading: boolean;
  failed: boolean;
  onClick: () => void;
}) {
  const untilLive = useUntilLive();
  const percent = total > 0 ? Math.min(100, Math.round((shown / total) * 100)) : 100;
  return (
    <div className="mt-14 flex flex-col items-center gap-4 text-center">
      <p className="text-sm text-stone-600">
        Showing {shown} of {total}
      </p>
      <div className="h-0.5 w-44 overflow-hidden rounded-full bg-stone-200" aria-hidden="true">
        <div className="h-full rounded-full bg-stone-900" style={{ width: `${percent}%` }} />
      </div>
      {failed ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {PRODUCTS_ERROR_TEXT}
        </p>
      ) : null}
      <Button
        variant="outline"
        className={cn('min-w-44 aria-disabled:pointer-events-auto', UNTIL_LIVE_CLASSES)}
        onClick={onClick}
        isLoading={loading}
        {...untilLive}
      >
        Show more
      </Button>
    </div>
  );
}
