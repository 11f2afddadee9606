import { cn } from '#web/lib/cn';

export interface SegmentedOption<T extends string> {
  value: T;
  label: string;
}

export interface SegmentedProps<T extends string> {
  /** Accessible name of the group, e.g. 'Gender'. */
  label: string;
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange: (value: T) => void;
  className?: string;
}

/** A row of filter buttons, one pressed at a time (buttons with aria-pressed in a named group). */
export function Segmented<T extends string>({
  label,
  options,
  value,
  onChange,
  className,
}: SegmentedProps<T>) {
  return (
    <div
      role="group"
      aria-label={label}
      className={cn('inline-flex max-w-full gap-1 overflow-x-auto rounded-full bg-stone-100 p-1', className)}
    >
      {options.map((option) => {
        const isActive = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={isActive}
            onClick={() => onChange(option.value)}
            className={cn(
              'h-8 shrink-0 rounded-full px-3.5 text-sm font-medium whitespace-nowrap transition-colors',
              isActive
                ? 'bg-white text-stone-950 shadow-sm ring-1 ring-stone-200'
                : 'text-stone-600 hover:text-stone-950',
            )}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
