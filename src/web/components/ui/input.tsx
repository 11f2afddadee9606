import { cn } from '#web/lib/cn';
import type { InputHTMLAttributes, Ref } from 'react';
import { useFieldControl } from './field';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  isInvalid?: boolean;
  ref?: Ref<HTMLInputElement>;
}

export const inputClasses =
  'block h-11 w-full rounded-xl border border-stone-300 bg-white px-3.5 text-base text-stone-900 shadow-xs transition-[border-color,box-shadow] duration-150 placeholder:text-stone-400 hover:border-stone-400 focus:border-rose-600 focus:outline-none focus:ring-4 focus:ring-rose-600/15 disabled:cursor-not-allowed disabled:bg-stone-50 disabled:text-stone-500 aria-invalid:border-red-500 aria-invalid:focus:ring-red-500/15 sm:text-sm';

export function Input({ className, isInvalid, id, required, ...props }: InputProps) {
  const field = useFieldControl();
  const invalid = isInvalid ?? field?.isInvalid ?? false;
  return (
    <input
      id={id ?? field?.id}
      required={required ?? field?.isRequired}
      aria-invalid={invalid || undefined}
      aria-describedby={props['aria-describedby'] ?? field?.describedBy}
      className={cn(inputClasses, className)}
      {...props}
    />
  );
}
