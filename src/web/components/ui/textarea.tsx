import { cn } from '#web/lib/cn';
import type { Ref, TextareaHTMLAttributes } from 'react';
import { useFieldControl } from './field';

export interface TextareaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  isInvalid?: boolean;
  ref?: Ref<HTMLTextAreaElement>;
}

/** A multi-line Input; wires itself to a surrounding <Field>. */
export function Textarea({ className, isInvalid, id, required, rows = 4, ...props }: TextareaProps) {
  const field = useFieldControl();
  const invalid = isInvalid ?? field?.isInvalid ?? false;
  return (
    <textarea
      id={id ?? field?.id}
      required={required ?? field?.isRequired}
      aria-invalid={invalid || undefined}
      aria-describedby={props['aria-describedby'] ?? field?.describedBy}
      rows={rows}
      className={cn(
        'block w-full rounded-xl border border-stone-300 bg-white px-3.5 py-2.5 text-base text-stone-900 shadow-xs transition-[border-color,box-shadow] duration-150 placeholder:text-stone-400 hover:border-stone-400 focus:border-rose-600 focus:ring-4 focus:ring-rose-600/15 focus:outline-none aria-invalid:border-red-500 sm:text-sm',
        className,
      )}
      {...props}
    />
  );
}
