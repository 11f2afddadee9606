import { cn } from '#web/lib/cn';
import { ChevronDown } from 'lucide-react';
import type { Ref, SelectHTMLAttributes } from 'react';
import { useFieldControl } from './field';

export interface SelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'size'> {
  isInvalid?: boolean;
  /** 'md' matches Input (44 px); 'sm' fits toolbars and table rows (36 px). */
  size?: 'sm' | 'md';
  ref?: Ref<HTMLSelectElement>;
  /** Classes of the wrapper (width, margins); className goes on the <select>. */
  wrapperClassName?: string;
}

const sizes = {
  sm: 'h-9 rounded-lg pr-9 pl-3 text-sm',
  md: 'h-11 rounded-xl pr-10 pl-3.5 text-base sm:text-sm',
} as const;

/** A native <select> in the look of Input, with a chevron; wires itself to a surrounding <Field>. */
export function Select({
  className,
  wrapperClassName,
  isInvalid,
  size = 'md',
  id,
  required,
  children,
  ...props
}: SelectProps) {
  const field = useFieldControl();
  const invalid = isInvalid ?? field?.isInvalid ?? false;
  return (
    <div className={cn('relative', wrapperClassName)}>
      <select
        id={id ?? field?.id}
        required={required ?? field?.isRequired}
        aria-invalid={invalid || undefined}
        aria-describedby={props['aria-describedby'] ?? field?.describedBy}
        className={cn(
          'block w-full appearance-none border border-stone-300 bg-white text-stone-900 shadow-xs transition-[border-color,box-shadow] duration-150 hover:border-stone-400 focus:border-rose-600 focus:ring-4 focus:ring-rose-600/15 focus:outline-none disabled:cursor-not-allowed disabled:bg-stone-50 disabled:text-stone-500 aria-invalid:border-red-500',
          sizes[size],
          className,
        )}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-stone-400"
        aria-hidden="true"
      />
    </div>
  );
}
