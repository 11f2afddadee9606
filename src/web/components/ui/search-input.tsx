import { cn } from '#web/lib/cn';
import { Search } from 'lucide-react';
import type { InputHTMLAttributes } from 'react';

export interface SearchInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'size'> {
  /** Accessible name (the placeholder is not a label). */
  label: string;
  wrapperClassName?: string;
}

/** A search box with a magnifier icon, for list toolbars. */
export function SearchInput({ label, wrapperClassName, className, ...props }: SearchInputProps) {
  return (
    <div role="search" className={cn('relative', wrapperClassName)}>
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-400"
        aria-hidden="true"
      />
      <input
        type="search"
        aria-label={label}
        className={cn(
          'block h-9 w-full rounded-lg border border-stone-300 bg-white pr-3 pl-9 text-base text-stone-900 shadow-xs placeholder:text-stone-400 hover:border-stone-400 focus:border-rose-600 focus:ring-4 focus:ring-rose-600/15 focus:outline-none sm:text-sm',
          className,
        )}
        {...props}
      />
    </div>
  );
}
